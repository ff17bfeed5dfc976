import ArgumentParser
import Foundation
import TxLedger

struct RecordCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a send, a swap or a signature, or records in JSON.",
        discussion:
            "`txledger record --json FILE` (or - for stdin) takes one record or an array, in the shape `list --json` prints; all of them are written in one transaction, or none.",
        subcommands: [RecordSendCommand.self, RecordSwapCommand.self, RecordSignatureCommand.self]
    )

    @ParentCommand var root: TxLedgerCommand
    @Option(help: ArgumentHelp("Records in JSON, from a file or - for standard input.", valueName: "file"))
    var json: String?

    func run(on ledger: Ledger) async throws {
        guard let json else {
            throw ValidationError(
                "give --json FILE (or - for standard input), or use record send, record swap or record signature"
            )
        }
        let data: Data
        do {
            data =
                json == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: json))
        } catch {
            throw LedgerError.invalidInput(field: "--json", reason: "cannot read '\(json)'")
        }
        let summary = try await ledger.record(json: data)
        print(
            "recorded \(summary.recorded), already present \(summary.alreadyRecorded) (status advanced on \(summary.statusAdvanced))"
        )
    }
}

struct RecordSendCommand: LedgerCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Record a send.")

    @ParentCommand var root: TxLedgerCommand
    @OptionGroup var common: CommonRecordOptions
    @Option(help: "Transaction hash.") var hash: String
    @Option(help: "The sender's nonce (EVM): lets refresh tell a dropped or replaced transaction.") var nonce: UInt64?
    @Option(name: .customLong("to"), help: "Recipient address.") var toAddress: String
    @Option(help: "Amount sent, a decimal (e.g. 0.25).") var amount: String
    @Option(help: "Token symbol.") var token: String
    @Option(help: "Token contract address or denom (omit for the native coin).") var tokenContract: String?
    @Option(help: "Token decimals.") var tokenDecimals: Int?
    @Option(help: "Token logo URL.") var tokenLogo: String?
    @Option(help: "Fee estimate, a decimal in the chain's native coin.") var fee: String?
    @Option(help: "Memo.") var memo: String?

    func run(on ledger: Ledger) async throws {
        let details = try SendDetails(
            toAddress: toAddress,
            amount: try DecimalAmount(amount, field: "amount"),
            token: try Token(symbol: token, contract: tokenContract, decimals: tokenDecimals),
            tokenLogo: tokenLogo,
            feeEstimate: try fee.map { try DecimalAmount($0, field: "fee") },
            memo: memo
        )
        report(
            try await ledger.record(
                try TransactionRecord(facts: try common.facts(hash: hash, nonce: nonce, details: .send(details)))
            )
        )
    }
}

struct RecordSwapCommand: LedgerCommand {
    static let configuration = CommandConfiguration(commandName: "swap", abstract: "Record a swap.")

    @ParentCommand var root: TxLedgerCommand
    @OptionGroup var common: CommonRecordOptions
    @Option(help: "Transaction hash.") var hash: String
    @Option(help: "The sender's nonce (EVM): lets refresh tell a dropped or replaced transaction.") var nonce: UInt64?
    @Option(help: "Token sold.") var fromToken: String
    @Option(help: "Amount sold, a decimal.") var fromAmount: String
    @Option(help: "Token bought.") var toToken: String
    @Option(help: "Quoted amount bought, a decimal.") var toAmount: String
    @Option(help: "Minimum payout accepted, a decimal.") var minPayout: String?
    @Option(help: "Chain the bought token arrives on (default: --chain).") var toChain: String?
    @Option(help: "Provider: 1inch, KyberSwap, LiFi, THORChain, MayaChain or any other.") var provider: String
    @Option(help: "Route description.") var route: String?

    func run(on ledger: Ledger) async throws {
        let chain = try Chain(parsing: common.chain)
        let details = try SwapDetails(
            fromToken: try Token(symbol: fromToken, field: "from-token"),
            fromAmount: try DecimalAmount(fromAmount, field: "from-amount"),
            fromChain: chain,
            toToken: try Token(symbol: toToken, field: "to-token"),
            toAmount: try DecimalAmount(toAmount, field: "to-amount"),
            minimumPayout: try minPayout.map { try DecimalAmount($0, field: "min-payout") },
            toChain: try toChain.map(Chain.init(parsing:)),
            provider: try SwapProvider(provider),
            route: route
        )
        report(
            try await ledger.record(
                try TransactionRecord(facts: try common.facts(hash: hash, nonce: nonce, details: .swap(details)))
            )
        )
    }
}

struct RecordSignatureCommand: LedgerCommand {
    static let configuration = CommandConfiguration(
        commandName: "signature",
        abstract: "Record a signature request (--method personal_sign, eth_signTypedData_v4, ...)."
    )

    @ParentCommand var root: TxLedgerCommand
    @OptionGroup var common: CommonRecordOptions
    @Option(help: "The signed message as shown to the user.") var message: String
    @Option(help: "The resulting signature.") var signature: String?

    func run(on ledger: Ledger) async throws {
        let details = try SignatureDetails(message: message, signature: signature)
        report(
            try await ledger.record(
                try TransactionRecord(facts: try common.facts(hash: nil, details: .signature(details)))
            )
        )
    }
}
