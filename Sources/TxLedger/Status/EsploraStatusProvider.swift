import Foundation

/// Bitcoin-like chains through an Esplora REST API (Blockstream, mempool.space and their
/// kin): `GET /tx/{txid}/status`.
///
/// `confirmed: true` → confirmed at `block_time`; `confirmed: false` → pending (in the mempool);
/// HTTP 404 → unknown (the node does not know it; absence alone proves nothing).
public struct EsploraStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chain.family == .utxo && record.kind != .signature ? record.chain.id : nil
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        let reply = try await client.get("tx/\(hash)/status")
        if reply.status == 404 { return .unknown }
        guard reply.status == 200 else { throw StatusCheckError.unexpectedStatus(reply.status) }
        let status = try JSONValue.parse(reply.body)
        switch status["confirmed"]?.bool {
        case true?: return .confirmed(at: status["block_time"]?.integer.map { Date(timeIntervalSince1970: TimeInterval($0)) })
        case false?: return .pending
        case nil: throw StatusCheckError.malformedResponse("a status without a confirmed flag")
        }
    }
}
