import Foundation
import TxLedgerCore

/// Bitcoin-like chains through an Esplora REST API (Blockstream, mempool.space and their
/// kin): `GET /tx/{txid}`.
///
/// `status.confirmed: true` → confirmed at `status.block_time`, in `status.block_height`, with
/// `fee` (satoshis) as the fee paid; `false` → pending (in the mempool). HTTP 404: the node
/// does not know it. If the record names the outputs it spends (`spends`), each one's
/// `GET /tx/{txid}/outspend/{vout}` tells whether another transaction spent it: a replacement
/// by fee (RBF). Spent by a confirmed one → failed, replaced by it (proof); by one still in the
/// mempool → an inferred failure. Otherwise unknown: absence alone proves nothing.
public struct EsploraStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .utxo)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        guard let transaction = try await client.getJSON("tx/\(hash)") else {
            return try await replacement(of: record, hash: hash, client)
        }
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

    /// What spent the outputs `record` spends, if another transaction did.
    private func replacement(
        of record: TransactionRecord,
        hash: String,
        _ client: EndpointClient
    ) async throws
        -> ChainStatus
    {
        let outpoints = record.facts.extras[RecordField.spends.key]?.split(separator: ",") ?? []
        for outpoint in outpoints {
            let parts = outpoint.split(separator: ":")
            guard let outspend = try await client.getJSON("tx/\(parts[0])/outspend/\(parts[1])"),
                outspend["spent"]?.bool == true, let spender = outspend["txid"]?.string, spender != hash
            else { continue }
            guard let spenderHash = try? record.chain.normalizedTxHash(spender) else {
                throw StatusCheckError.malformedResponse("an outspend whose txid is not a transaction hash")
            }
            guard outspend["status"]?["confirmed"]?.bool == true else {
                return .inferredFailure(reason: "replaced by \(spenderHash), not yet confirmed")
            }
            return .failed(reason: "replaced by \(spenderHash)", replacedBy: spenderHash)
        }
        return .unknown
    }
}
