import Foundation
import GRDB
import PropertyBased

@testable import TxLedger

extension Fixture {
    /// Makes a ledger of 2000 sends at `path`, checkpointed into the file, then writes random
    /// bytes (a fixed seed) over every page from the tenth on: the header and the schema stay
    /// readable, the rows do not.
    /// - Returns: the damaged file's bytes.
    static func ledgerWithCorruptPages(at path: String) async throws -> Data {
        do {
            let ledger = try await Ledger.open(path: path, options: .init(logger: .quiet))
            try await ledger.record(try (1...2000).map { try Fixture.send(hash: $0) })
            _ = try await ledger.database.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        let url = URL(fileURLWithPath: path)
        var bytes = try Data(contentsOf: url)
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        for index in (10 * 4096)..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        try bytes.write(to: url)
        return bytes
    }
}
