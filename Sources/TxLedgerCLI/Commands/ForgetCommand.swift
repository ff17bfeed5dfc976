import ArgumentParser
import TxLedger

struct ForgetCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Stop waiting for a peer (a lost device): the default export no longer holds deltas back for it.",
        discussion: "If it comes back, its next export makes it a peer again, and it then gets what it lacks."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(
        help: ArgumentHelp("The peer's replica id (16 hex digits, as `txledger peers` lists it).", valueName: "replica")
    )
    var replica: String
    @Option(help: "Only in this vault (default: every vault).") var vault: String?

    func validate() throws {
        if ReplicaID(hex: replica.lowercased()) == nil {
            throw ValidationError(
                "'\(replica.prefix(40))' is not a replica id: 16 hex digits, as `txledger peers` lists it"
            )
        }
    }

    func run(on ledger: Ledger) async throws {
        let peer = ReplicaID(hex: replica.lowercased())!
        let vaults = try await ledger.forget(peer: peer, vault: vault)
        print("forgot \(peer) in \(vaults) vault\(vaults == 1 ? "" : "s")")
    }
}
