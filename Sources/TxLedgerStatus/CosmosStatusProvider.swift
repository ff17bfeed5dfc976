import Foundation
import TxLedgerCore

/// Cosmos SDK chains (Cosmos Hub, Osmosis, THORChain and MayaChain sends, ...) through the REST
/// gateway: `GET /cosmos/tx/v1beta1/txs/{hash}`.
///
/// `tx_response.code` 0 → confirmed at `tx_response.timestamp`; any other code → failed, with
/// `raw_log` (or the codespace and code) as the reason; both in block `tx_response.height`,
/// with the fee paid when `tx.auth_info.fee.amount` is one coin of the chain's native
/// denomination (`feeDenominations`); HTTP 404 → unknown.
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
        let fee = try feePaid(body["tx"]?["auth_info"]?["fee"]?["amount"], chain: record.chain.id)
        if code == 0 {
            return .confirmed(
                at: response["timestamp"]?.string.flatMap { try? ISO8601.date(from: $0, field: "timestamp") },
                block: height,
                feePaid: fee
            )
        }
        let log = response["raw_log"]?.string ?? ""
        let codespace = response["codespace"]?.string ?? ""
        return .failed(
            reason: log.isEmpty ? "code \(code)\(codespace.isEmpty ? "" : " (\(codespace))")" : log,
            block: height,
            feePaid: fee
        )
    }

    /// The native fee denomination of each catalog chain (Specs/status-tracking.md): a fee in
    /// it is kept in the chain's native unit; a fee in any other is not kept.
    static let feeDenominations: [String: (denom: String, decimals: Int)] = [
        "cosmos": ("uatom", 6), "osmosis": ("uosmo", 6), "kujira": ("ukuji", 6), "terra": ("uluna", 6),
        "dydx": ("adydx", 18), "thorchain": ("rune", 8), "mayachain": ("cacao", 10),
    ]

    /// One coin of the chain's native denomination, in the native unit; else `nil`.
    private func feePaid(_ coins: JSONValue?, chain: String) throws -> DecimalAmount? {
        guard case let .array(coins)? = coins, coins.count == 1, let native = Self.feeDenominations[chain],
            coins[0]["denom"]?.string == native.denom, let amount = coins[0]["amount"]?.string
        else { return nil }
        guard let units = UInt64(amount) else {
            throw StatusCheckError.malformedResponse("a fee amount that is not a base-unit integer")
        }
        return try BaseUnits(units).amount(decimals: native.decimals)
    }
}
