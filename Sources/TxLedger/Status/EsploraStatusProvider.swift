import Foundation

/// Bitcoin-like chains through an Esplora REST API (Blockstream, mempool.space and their
/// kin): `GET /tx/{txid}/status`.
///
/// `confirmed: true` → confirmed at `block_time`; `confirmed: false` → pending (in the mempool);
/// HTTP 404 → unknown (the node does not know it; absence alone proves nothing).
public struct EsploraStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .utxo)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        guard let status = try await client.getJSON("tx/\(hash)/status") else { return .unknown }
        switch status["confirmed"]?.bool {
        case true?:
            return .confirmed(at: status["block_time"]?.integer.map { Date(timeIntervalSince1970: TimeInterval($0)) })
        case false?: return .pending
        case nil: throw StatusCheckError.malformedResponse("a status without a confirmed flag")
        }
    }
}
