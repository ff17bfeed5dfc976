import TxLedgerCore

/// What merging a full change set proved: that it held, record by record, everything this
/// replica held of the vault before the merge, or at least every record this replica had not
/// changed after a given change number (its last file's), so that a device may keep it in a
/// shared folder in place of a full file of its own (Specs/folder-sync.md, "Adopting another
/// device's full file"). Worked out from the merge itself, never from what the file says.
package struct FullCoverage: Sendable, Equatable {
    /// This replica's change sequence number after which its changes are those the file may
    /// not hold: the merge's own when the file held everything, else the given one.
    package let through: Int64
    /// Whether the file held everything this replica held, and more (the merge changed a record
    /// or the watermark); `false` for one that held exactly that, or that covers only up to the
    /// given change number.
    package let holdsMore: Bool
    /// For a vault with device keys, the digest of the membership log the file carried, which
    /// is then this replica's whole log (`MembershipLog.digest`); `nil` without device keys.
    package var membership: [UInt8]?

    /// This coverage, of a file that carried the membership log whose digest is `log`.
    func under(_ log: [UInt8]) -> FullCoverage {
        var covered = self
        covered.membership = log
        return covered
    }

    /// The counts a merge keeps to decide it.
    struct Check {
        /// The vault's records held before the merge (after the change set's watermark), and
        /// of those, the ones last changed at or before `point`, if one is given.
        let held: Int
        let point: Int64?
        let heldUpToPoint: Int
        /// Whether this replica's watermark was at or before the change set's, which counted.
        let watermarkHeld: Bool
        /// Whether the watermark moved.
        let watermarkMoved: Bool
        private var last: (time: Int64, id: TransactionID)?
        /// Whether the change set's records came in strictly increasing id order, or in strictly
        /// increasing history order (timestamp, then id): a file that names a record twice
        /// cannot count it twice (in history order, only the copy with the held timestamp
        /// counts: `BatchMerge`).
        private var increasingByID = true
        private var increasingByHistory = true
        /// Received states whose record was held here.
        private var matched = 0
        /// Of those, the ones whose stored state held something the received one did not.
        private var storedAhead = 0
        /// The same, of the rows last changed at or before `point`.
        private var matchedUpToPoint = 0
        private var storedAheadUpToPoint = 0
        /// Rows the merge wrote.
        private var written = 0

        init(held: Int, point: Int64?, heldUpToPoint: Int, watermarkHeld: Bool, watermarkMoved: Bool) {
            self.held = held
            self.point = point
            self.heldUpToPoint = heldUpToPoint
            self.watermarkHeld = watermarkHeld
            self.watermarkMoved = watermarkMoved
        }

        /// Notes the next received record's timestamp and id, in the change set's order.
        mutating func see(_ id: TransactionID, time: Int64) {
            if let last {
                if id <= last.id { increasingByID = false }
                if (time, id) <= (last.time, last.id) { increasingByHistory = false }
            }
            last = (time, id)
        }

        /// Adds a merged batch's counts.
        mutating func add(_ batch: BatchMerge) {
            matched += batch.matched
            storedAhead += batch.storedAhead
            matchedUpToPoint += batch.matchedUpToPoint
            storedAheadUpToPoint += batch.storedAheadUpToPoint
            written += batch.writes.count
        }

        /// The coverage, if the change set held everything this replica held (`through` is then
        /// the merge's change number), or everything it had not changed after `point`.
        func result(through: Int64) -> FullCoverage? {
            guard increasingByID || increasingByHistory, watermarkHeld else { return nil }
            let holdsMore = written > 0 || watermarkMoved
            if storedAhead == 0, matched == held {
                return FullCoverage(through: through, holdsMore: holdsMore, membership: nil)
            }
            guard let point, storedAheadUpToPoint == 0, matchedUpToPoint == heldUpToPoint else { return nil }
            // Not "more": it may lack what changed here after the point, and its writer may find
            // this device's full file covering it the same way (then only names decide).
            return FullCoverage(through: point, holdsMore: false, membership: nil)
        }
    }
}
