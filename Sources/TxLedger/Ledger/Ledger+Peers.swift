import Foundation
import TxLedgerCore
import TxLedgerStore

extension Ledger {
    /// Every replica this ledger knows per vault (of `vault`, or of every vault): when it was
    /// last heard from, what each holds of the other, and whether it holds the default export's
    /// deltas back (Specs/crdt.md, "Deltas and peers").
    public func peers(vault: String? = nil) async throws -> [PeerStatus] {
        let heardSince = options.wallClock().millis - options.peerHorizonMillis
        return try await read { store in
            let made = try LedgerMeta.seq(store.db)
            return try (vault.map { [$0] } ?? store.vaults()).flatMap { vault in
                try store.peers(vault).map { peer in
                    let awaited = peer.heardAtMillis.map { $0 >= heardSince } ?? false
                    return PeerStatus(
                        vault: vault,
                        replica: peer.replica,
                        lastHeard: peer.heardAtMillis.map(Date.init(millis:)),
                        holdsOursThrough: peer.ackedSeq,
                        heldThrough: peer.haveSeq,
                        awaited: awaited,
                        holdingBack: awaited && peer.ackedSeq < made,
                        notReadingOursSince: peer.waitingFor.flatMap {
                            $0.isOverdue ? Date(millis: $0.sinceMillis) : nil
                        }
                    )
                }
            }
        }
    }

    /// Brings what this ledger knows of peers within the limits of knowledge (Specs/crdt.md):
    /// at most `maxPeersPerVault` per vault, none silent for a year. Merges keep to them; a file
    /// written by an older version, or edited by hand, may not, and a sync calls this first.
    /// - Returns: per vault, how many peers were dropped (only vaults that lost some).
    public func dropPeersBeyondLimits() async throws -> [String: Int] {
        try await database.dropPeersBeyondLimits()
    }

    /// Most peers a ledger keeps per vault (Specs/crdt.md, "Limits of knowledge").
    public static let maxPeersPerVault = PeerKnowledge.maxPerVault

    /// Forgets `peer` (a lost device) in `vault`, or in every vault: what this ledger knew of
    /// it is deleted, so the default export no longer holds deltas back for it. If it comes
    /// back, it is heard from again and gets what it lacks after its next export.
    /// - Returns: in how many vaults it was known.
    /// - Throws: `LedgerError.unknownPeer` if this ledger knows no such peer (in `vault`).
    @discardableResult
    public func forget(peer: ReplicaID, vault: String? = nil) async throws -> Int {
        try await write { transaction in
            let store = transaction.store
            let forgotten = try store.forget(peer, vault: vault)
            guard forgotten > 0 else {
                throw LedgerError.unknownPeer(peer, vault: vault)
            }
            return forgotten
        }
    }
}
