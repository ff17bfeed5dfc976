import Foundation

/// EVM chains over JSON-RPC (`ethereum`, `base`, `eip155:N`, ...).
///
/// - `eth_getTransactionReceipt`: `status` 0x1 → confirmed, at the block's time
///   (`eth_getBlockByNumber`, best effort); 0x0 → failed, "reverted".
/// - No receipt, but `eth_getTransactionByHash` has it → pending (in the mempool).
/// - Neither, and the record knows its `nonce` and `fromAddress`, and the sender's
///   `eth_getTransactionCount(from, "latest")` is past that nonce → failed, "dropped or
///   replaced": another transaction took the nonce. Otherwise unknown: absence alone proves nothing.
public struct EVMStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .evm)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        let receipt = try await client.call("eth_getTransactionReceipt", [.string(hash)])
        if !receipt.isNull {
            switch receipt["status"]?.string {
            case "0x1": return .confirmed(at: try await blockTime(receipt["blockNumber"], client))
            case "0x0": return .failed(reason: "reverted")
            default: throw StatusCheckError.malformedResponse("a receipt without a 0x0 or 0x1 status")
            }
        }
        let transaction = try await client.call("eth_getTransactionByHash", [.string(hash)])
        if !transaction.isNull { return .pending }
        guard let nonce = record.nonce, let from = record.fromAddress else { return .unknown }
        let next = try await client.call("eth_getTransactionCount", [.string(from), .string("latest")])
        guard let next = next.hexQuantity else {
            throw StatusCheckError.malformedResponse("a transaction count that is not a hex quantity")
        }
        return next > nonce
            ? .inferredFailure(reason: "dropped or replaced: nonce \(nonce) was used by another transaction")
            : .unknown
    }

    /// The block's timestamp, or `nil` if it cannot be read: the receipt alone settles the
    /// status, so a failed block lookup does not hold a confirmation back.
    private func blockTime(_ number: JSONValue?, _ client: EndpointClient) async throws -> Date? {
        guard let number, number.hexQuantity != nil else { return nil }
        let block: JSONValue
        do {
            block = try await client.call("eth_getBlockByNumber", [number, .bool(false)])
        } catch is StatusCheckError {
            return nil
        }
        return block["timestamp"]?.hexQuantity.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }
}
