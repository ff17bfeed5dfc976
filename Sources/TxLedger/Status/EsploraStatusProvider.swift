import Foundation

/// Bitcoin-like chains through an Esplora REST API (Blockstream, mempool.space and their
/// kin): `GET /tx/{txid}`.
///
/// `status.confirmed: true` → confirmed at `status.block_time`, in `status.block_height`, with
/// `fee` (satoshis) as the fee paid; `false` → pending (in the mempool); HTTP 404 → unknown
/// (the node does not know it; absence alone proves nothing).
public struct EsploraStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .utxo)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        guard let transaction = try await client.getJSON("tx/\(hash)") else { return .unknown }
        guard let status = transaction["status"] else {
            throw StatusCheckError.malformedResponse("a transaction without a status")
        }
        switch status["confirmed"]?.bool {
        case true?:
            return .confirmed(
                at: status["block_time"]?.integer.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                block: status["block_height"]?.integer.flatMap(UInt64.init(exactly:)),
                feePaid: try transaction["fee"]?.integer.flatMap(UInt64.init(exactly:)).map {
                    try BaseUnits($0).amount(decimals: 8)
                }
            )
        case false?: return .pending
        case nil: throw StatusCheckError.malformedResponse("a status without a confirmed flag")
        }
    }
}
