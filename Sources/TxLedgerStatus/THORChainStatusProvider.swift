import TxLedgerCore

/// THORChain and MayaChain swaps, through a THORNode (or MayaNode) REST API:
/// `GET /thorchain/tx/status/{inbound hash}` (`/mayachain/...` for Maya). The swap's record
/// holds the inbound transaction's hash, on whichever chain it started.
///
/// - Inbound not observed yet → unknown.
/// - A refund planned or sent (`planned_out_txs[].refund`, or an `out_txs` memo `REFUND:...`)
///   → failed, "refunded".
/// - `swap_finalised` completed and the outbound sent (`outbound_signed` completed, or an
///   `out_txs` entry when the node reports no signing stage) → confirmed.
/// - Anything else → pending (observed, counting confirmations, streaming, delayed, scheduled).
public struct THORChainStatusProvider: StatusProvider {
    /// The swap provider whose records this checks.
    public let swapProvider: SwapProvider
    /// The endpoint key: `thorchain` or `mayachain`.
    public let endpointName: String
    /// The node module in the path: `thorchain` or `mayachain`.
    let module: String

    public static let thorchain = THORChainStatusProvider(
        swapProvider: .thorchain,
        endpointName: "thorchain",
        module: "thorchain"
    )
    public static let mayachain = THORChainStatusProvider(
        swapProvider: .mayachain,
        endpointName: "mayachain",
        module: "mayachain"
    )

    public func endpointKey(for record: TransactionRecord) -> String? {
        guard case let .swap(swap) = record.details, swap.provider == swapProvider else { return nil }
        return endpointName
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        // THORNode names transactions by upper-case hex without 0x, whatever their chain.
        let inbound = (hash.hasPrefix("0x") ? String(hash.dropFirst(2)) : hash).uppercased()
        guard let status = try await client.getJSON("\(module)/tx/status/\(inbound)") else { return .unknown }
        guard let stages = status["stages"] else { throw StatusCheckError.malformedResponse("no stages") }
        guard stages["inbound_observed"]?["started"]?.bool == true else { return .unknown }

        let planned = status["planned_out_txs"].flatMap(Self.elements) ?? []
        let sent = status["out_txs"].flatMap(Self.elements) ?? []
        let refunded =
            planned.contains { $0["refund"]?.bool == true }
            || sent.contains { ($0["memo"]?.string ?? "").uppercased().hasPrefix("REFUND") }
        if refunded { return .failed(reason: "refunded") }

        let swapDone = stages["swap_finalised"]?["completed"]?.bool == true
        let outboundSent = stages["outbound_signed"]?["completed"]?.bool ?? !sent.isEmpty
        return swapDone && outboundSent ? .confirmed(at: nil) : .pending
    }

    private static func elements(_ value: JSONValue) -> [JSONValue]? {
        if case let .array(values) = value { return values }
        return nil
    }
}
