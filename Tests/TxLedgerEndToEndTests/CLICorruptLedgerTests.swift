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
        do {
            let ledger = try await Ledger.open(path: path, options: .init(logger: .quiet))
            try await ledger.record(try (1...2000).map { try Fixture.send(hash: $0) })
            _ = try await ledger.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        // Random bytes over every page from the tenth on: the header and the schema stay readable.
        let url = URL(fileURLWithPath: path)
        var bytes = try Data(contentsOf: url)
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        for index in (10 * 4096)..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        try bytes.write(to: url)

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
