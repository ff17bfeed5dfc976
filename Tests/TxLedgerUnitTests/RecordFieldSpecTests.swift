import Foundation
import GRDB
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerStore
@testable import TxLedgerTestSupport

/// `RecordField` is the one definition of a record's fields: it must be the table of
/// Specs/bundle-format.md ("Record frames"), field by field, and the store's `record` table
/// must have the columns derived from it.
struct RecordFieldSpecTests {
    /// The spec's field table: number, name and encoding letter of each field.
    static func specFields() throws -> [(number: Int, name: String, letter: String)] {
        let spec = try String(
            contentsOf: BundleVector.folder.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("bundle-format.md"),
            encoding: .utf8
        )
        let table = try #require(spec.components(separatedBy: "| # | field | | # | field | | # | field | |\n").last)
        var fields: [(number: Int, name: String, letter: String)] = []
        for line in table.split(separator: "\n").dropFirst().prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            for column in stride(from: 0, to: cells.count, by: 3) where !cells[column].isEmpty {
                fields.append((try #require(Int(cells[column])), cells[column + 1], cells[column + 2]))
            }
        }
        return fields.sorted { $0.number < $1.number }
    }

    static func letter(_ encoding: FieldEncoding) -> String {
        switch encoding {
        case .integer: "i"
        case .text: "t"
        case .sharedText: "s"
        case .replica: "r"
        case .sinceTimestamp: "o"
        case .stampTime: "m"
        case .plainText: "plain"
        }
    }

    @Test func theFieldsAreTheSpecsTable() throws {
        let spec = try Self.specFields()
        #expect(spec.count == RecordField.last)
        let code = RecordField.allCases.map { "\($0.number) \($0.name) \(Self.letter($0.encoding))" }
        #expect(code == spec.map { "\($0.number) \($0.name) \($0.letter)" })
    }

    @Test func theRecordTableIsTheRowsColumns() async throws {
        let test = try await TestLedger()
        let columns = try await test.ledger.database.pool.read { db in try db.columns(in: "record").map(\.name) }
        #expect(columns == ["num"] + RecordRow.columns)
    }

    @Test func aRecordOfEveryKindRoundTripsThroughItsFields() throws {
        let stamp = Stamp(millis: 1_751_371_300_000, replica: ReplicaID(rawValue: 7))
        for record in [
            try Fixture.send(status: .failed(reason: "reverted")), try Fixture.swap(), try Fixture.signature(),
        ] {
            let state = RecordState(recording: record, stamp: stamp)
            #expect(try RecordState(fields: state.fields) == state)
        }
    }
}
