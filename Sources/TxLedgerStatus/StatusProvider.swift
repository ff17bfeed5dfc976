import TxLedgerCore

/// Reads one kind of chain's answer about a transaction. Built in: `EVMStatusProvider`,
/// `EsploraStatusProvider`, `SolanaStatusProvider`, `CosmosStatusProvider` and
/// `THORChainStatusProvider` (THORChain and MayaChain swaps); an app adds its own by conforming
/// to this protocol and listing it in `RefreshConfiguration.providers` before the built-in ones.
public protocol StatusProvider: Sendable {
    /// The key of the endpoint that answers for `record` (a chain id such as `ethereum`, or
    /// `thorchain` for a THORChain swap), or `nil` if this provider does not check it.
    func endpointKey(for record: TransactionRecord) -> String?

    /// Asks the endpoint about `record` (a send or swap with a transaction hash).
    /// - Throws: `StatusCheckError` when there is no answer; it never changes the status.
    func check(_ record: TransactionRecord, with client: EndpointClient) async throws -> ChainStatus
}

extension TransactionRecord {
    /// The record's chain id if it is a send or swap on a chain of `family`: the endpoint key
    /// of the providers that check one family of chains.
    func chainKey(if family: Chain.Family) -> String? {
        facts.chain.family == family && facts.kind != .signature ? facts.chain.id : nil
    }
}
