import TxLedger

/// Devices syncing through one folder in turn, as the folder scenarios run them.
enum FolderRounds {
    /// Syncs every ledger of `ledgers` in turn until a whole round changes nothing.
    /// - Throws: `BenchFailure` if they have not settled after `maxRounds` rounds.
    static func settle(
        _ ledgers: [Ledger],
        folder: String,
        secret: BundleSecret,
        maxRounds: Int,
        scenario: String
    )
        async throws
    {
        for _ in 0..<maxRounds {
            var quiet = true
            for ledger in ledgers { quiet = try await ledger.sync(folder: folder, secret: secret).isQuiet && quiet }
            if quiet { return }
        }
        throw BenchFailure(description: "\(scenario): the devices did not settle in \(maxRounds) rounds")
    }
}
