import ArgumentParser
import Foundation
import TxLedger

struct PeersCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract:
            "List the replicas this ledger knows per vault, and which of them hold the default export's deltas back.",
        discussion: """
            A peer heard from within the peer horizon (30 days) is awaited: the default export \
            holds what it lacks. `txledger forget REPLICA` stops waiting for a lost device.
            """
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: "Only this vault.") var vault: String?
    @Flag(help: "Print as JSON.") var json = false

    func run(on ledger: Ledger) async throws {
        let peers = try await ledger.peers(vault: vault).map(PeerOutput.init)
        if json {
            print(try JSONOutput.string(peers))
        } else if peers.isEmpty {
            print("no peers known" + (vault.map { " for vault \($0)" } ?? ""))
        } else {
            print(peers.map(\.text).joined(separator: "\n"))
        }
    }

    private struct PeerOutput: Encodable {
        let vault: String
        let replica: String
        let lastHeard: String?
        let holdsOursThrough: Int64
        let heldThrough: Int64
        let awaited: Bool
        let holdingBack: Bool
        let notReadingOursSince: String?

        init(_ peer: PeerStatus) {
            vault = peer.vault
            replica = peer.replica.description
            lastHeard = peer.lastHeard.map(ISO8601.string(from:))
            holdsOursThrough = peer.holdsOursThrough
            heldThrough = peer.heldThrough
            awaited = peer.awaited
            holdingBack = peer.holdingBack
            notReadingOursSince = peer.notReadingOursSince.map(ISO8601.string(from:))
        }

        /// `main 0a1b2c3d4e5f6071 heard 2026-11-20T10:00:00Z, holds ours through #12, we hold its through #9, holding deltas back`
        /// (and `, not reading our files since T` for a peer that keeps syncing without them)
        var text: String {
            let heard = lastHeard.map { "heard \($0)" } ?? "never heard from directly"
            let state = holdingBack ? "holding deltas back" : awaited ? "awaited" : "not awaited"
            return
                "\(vault) \(replica) \(heard), holds ours through #\(holdsOursThrough), we hold its through #\(heldThrough), \(state)"
                + (notReadingOursSince.map { ", not reading our files since \($0)" } ?? "")
        }
    }
}
