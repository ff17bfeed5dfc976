import Foundation
import TxLedgerCore

/// Solana over JSON-RPC: `getSignatureStatuses` with `searchTransactionHistory: true`.
///
/// No status → unknown; `err` not null → failed, with the error as JSON for its reason;
/// `confirmationStatus` `finalized` (or, from older nodes, `confirmations: null`) → confirmed;
/// `processed` or `confirmed` → pending. A final answer carries its slot as the block, and
/// `getTransaction` adds the block time and `meta.fee` (lamports) as the fee paid, best effort:
/// if that call fails, the outcome is written without them.
public struct SolanaStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .solana)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let signature = record.txHash else { return .unknown }
        let result = try await client.call(
            "getSignatureStatuses",
            [
                .array([.string(signature)]), .object(["searchTransactionHistory": .bool(true)]),
            ]
        )
        guard case .array? = result["value"], let status = result["value"]?[0] else {
            throw StatusCheckError.malformedResponse("a result without a value list")
        }
        if status.isNull { return .unknown }
        let error = status["err"].flatMap { $0.isNull ? nil : $0 }
        let finalized =
            status["confirmationStatus"]?.string == "finalized"
            || (status["confirmationStatus"] == nil && status["confirmations"]?.isNull == true)
        guard error != nil || finalized else { return .pending }
        let slot = status["slot"]?.integer.flatMap(UInt64.init(exactly:))
        let (time, fee) = try await details(signature, client)
        if let error { return .failed(reason: "error: \(error.compactText)", block: slot, feePaid: fee) }
        return .confirmed(at: time, block: slot, feePaid: fee)
    }

    /// The block time and the fee paid in SOL, from `getTransaction`; `nil`s when it fails.
    private func details(_ signature: String, _ client: EndpointClient) async throws -> (Date?, DecimalAmount?) {
        let transaction: JSONValue
        do {
            transaction = try await client.call(
                "getTransaction",
                [
                    .string(signature),
                    .object([
                        "encoding": .string("json"), "maxSupportedTransactionVersion": .number("0"),
                        "commitment": .string("confirmed"),
                    ]),
                ]
            )
        } catch is StatusCheckError {
            return (nil, nil)
        }
        let time = transaction["blockTime"]?.integer.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        let fee = try transaction["meta"]?["fee"]?.integer.flatMap(UInt64.init(exactly:)).map {
            try BaseUnits($0).amount(decimals: 9)
        }
        return (time, fee)
    }
}
