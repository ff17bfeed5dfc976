import Foundation
import TxLedgerCore
import TxLedgerStore

extension LedgerDatabase {
    /// Brings what this ledger knows of its peers within the limits of knowledge
    /// (Specs/crdt.md): at most `PeerKnowledge.maxPerVault` per vault, none silent for a year.
    /// - Returns: per vault, how many peers were dropped (only vaults that lost some).
    package func dropPeersBeyondLimits() async throws -> [String: Int] {
        let silentBefore = options.wallClock().millis - PeerKnowledge.maxSilenceMillis
        guard !(try await read { try $0.vaultsWithPeersToDrop(silentBefore: silentBefore) }.isEmpty) else { return [:] }
        return try await write { transaction in
            var dropped: [String: Int] = [:]
            for vault in try transaction.store.vaultsWithPeersToDrop(silentBefore: silentBefore) {
                dropped[vault] = try transaction.store.dropPeers(vault, silentBefore: silentBefore)
            }
            return dropped
        }
    }
}

extension LedgerDatabase {
    /// The peers of `vault` that keep syncing but have not taken this device's files, each
    /// with its device's name where the vault's devices name it (crdt.md, "Peers that do not
    /// read").
    package func peersNotReading(vault: String) async throws -> [PeerLag] {
        try await read { store in
            let lagging = try store.peers(vault).filter { $0.waitingFor?.isOverdue == true }
            // The log is evaluated (its signatures checked) only when there is a peer to name.
            let membership = lagging.isEmpty ? nil : try store.membershipLog(vault)?.evaluate()
            return lagging.compactMap { peer in
                guard let wait = peer.waitingFor else { return nil }
                return PeerLag(
                    replica: peer.replica,
                    device: membership?.member(writingAs: peer.replica)?.name,
                    since: Date(millis: wait.sinceMillis)
                )
            }
        }
    }
}
