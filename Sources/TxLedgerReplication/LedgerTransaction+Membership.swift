import TxLedgerBundle
import TxLedgerCore
import TxLedgerMembership
import TxLedgerStore

extension LedgerTransaction {
    /// What a format 5 file's device section decided: whose signature the file must carry,
    /// the membership its records merge under, and, for a file of a removed device, why none
    /// of its records count (they are set aside).
    struct Admission {
        let author: PublicIdentity
        let membership: Membership
        let refusal: BundleError?
        /// The digest of the vault's log after the merge when the file carried all of it (and
        /// nothing else): only then can the file stand for this device's (`FullCoverage`).
        let wholeLog: [UInt8]?
    }

    /// Merges a format 5 file's membership log into the vault's (pinning its first recovery
    /// identity if this ledger had none), and checks that its author is a member as the merged
    /// log evaluates. Cuts that the merged log adds are applied to the stored records first
    /// (`RecordStore.apply`); the set-aside writes of a device it no longer removes are
    /// forgotten. Runs in the import's transaction.
    ///
    /// A file of a device the merged log removed is authentic but counts for nothing: of its
    /// operations only those of other authors and its own removals (with their own ancestors,
    /// a few) are kept, so that two devices removing each other converge while a removed
    /// device cannot fill the log; the admission carries the refusal.
    /// - Throws: `BundleError.notAMember` if the author was never a member (nothing is kept),
    ///   `BundleError.malformedContent` for a log that names another first recovery identity
    ///   or would grow beyond its limit.
    mutating func admit(_ section: DeviceSection, vault: String, report: inout MergeReport) throws -> Admission {
        let pinned = try store.pinFirstRecovery(vault, section.firstRecovery)
        guard pinned == section.firstRecovery else {
            throw BundleError.malformedContent(
                "its first recovery identity is not the one this device pinned for the vault"
            )
        }
        var log = try store.membershipLog(vault) ?? MembershipLog(vault: vault, firstRecovery: pinned)
        let before = log.evaluate()
        var merged = log
        for operation in section.operations { try merged.insert(operation) }
        var after = merged.evaluate()
        var kept = section.operations
        var refusal: BundleError?
        let author: PublicIdentity
        if let member = after.members[section.author] {
            author = member.identity
            log = merged
        } else if after.removed[section.author] != nil, let identity = merged.identity(of: section.author) {
            author = identity
            refusal = .notAMember("device \(section.author.fingerprint) was removed from vault '\(vault)'")
            kept = Self.keptFromRemoved(section, signers: after.signers)
            for operation in kept { try log.insert(operation) }
            after = log.evaluate()
        } else {
            throw BundleError.notAMember("device \(section.author.fingerprint) is not a member of vault '\(vault)'")
        }
        try store.saveOperations(kept, vault: vault)
        let (cutsBefore, cutsAfter) = (cuts(of: before), cuts(of: after))
        if cutsAfter.loosened(since: cutsBefore) {
            // A removal stopped counting (its remover was removed by one it had not seen): the
            // writes it set aside count again, and come back with the files of the device that
            // removed its remover, which merged them.
            try store.forgetSetAside(vault, keeping: Set(after.removed.keys))
        }
        report.writesSetAside += try store.apply(
            cutsAfter.tightened(since: cutsBefore),
            vault: vault,
            device: { after.removedDevice(writingAs: $0)! },
            now: stamps.wallClock().millis
        )
        let wholeLog = refusal == nil && Set(section.operations.map(\.id)) == Set(log.operations.keys)
        return Admission(author: author, membership: after, refusal: refusal, wholeLog: wholeLog ? log.digest : nil)
    }

    /// Of a removed device's file, the operations kept: those of other authors that ever had
    /// the right to sign (`signers`, as the merged log evaluates: not those of a device it added
    /// behind its remover's back, which acts for it), and its own removals (one per device it
    /// removes) with the operations of its own they descend from, at most `maxKeptFromRemoved`
    /// of those; beyond that, none of its own.
    private static func keptFromRemoved(
        _ section: DeviceSection,
        signers: Set<PublicIdentity>
    ) -> [MembershipOperation] {
        let byID = Dictionary(uniqueKeysWithValues: section.operations.map { ($0.id, $0) })
        func isOwn(_ operation: MembershipOperation) -> Bool { operation.author.identity.deviceID == section.author }
        func isRelayed(_ operation: MembershipOperation) -> Bool {
            !isOwn(operation) && signers.contains(operation.author.identity)
        }
        var removing = Set<DeviceID>()
        var pending = section.operations.filter { operation in
            guard isOwn(operation), case let .remove(device, _, _) = operation.change else { return false }
            return removing.insert(device).inserted
        }
        var own = Set<OperationID>()
        while let operation = pending.popLast() {
            guard own.insert(operation.id).inserted else { continue }
            guard own.count <= maxKeptFromRemoved else { return section.operations.filter(isRelayed) }
            pending += operation.parents.compactMap { byID[$0] }.filter(isOwn)
        }
        return section.operations.filter { isRelayed($0) || own.contains($0.id) }
    }

    /// The most operations of its own a removed device's file may have kept.
    static let maxKeptFromRemoved = 64

    /// Sets aside what a removed device's file carries past its cut; nothing of it is merged.
    mutating func setAside(
        records: ((RecordState) throws -> Void) throws -> Void,
        membership: Membership,
        report: inout MergeReport
    ) throws {
        let (now, cuts) = (stamps.wallClock().millis, cuts(of: membership))
        try records { received in
            _ = try setAside(received, cuts: cuts, membership: membership, now: now, report: &report)
        }
    }

    /// Sets `received` aside if `cuts` (`membership`'s) refuse a register of it.
    /// - Returns: whether they did.
    func setAside(
        _ received: RecordState,
        cuts: WriteCuts,
        membership: Membership,
        now: Int64,
        report: inout MergeReport
    ) throws -> Bool {
        let refused = try store.setAside(
            received,
            refusedBy: cuts,
            device: { membership.removedDevice(writingAs: $0)! },
            now: now
        )
        if !refused.isEmpty { report.writesSetAside += 1 }
        return !refused.isEmpty
    }

    /// The writes `membership` refuses, but this replica's own: a device never sets its own
    /// writes aside (removed, it would lose them; the others refuse them).
    func cuts(of membership: Membership) -> WriteCuts {
        membership.cuts.excluding(stamps.clock.replica)
    }

    /// The membership of `vault` as this ledger's log says, if it has device keys here.
    func membership(_ vault: String) throws -> Membership? {
        try store.membershipLog(vault)?.evaluate()
    }

    /// Refuses a change set of a format before 5 for a vault with device keys here: it is
    /// signed by nobody, so it may come from anyone who holds the former shared secret.
    func requireNoDevices(_ vault: String) throws {
        guard try !store.hasDevices(vault) else {
            throw BundleError.notAMember(
                "signed nothing: vault '\(vault)' uses device keys, and this file was sealed with its shared secret "
                    + "(by a device that runs an older TxLedger, or one that holds only the former secret)"
            )
        }
    }
}
