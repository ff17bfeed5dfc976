import Foundation

/// Cosmos SDK chains (Cosmos Hub, Osmosis, THORChain and MayaChain sends, ...) through the REST
/// gateway: `GET /cosmos/tx/v1beta1/txs/{hash}`.
///
/// `tx_response.code` 0 → confirmed at `tx_response.timestamp`; any other code → failed, with
/// `raw_log` (or the codespace and code) as the reason; both in block `tx_response.height`;
/// HTTP 404 → unknown. The fee is not read: a Cosmos fee may be paid in any denomination.
public struct CosmosStatusProvider: StatusProvider {
    public init() {}

    public func endpointKey(for record: TransactionRecord) -> String? {
        record.chainKey(if: .cosmos)
    }

    public func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus {
        guard let hash = record.txHash else { return .unknown }
        guard let body = try await client.getJSON("cosmos/tx/v1beta1/txs/\(hash.uppercased())") else { return .unknown }
        guard let response = body["tx_response"], let code = response["code"]?.integer else {
            throw StatusCheckError.malformedResponse("no tx_response with a code")
        }
        let height = response["height"]?.integer.flatMap(UInt64.init(exactly:))
        if code == 0 {
            return .confirmed(
                at: response["timestamp"]?.string.flatMap { try? ISO8601.date(from: $0, field: "timestamp") },
                block: height
            )
        }
        let log = response["raw_log"]?.string ?? ""
        let codespace = response["codespace"]?.string ?? ""
        return .failed(
            reason: log.isEmpty ? "code \(code)\(codespace.isEmpty ? "" : " (\(codespace))")" : log,
            block: height
        )
    }
}
