import Foundation
import TxLedgerCore

/// EVM chains over JSON-RPC (`ethereum`, `base`, `eip155:N`, ...).
///
/// - `eth_getTransactionReceipt`: `status` 0x1 → confirmed, 0x0 → failed, "reverted" (proof),
///   with the block, its time (`eth_getBlockByNumber`, best effort) and the fee paid
///   (`gasUsed × effectiveGasPrice`, plus `l1Fee` on rollups whose receipts carry one). With
///   more than one confirmation required, `eth_blockNumber` says whether the block is deep
///   enough; until it is, the transaction is pending.
/// - No receipt, but `eth_getTransactionByHash` has it → pending (in the mempool).
/// - Neither, and the record knows its `nonce` and `fromAddress`, and the sender's
///   `eth_getTransactionCount` at the block `droppedAfterBlocks − 1` below the latest is past
///   that nonce → an inferred failure, "dropped or replaced": another transaction took the
///   nonce that many blocks ago. Otherwise unknown: absence alone proves nothing.
public struct EVMStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .evm)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        let receipt = try await client.call("eth_getTransactionReceipt", [.string(hash)])
        if !receipt.isNull { return try await outcome(receipt, client) }
        let transaction = try await client.call("eth_getTransactionByHash", [.string(hash)])
        if !transaction.isNull { return .pending }
        guard let nonce = record.nonce, let from = record.fromAddress else { return .unknown }
        let depth = client.evidence.requiredDropDepth
        let latest = try await latestBlock(client)
        guard latest + 1 >= depth else { return .unknown }
        let count = try await client.call(
            "eth_getTransactionCount",
            [.string(from), .string(Self.hex(latest + 1 - depth))]
        )
        guard let count = count.hexQuantity else {
            throw StatusCheckError.malformedResponse("a transaction count that is not a hex quantity")
        }
        return count > nonce
            ? .inferredFailure(reason: "dropped or replaced: nonce \(nonce) was used by another transaction")
            : .unknown
    }

    /// What a receipt proves, once its block is deep enough.
    private func outcome(_ receipt: JSONValue, _ client: EndpointClient) async throws -> ChainStatus {
        let success: Bool
        switch receipt["status"]?.string {
        case "0x1": success = true
        case "0x0": success = false
        default: throw StatusCheckError.malformedResponse("a receipt without a 0x0 or 0x1 status")
        }
        // A receipt of a block not yet mined (some nodes serve one for the pending block).
        guard let number = receipt["blockNumber"], let block = number.hexQuantity else { return .pending }
        let required = client.evidence.requiredConfirmations
        if required > 1 {
            let latest = try await latestBlock(client)
            guard latest >= block, latest - block + 1 >= required else { return .pending }
        }
        let fee = try Self.feePaid(receipt)
        return success
            ? .confirmed(at: try await blockTime(number, client), block: block, feePaid: fee)
            : .failed(reason: "reverted", block: block, feePaid: fee)
    }

    /// `gasUsed × effectiveGasPrice`, plus `l1Fee` where the receipt has one (OP Stack and
    /// other rollups), in ether; `nil` when the receipt lacks the first two (before London).
    static func feePaid(_ receipt: JSONValue) throws -> DecimalAmount? {
        guard let gas = receipt["gasUsed"]?.hexQuantity, let price = receipt["effectiveGasPrice"]?.hexQuantity else {
            return nil
        }
        var wei = BaseUnits(gas, times: price)
        if let l1Fee = receipt["l1Fee"] {
            guard let l1Fee = l1Fee.hexQuantity else {
                throw StatusCheckError.malformedResponse("an l1Fee that is not a hex quantity")
            }
            wei = wei.adding(l1Fee)
        }
        return try wei.amount(decimals: 18)
    }

    private func latestBlock(_ client: EndpointClient) async throws -> UInt64 {
        guard let latest = try await client.call("eth_blockNumber", []).hexQuantity else {
            throw StatusCheckError.malformedResponse("a block number that is not a hex quantity")
        }
        return latest
    }

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The block's timestamp, or `nil` if it cannot be read: the receipt alone settles the
    /// status, so a failed block lookup does not hold a confirmation back.
    private func blockTime(_ number: JSONValue, _ client: EndpointClient) async throws -> Date? {
        let block: JSONValue
        do {
            block = try await client.call("eth_getBlockByNumber", [number, .bool(false)])
        } catch is StatusCheckError {
            return nil
        }
        return block["timestamp"]?.hexQuantity.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }
}
