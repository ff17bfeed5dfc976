import TxLedgerCore
import TxLedgerStore

/// What merging one change set teaches a replica about the change set's origin, about the
/// replicas the origin knows, and about itself (Specs/crdt.md, "Deltas" and "Restored and
/// cloned files"). Runs inside the merge's transaction, after the records.
struct KnowledgeMerge {
    let header: ChangeSetHeader
    let store: RecordStore
    /// This replica's id.
    let me: ReplicaID
    /// This replica's last change sequence number before the merge.
    let made: Int64
    /// The wall clock, in milliseconds: when the origin was heard from.
    let now: Int64
    /// Whether a delta that starts after what this replica holds of its origin continues it
    /// anyway: read from a shared folder, whose other files hold the origin's earlier changes
    /// (`FolderRead`).
    let bridgesGaps: Bool

    /// - Returns: the replica id to use from now on: a new one when the change set shows that
    ///   this file was restored from a backup or copied to another device.
    func apply(_ report: inout MergeReport) throws -> ReplicaID {
        let replica = try learn(&report)
        // Within the limits of knowledge whatever the change set taught (crdt.md).
        let dropped = try store.dropPeers(header.vaultId, silentBefore: now - PeerKnowledge.maxSilenceMillis)
        if dropped > 0 { report.peersDropped[header.vaultId, default: 0] += dropped }
        return replica
    }

    private func learn(_ report: inout MergeReport) throws -> ReplicaID {
        let vault = header.vaultId
        if header.origin == me {
            // An export of this replica id: this file's own, or a copy's (or one this file made
            // before it was restored), if its latest change is not one this file numbered. A
            // change set without epochs (formats 1 and 2) cannot tell: it changes nothing.
            guard let lineage = header.lineage else { return me }
            return try recognises(header.through, in: lineage.last?.id) ? me : try rotate(&report)
        }
        var origin = try store.peer(vault, header.origin) ?? PeerKnowledge(replica: header.origin)
        if divergesFromWhatIsHeld(origin) {
            // Another copy of the origin's file (or the origin restored past what this replica
            // holds of it): its claim says what that copy holds, not what the copy this replica
            // knows holds. Until the copies take new ids, deltas for this id hold everything.
            learnHeld(&origin, &report)
            origin.ackedSeq = 0
            try store.save(origin, vault: vault)
            return me
        }
        origin.heardAtMillis = now
        learnHeld(&origin, &report)
        let trusted = try learnAcknowledged(&origin)
        origin.noteChangeSet(through: header.through)
        try store.save(origin, vault: vault)
        if header.isFull { try learnThirdParties() }
        return trusted ? me : try rotate(&report)
    }

    /// Whether a delta with epochs leaves the line of epochs this replica holds the origin on.
    private func divergesFromWhatIsHeld(_ origin: PeerKnowledge) -> Bool {
        guard !header.isFull, let lineage = header.lineage, let epoch = origin.haveEpoch, header.since <= origin.haveSeq
        else { return false }
        return !Self.line(lineage, through: header.through, holds: origin.haveSeq, in: epoch)
    }

    /// What this replica now holds of the origin: everything through `through` if the change set
    /// continues from what it held, in the origin's own line of epochs; else a gap.
    private func learnHeld(_ origin: inout PeerKnowledge, _ report: inout MergeReport) {
        let latest = header.lineage?.last?.id
        let sameLine =
            origin.haveEpoch.map { epoch in
                header.lineage.map { Self.line($0, through: header.through, holds: origin.haveSeq, in: epoch) } ?? true
            } ?? true
        if header.isFull {
            if !sameLine || header.through >= origin.haveSeq {
                (origin.haveSeq, origin.haveEpoch) = (header.through, latest)
            }
        } else if sameLine && (header.since <= origin.haveSeq || bridgesGaps) {
            if header.through >= origin.haveSeq { (origin.haveSeq, origin.haveEpoch) = (header.through, latest) }
        } else {
            report.gaps.append(
                DeltaGap(vault: header.vaultId, origin: header.origin, since: header.since, heldThrough: origin.haveSeq)
            )
        }
    }

    /// What the origin holds of this replica. A claim that names its epoch (format 3) replaces
    /// what was known, once this replica recognises it as its own change: a peer that lost data
    /// says so, and gets it again. A claim this replica cannot recognise means its file was
    /// restored or copied: `false`. A claim without an epoch (formats 1 and 2, or knowledge
    /// from before epochs) only raises what was known, capped at what this replica has made.
    private func learnAcknowledged(_ origin: inout PeerKnowledge) throws -> Bool {
        let claim = header.knowledge[me] ?? 0
        guard header.lineage != nil, claim == 0 || header.knowledgeEpochs[me] != nil else {
            origin.ackedSeq = max(origin.ackedSeq, min(claim, made))
            return true
        }
        guard try recognises(claim, in: header.knowledgeEpochs[me]) else { return false }
        origin.ackedSeq = claim
        return true
    }

    /// Whether change `seq` of epoch `epoch` is on the origin's line: `epoch` is in `lineage`
    /// and `seq` lies in it there (from its first change to the next epoch's, or to `through`).
    static func line(_ lineage: [Epoch], through: Int64, holds seq: Int64, in epoch: EpochID) -> Bool {
        guard let index = lineage.firstIndex(where: { $0.id == epoch }) else { return false }
        let end = index + 1 < lineage.count ? lineage[index + 1].firstSeq - 1 : through
        return (lineage[index].firstSeq...max(lineage[index].firstSeq, end)).contains(seq)
    }

    /// A full change set carries all that its origin holds: of every other replica too, where
    /// that continues what this replica holds of it. A replica this one does not know yet is
    /// learned only while the vault has fewer than `PeerKnowledge.maxPerVault` peers.
    private func learnThirdParties() throws {
        var known = Dictionary(uniqueKeysWithValues: try store.peers(header.vaultId).map { ($0.replica, $0) })
        for (replica, seq) in header.knowledge where replica != me && replica != header.origin {
            guard known[replica] != nil || known.count < PeerKnowledge.maxPerVault else { continue }
            var other = known[replica] ?? PeerKnowledge(replica: replica)
            let epoch = header.knowledgeEpochs[replica]
            guard seq > other.haveSeq, other.haveSeq == 0 || other.haveEpoch == epoch else { continue }
            (other.haveSeq, other.haveEpoch) = (seq, epoch)
            try store.save(other, vault: header.vaultId)
            known[replica] = other
        }
    }

    /// Whether this replica numbered change `seq` in `epoch` (nothing, `seq` 0, is always known).
    private func recognises(_ seq: Int64, in epoch: EpochID?) throws -> Bool {
        guard seq > 0 else { return true }
        guard let epoch else { return false }
        return try store.issued(seq, in: epoch, made: made)
    }

    private func rotate(_ report: inout MergeReport) throws -> ReplicaID {
        let fresh = try LedgerMeta.rotateReplicaID(store.db)
        report.newReplicaID = fresh
        return fresh
    }
}
