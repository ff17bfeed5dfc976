import ArgumentParser
import TxLedger

struct StatusCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Move a transaction's status: broadcasted -> pending -> confirmed | failed (never back)."
    )

    @ParentCommand var root: TxLedgerCommand
    @Argument(help: "Record id or transaction hash.") var idOrHash: String
    @Argument(help: "pending, confirmed or failed.") var state: String
    @Option(help: "Why it failed (with failed).") var reason: String?
    @Option(help: ArgumentHelp("When it confirmed, ISO 8601 (with confirmed).", valueName: "iso8601")) var at: String?
    @Option(help: ArgumentHelp("The block (height, slot) that holds it (with confirmed or failed).", valueName: "n"))
    var block: UInt64?
    @Option(
        help: ArgumentHelp(
            "The fee it paid, in the chain's native unit (with confirmed or failed).",
            valueName: "amount"
        )
    )
    var feePaid: String?
    @Option(
        name: .customLong("detail"),
        help: ArgumentHelp(
            "A status detail, KEY=VALUE; repeatable (keys: \(StatusUpdate.detailKeys.joined(separator: ", "))).",
            valueName: "key=value"
        )
    )
    var details: [String] = []

    func run(on ledger: Ledger) async throws {
        let update = try StatusUpdate(
            try TransactionStatus(parsing: state),
            confirmedAt: try at.map { try ISO8601.date(from: $0, field: "at") },
            failureReason: reason,
            blockNumber: block,
            feePaid: try feePaid.map { try DecimalAmount($0, field: "fee-paid") },
            details: try KeyValueArguments.parse(details, option: "--detail")
        )
        let record = try await ledger.resolve(idOrHash)
        let result = try await ledger.updateStatus(record.id, to: update)
        guard let refusal = result.refusal else {
            return print("\(record.id): \(result.previousStatus.rawValue) -> \(result.record.status.rawValue)")
        }
        let current = refusal.current.rawValue
        switch refusal.code {
        case .wouldRegress: print("\(record.id): unchanged, \(current) never goes back to \(update.status.rawValue)")
        case .proven: print("\(record.id): unchanged, proven \(current)")
        default: print("\(record.id): unchanged, already \(current)")
        }
    }
}
