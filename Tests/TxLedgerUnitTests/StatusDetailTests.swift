import Foundation
import Testing

@testable import TxLedgerCore

/// The status details (Specs/schema.md, "Status details"): kept by key, checked by their
/// rules, and compared under one stamp by the bytes crdt.md gives.
struct StatusDetailTests {
    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// The terminal register's tie-break key, written out from crdt.md's table by hand.
    @Test func theTerminalTieBreakKeyIsTheSpecsBytes() throws {
        let confirmed = StatusUpdate.confirmed(at: Date(millis: 1000), block: 7, feePaid: try DecimalAmount("0.5"))
        let expectedConfirmed: [UInt8] =
            Array("confirmed".utf8) + [0] + [1] + Self.bigEndian(1000) + [0]
            + [0] + [1] + Self.bigEndian(7) + [1] + Array("0.5".utf8) + [0] + [0]
        #expect(confirmed.tieBreakKey == expectedConfirmed)

        let failed = StatusUpdate.failed(reason: "r", replacedBy: "0xab")
        let expectedFailed: [UInt8] =
            Array("failed".utf8) + [0] + [0] + [1] + Array("r".utf8)
            + [0] + [0] + [0] + [1] + Array("0xab".utf8)
        #expect(failed.tieBreakKey == expectedFailed)

        // No detail: the key ends after the reason.
        #expect(StatusUpdate.failed(reason: "r").tieBreakKey == Array("failed".utf8) + [0, 0, 1] + Array("r".utf8))
    }

    @Test func detailsByKeyAreTheTypedOnes() throws {
        let update = try StatusUpdate(.confirmed, details: ["blockNumber": "12", "feePaid": "0.25"])
        #expect(update.blockNumber == 12 && update.feePaid?.string == "0.25" && update.replacedBy == nil)
        #expect(update == StatusUpdate.confirmed(block: 12, feePaid: try DecimalAmount("0.25")))
        #expect(StatusUpdate.detailKeys == ["blockNumber", "feePaid", "replacedBy"])
    }

    @Test func eachDetailIsCheckedByItsRule() {
        #expect(throws: LedgerError.invalidInput(field: "blockNumber", reason: ExtraFactRule.wholeNumber)) {
            try StatusUpdate(.confirmed, details: ["blockNumber": "-1"])
        }
        #expect(throws: LedgerError.invalidInput(field: "blockNumber", reason: "is given twice")) {
            try StatusUpdate(.confirmed, blockNumber: 1, details: ["blockNumber": "1"])
        }
        #expect(
            throws: LedgerError.invalidInput(
                field: "replacedBy",
                reason: "only a proven failure is replaced by another transaction"
            )
        ) {
            try StatusUpdate(.confirmed, details: ["replacedBy": "0xab"])
        }
        #expect(throws: LedgerError.self) { try StatusUpdate(.failed, details: ["feePaid": "1e5"]) }
        let unknown = #expect(throws: LedgerError.self) { try StatusUpdate(.failed, details: ["gasUsed": "1"]) }
        #expect(unknown?.field == "gasUsed")
        #expect(unknown?.reason == "is not a status detail (blockNumber, feePaid, replacedBy)")
    }
}
