import ArgumentParser
import Foundation
import TxLedger

/// The options every `record` subcommand takes: the facts common to all kinds.
struct CommonRecordOptions: ParsableArguments {
    @Option(help: "Vault the transaction belongs to.") var vault: String
    @Option(help: "Chain: a name (ethereum, bitcoin, solana...), eip155:<id>, 0x<hex id> or custom:<name>.") var chain:
        String
    @Option(help: ArgumentHelp("Broadcast time, ISO 8601 (default: now).", valueName: "iso8601")) var at: String?
    @Option(help: "USD value at broadcast, a decimal.") var fiat: String?
    @Option(name: .customLong("from"), help: "Sender address.") var fromAddress: String?
    @Option(help: "Wallet method, e.g. eth_sendTransaction.") var method: String?
    @Option(help: "Domain of the requesting app.") var appDomain: String?
    @Option(help: "URI of the requesting app.") var appUri: String?
    @Option(help: "URL scheme of the requesting app.") var appScheme: String?
    @Option(
        name: .customLong("fact"),
        help: ArgumentHelp(
            "An extra fact, KEY=VALUE; repeatable (keys: \(TransactionFacts.extraKeys.joined(separator: ", "))).",
            valueName: "key=value"
        )
    )
    var extraFacts: [String] = []
    @Option(
        help: ArgumentHelp(
            "The hash of the transaction this one speeds up or cancels (send, swap); --fact replaces=HASH.",
            valueName: "hash"
        )
    )
    var replaces: String?
    @Option(
        help: ArgumentHelp(
            "An output this bitcoin-like transaction spends, to detect a replacement by fee; repeatable.",
            valueName: "txid:vout"
        )
    )
    var spends: [String] = []

    func facts(hash: String?, nonce: UInt64? = nil, details: TransactionDetails) throws -> TransactionFacts {
        try TransactionFacts(
            vaultId: vault,
            chain: try Chain(parsing: chain),
            timestamp: try at.map { try ISO8601.date(from: $0, field: "at") } ?? Date(),
            txHash: hash,
            fiatValue: try fiat.map { try DecimalAmount($0, field: "fiat") },
            fromAddress: fromAddress,
            nonce: nonce,
            app: try AppMetadata(domain: appDomain, uri: appUri, scheme: appScheme),
            method: method,
            extras: try extras(),
            details: details
        )
    }

    /// `--fact` values by key, and `--replaces`.
    private func extras() throws -> [String: String] {
        var extras: [String: String] = [:]
        if let replaces { extras["replaces"] = replaces }
        if !spends.isEmpty { extras["spends"] = spends.joined(separator: ",") }
        return try KeyValueArguments.parse(extraFacts, option: "--fact", adding: extras)
    }
}

/// Prints what `record` did with one record.
func report(_ result: (record: TransactionRecord, outcome: RecordOutcome)) {
    switch result.outcome {
    case .recorded: print("recorded \(result.record.id)")
    case .alreadyRecorded(statusAdvanced: true):
        print("already recorded \(result.record.id); status advanced to \(result.record.status.rawValue)")
    case .alreadyRecorded(statusAdvanced: false): print("already recorded \(result.record.id)")
    }
}
