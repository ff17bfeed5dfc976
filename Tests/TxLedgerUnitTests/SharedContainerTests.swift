import Foundation
import Testing

@testable import TxLedger
@testable import TxLedgerCore
@testable import TxLedgerTestSupport

/// A ledger in an App Group container (`Ledger.Options.sharedContainer`): suspended, it takes no
/// lock and fails clearly; resumed, it works again. Ledgers opened without the option ignore it.
@Suite(.serialized) struct SharedContainerTests {
    @Test func aSuspendedLedgerRefusesWorkUntilResumed() async throws {
        let folder = try TemporaryDirectory()
        let shared = try await Ledger.open(
            path: folder.path("shared.sqlite"),
            options: .init(logger: .quiet, sharedContainer: true)
        )
        let plain = try await Ledger.open(path: folder.path("plain.sqlite"), options: .init(logger: .quiet))
        try await shared.record(try Fixture.minimalSend(hash: 1))
        Ledger.suspendAll()
        await #expect {
            try await shared.record(try Fixture.minimalSend(hash: 2))
        } throws: { error in
            guard (error as? LedgerError)?.code == .storage else { return false }
            return true
        }
        try await plain.record(try Fixture.minimalSend(hash: 3))
        Ledger.resumeAll()
        try await shared.record(try Fixture.minimalSend(hash: 2))
        #expect(try await shared.list(limit: 10).items.count == 2)
    }
}
