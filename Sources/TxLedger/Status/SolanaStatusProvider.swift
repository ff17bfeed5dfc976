/// Solana over JSON-RPC: `getSignatureStatuses` with `searchTransactionHistory: true`.
///
/// No status → unknown; `err` not null → failed, with the error as JSON for its reason;
/// `confirmationStatus` `finalized` (or, from older nodes, `confirmations: null`) → confirmed;
/// `processed` or `confirmed` → pending. The block time is not read (it would be one more call).
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
        if let error = status["err"], !error.isNull { return .failed(reason: "error: \(error.compactText)") }
        let finalized =
            status["confirmationStatus"]?.string == "finalized"
            || (status["confirmationStatus"] == nil && status["confirmations"]?.isNull == true)
        return finalized ? .confirmed(at: nil) : .pending
    }
}
