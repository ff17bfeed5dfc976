import TxLedger

/// How the CLI names what a clear from another device took away.
enum ClearText {
    /// `cleared 6 records of vault main, by Phone, at 2026-11-26T09:00:00.000Z`, then how to
    /// see and undo it.
    static func lines(_ clears: [ClearReport]) -> [String] {
        clears.map { clear in
            "cleared \(clear.records) record\(clear.records == 1 ? "" : "s") of vault \(OutsideText.escaped(clear.vault)), "
                + "by \(device(clear.device, clear.replica)), at \(ISO8601.string(millis: clear.clearedAtMillis)) "
                + "(txledger cleared --vault \(OutsideText.escaped(clear.vault)) lists them; "
                + "txledger restore --all --vault \(OutsideText.escaped(clear.vault)) brings them back)"
        }
    }

    /// A device's name where known, else its replica's.
    static func device(_ name: String?, _ replica: ReplicaID) -> String {
        name.map { OutsideText.escaped($0) } ?? "replica \(replica)"
    }
}
