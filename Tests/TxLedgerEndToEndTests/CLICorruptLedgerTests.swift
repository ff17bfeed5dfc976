import Foundation
import GRDB
import PropertyBased
import Testing

@testable import TxLedger
@testable import TxLedgerTestSupport

/// A ledger file whose pages are damaged, used through the CLI.
struct CLICorruptLedgerTests {
    @Test func aLedgerWithCorruptPagesFailsEveryCommandClearlyAndIsNotRepaired() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.sqlite")
        let bytes = try await Fixture.ledgerWithCorruptPages(at: path)
        let url = URL(fileURLWithPath: path)

        // Opening writes page 1 (GRDB's WAL set-up creates and drops a table when there is no
        // WAL: schema.md); no page that holds data may change.
        func dataPages() throws -> Data { try Data(contentsOf: url).subdata(in: 4096..<bytes.count) }
        let before = try dataPages()
        let cli = CLI(db: path)
        for arguments in [
            ["list", "--json", "--limit", "5000"], ["export-csv", "--vault", "vault-1", "--out", dir.path("out.csv")],
            CLI.send(1),
            ["note", Fixture.evmHash(7), "x"], ["import", dir.path("none.txb"), "--key-file", dir.path("none.key")],
        ] {
            let result = try await cli.run(arguments)
            #expect(
                [65, 66, 74].contains(result.status) && result.stderrLines.count == 1,
                "\(arguments[0]): \(result.status) \(result.stderr)"
            )
            #expect(try dataPages() == before, "\(arguments[0]) left every data page as it was")
        }
        let listing = try await cli.run(["list", "--json", "--limit", "5000"])
        #expect(listing.status == 74 && listing.stderr.contains("the database is corrupt"), "\(listing.stderr)")
    }
}
