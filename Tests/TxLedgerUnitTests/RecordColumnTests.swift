import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A record's formats agree on its fields (Specs/queries.md, "CSV export"): every field a
/// record carries, but the registers' stamps, shows in its JSON, its CSV line, `show`'s lines
/// and its frame, and taking it away changes all four. A field added to `RecordField` and to
/// one format only fails here.
struct RecordColumnTests {
    /// What no format shows people: the registers' stamps, and what orders a rival claim
    /// (whether the chain said it) no more than a stamp does.
    static let stamps = Set(RecordField.all.filter { $0.encoding == .stampTime || $0.encoding == .replica })
        .union([.rivalChecked])
    static let shown = RecordField.all.filter { !stamps.contains($0) }

    /// The fields no record can be without (taking one away makes no record): the kind, the
    /// chain, the time, a send's or swap's hash, and each kind's required details.
    static let required: Set<RecordField> = [
        .kind, .chain, .timestampMs, .txHash, .toAddress, .amount, .tokenSymbol, .fromTokenSymbol, .fromAmount,
        .fromChain, .toTokenSymbol, .toAmount, .toChain, .provider, .message,
    ]

    @Test func everyShownFieldHasAColumn() {
        let covered = Set(RecordColumn.all.flatMap(\.fields))
        #expect(Set(Self.shown).subtracting(covered).map(\.name).sorted() == [])
        #expect(Set(RecordColumn.all.map(\.csv)).count == RecordColumn.all.count, "a CSV header appears twice")
        #expect(Set(RecordColumn.all.map(\.label)).count == RecordColumn.all.count, "a show key appears twice")
    }

    @Test func takingAFieldAwayChangesTheJSONTheCSVShowAndTheFrame() throws {
        var checked: Set<RecordField> = []
        var refused: Set<RecordField> = []
        var unshown: [String] = []
        for state in try Self.records() {
            let fields = state.fields
            let full = try Self.formats(state)
            for field in Self.shown where fields[field] != nil {
                guard let reduced = try? RecordState(fields: Self.removing(field, from: fields)) else {
                    refused.insert(field)
                    continue
                }
                // A value the record would derive anyway (the chain's explorer link) is no loss.
                guard reduced.record != state.record else { continue }
                checked.insert(field)
                let formats = try Self.formats(reduced)
                if formats.json == full.json { unshown.append("JSON: \(field.name)") }
                if formats.csv == full.csv { unshown.append("CSV: \(field.name)") }
                if formats.show == full.show { unshown.append("show: \(field.name)") }
                if formats.frame == full.frame { unshown.append("frame: \(field.name)") }
            }
        }
        #expect(unshown == [], "formats that do not show a field")
        #expect(refused.subtracting(checked) == Self.required, "fields a record cannot be without")
        let unchecked = Set(Self.shown).subtracting(checked).subtracting(Self.required)
        #expect(unchecked.map(\.name).sorted() == [], "fields no test record carries")
    }

    /// `fields` without `field`; a register's value goes with its stamp, which no longer stamps
    /// anything. The terminal register's details go one at a time.
    static func removing(_ field: RecordField, from fields: RecordFields) -> RecordFields {
        var reduced = fields
        reduced[field] = nil
        if let register = field.register, register != .facts, register != .terminal {
            reduced[register.stamp.time] = nil
            reduced[register.stamp.replica] = nil
        }
        return reduced
    }

    /// A record's four formats.
    static func formats(_ state: RecordState) throws -> (json: Data, csv: String, show: String, frame: [UInt8]) {
        let record = state.record
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var frames = FrameEncoder()
        return (
            try encoder.encode(record), HistoryCSV.line(HistoryCSV.fields(record)), RecordDetail.lines(record),
            frames.frame(state)
        )
    }

    /// Records that together carry every field: sends failed (with everything a failure has,
    /// hidden, checked, a nonce, an explorer link of its own) and confirmed, a failure inferred, a swap between two chains,
    /// a signature request, and a bitcoin send that spends an output.
    static func records() throws -> [RecordState] {
        let stamp = Stamp(millis: Fixture.start.millis, replica: ReplicaID(rawValue: 1))
        func state(_ record: TransactionRecord, _ extra: [RecordField: FieldValue] = [:]) throws -> RecordState {
            var fields = RecordState(recording: record, stamp: stamp).fields
            for (field, value) in extra { fields[field] = value }
            return try RecordState(fields: fields)
        }
        let failed = try Fixture.send(
            status: .failed(
                reason: "reverted",
                block: 7,
                feePaid: try DecimalAmount("0.01"),
                replacedBy: Fixture.evmHash(77)
            ),
            hidden: true
        )
        let confirmed = try Fixture.send(
            hash: 3,
            status: .confirmed(at: Fixture.start.addingTimeInterval(60), block: 5)
        )
        let inferred = try Fixture.minimalSend(hash: 4)
        let bitcoin = try Chain(parsing: "bitcoin")
        let spending = try TransactionRecord(
            facts: try TransactionFacts(
                vaultId: "vault-1",
                chain: bitcoin,
                timestamp: Fixture.start,
                txHash: Fixture.hex(5, digits: 64),
                extras: ["spends": Fixture.hex(6, digits: 64) + ":0"],
                details: .send(
                    try SendDetails(
                        toAddress: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh",
                        amount: try DecimalAmount("0.1"),
                        token: try Token(symbol: "BTC")
                    )
                )
            )
        )
        return [
            try state(
                failed,
                [
                    .nonce: .integer(9), .lastCheckedAtMs: .integer(Fixture.start.millis + 120_000),
                    // Not the chain's explorer, which a record without one shows.
                    .explorerUrl: .text("https://example.com/tx/1"),
                    // Another device's claim against the failure: a dispute.
                    .rivalStatus: .text("confirmed"), .rivalBlockNumber: .integer(8), .rivalFeePaid: .text("0.02"),
                    .rivalTime: .integer(stamp.time - 1), .rivalReplica: .integer(2),
                ]
            ),
            try state(confirmed, [.terminalChecked: .integer(1)]),
            try state(
                try TransactionRecord(
                    facts: inferred.facts,
                    status: .inferredFailure(reason: "dropped: nonce 4 used")
                )
            ),
            try state(
                try Fixture.swap(),
                [
                    .fromChain: .text(try Chain(parsing: "ethereum").id),
                    .toTokenContract: .text("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"),
                ]
            ),
            try state(try Fixture.signature()),
            try state(spending),
        ]
    }
}
