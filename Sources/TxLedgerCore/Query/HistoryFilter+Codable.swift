import Foundation

/// A filter in JSON, for an app to keep a screen's state: every field by its name, chains by
/// canonical id, `since` and `until` as integer milliseconds since 1970 (never through a
/// floating-point number), absent fields omitted and taking their defaults when decoded.
extension HistoryFilter: Codable {
    private enum CodingKeys: String, CodingKey {
        case vault, tab, chains, tokens, since, until, statuses, providers, includeHidden, includeReplaced, search,
            stage
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(vault, forKey: .vault)
        try c.encode(tab, forKey: .tab)
        try c.encode(chains.map(\.id).sorted(), forKey: .chains)
        try c.encode(tokens.sorted(), forKey: .tokens)
        try c.encodeIfPresent(since?.millis, forKey: .since)
        try c.encodeIfPresent(until?.millis, forKey: .until)
        try c.encode(statuses.map(\.rawValue).sorted(), forKey: .statuses)
        try c.encode(providers.sorted(), forKey: .providers)
        try c.encode(includeHidden, forKey: .includeHidden)
        try c.encode(includeReplaced, forKey: .includeReplaced)
        try c.encodeIfPresent(search, forKey: .search)
        try c.encode(stage, forKey: .stage)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func instant(_ key: CodingKeys) throws -> Date? {
            try c.decodeIfPresent(Int64.self, forKey: key).map(Date.init(millis:))
        }
        self.init(
            vault: try c.decodeIfPresent(String.self, forKey: .vault),
            tab: try c.decodeIfPresent(HistoryTab.self, forKey: .tab) ?? .overview,
            chains: try c.decodeIfPresent(Set<Chain>.self, forKey: .chains) ?? [],
            tokens: try c.decodeIfPresent(Set<String>.self, forKey: .tokens) ?? [],
            since: try instant(.since),
            until: try instant(.until),
            statuses: try c.decodeIfPresent(Set<TransactionStatus>.self, forKey: .statuses)
                ?? Set(TransactionStatus.allCases),
            providers: try c.decodeIfPresent(Set<String>.self, forKey: .providers) ?? [],
            includeHidden: try c.decodeIfPresent(Bool.self, forKey: .includeHidden) ?? false,
            includeReplaced: try c.decodeIfPresent(Bool.self, forKey: .includeReplaced) ?? false,
            search: try c.decodeIfPresent(String.self, forKey: .search)
        )
        stage = try c.decodeIfPresent(Stage.self, forKey: .stage) ?? .all
    }
}
