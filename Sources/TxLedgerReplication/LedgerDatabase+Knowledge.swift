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
