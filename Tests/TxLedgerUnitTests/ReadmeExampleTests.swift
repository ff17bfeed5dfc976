// swift-format-ignore-file
// The README's example stays as the README shows it (its alignment, its long lines).
import Foundation
import Testing
import TxLedger

/// The README's library example ("The library") compiles against the public API: it is the
/// body of `readmeLibraryExample`, and this test fails when the two texts differ.
struct ReadmeExampleTests {
    @Test func theReadmesLibraryExampleIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The library\n\n```swift\nimport TxLedger\n\n"))
        let end = try #require(readme.range(of: "\n```", range: section.upperBound..<readme.endIndex))
        let example = String(readme[section.upperBound..<end.lowerBound])

        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "    // README begin\n"))
        let stop = try #require(source.range(of: "\n    // README end", range: begin.upperBound..<source.endIndex))
        let compiled = source[begin.upperBound..<stop.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
            .joined(separator: "\n")
        #expect(compiled == example)
    }
}

/// Never called: the README's example, with what it leaves to the app as parameters.
private func readmeLibraryExample(
    peerReplicaID: ReplicaID,
    theirChangeSet: ChangeSet,
    keyPath: String,
    chosenFolder: String,
    render: @escaping @Sendable (Page) -> Void
) async throws {
    // README begin
    let ledger = try await Ledger.open(path: Ledger.defaultPath())   // opens off the caller's thread
    // Right after broadcast: one call with the values the wallet has.
    let (record, _) = try await ledger.recordSend(
        vault: "main", chain: "eip155:1", hash: "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b",
        to: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", amount: .baseUnits("250000000000000000", decimals: 18), token: "ETH")
    // A complete screen's callback has the vault, the chain and the hash:
    let same = try await ledger.transaction(vault: "main", chain: try Chain(parsing: "ethereum"), hash: record.txHash!)
    _ = try await ledger.updateStatus(record.id, to: .confirmed(at: Date()))

    // A history screen: a tab, filters, keyset pages, counts, sections, live updates.
    var filter = HistoryFilter(vault: "main", tab: .swaps)
    filter.chains = [try Chain(parsing: "ethereum")]
    let inProgress = try await ledger.list(filter.inProgress, limit: 20)   // the elevated cards
    let page = try await ledger.list(filter.completed, limit: 50)          // page.nextCursor for the next one
    let counts = try await ledger.tabCounts(filter)                        // counts[.sends], counts.overview
    let days = HistorySections(now: Date()).byDay(page.items)              // "Today", "Yesterday", "Monday", "July 2"
    Task { for try await latest in ledger.observe(filter, limit: 50) { render(latest) } }   // after every change
    try await ledger.exportCSV(HistoryFilter(vault: "main"), to: "history.csv")

    // Status: check pending transactions (EVM, Esplora, Solana, Cosmos, THORChain/Maya swaps).
    var endpoints = RefreshConfiguration()
    try endpoints.addEndpoint(parsing: "ethereum=https://rpc.example/KEY")
    let refresher = StatusRefresher(ledger: ledger, configuration: endpoints)
    let summary = try await refresher.refreshPending(vault: "main")   // app open, pull-to-refresh
    let polling = Task { try await refresher.watch(vault: "main") }    // while the screen shows; cancel on leave
    refresher.setNetworkAvailable(false)                               // offline: no request at all

    // Replication: send a peer what it lacks, merge what it sends back.
    let delta = try await ledger.changes(vault: "main", forPeer: peerReplicaID)   // nil: everything
    let report = try await ledger.merge(theirChangeSet)     // added, changed, conflicts, ...

    // The same through encrypted files.
    let key = try SyncKey(contentsOfFile: keyPath)           // or SyncKey.generate(), Passphrase(...)
    try await ledger.exportBundle(vault: "main", to: "/shared/laptop.txb", secret: .syncKey(key))
    let imported = try await ledger.importBundle(at: "/shared/phone.txb", secret: .syncKey(key))
    let bundle: Data = try await ledger.exportBundle(vault: "main", secret: .syncKey(key))   // or in memory

    // Or let one call do it all through a folder the user chose (Specs/folder-sync.md).
    let synced = try await ledger.sync(folder: chosenFolder, secret: .syncKey(key))   // per vault: read, added, written
    // README end
    _ = (same, inProgress, counts, days, summary, polling, delta, report, imported, bundle, synced)
}
