/// One page of a newest-first listing.
public struct Page: Sendable, Hashable, Codable {
    public let items: [TransactionRecord]
    /// Where the next page starts; `nil` on the last page.
    public let nextCursor: PageCursor?

    /// Whether more records follow: compact mode shows "See more" (card-transaction-history-view.md).
    public var hasMore: Bool { nextCursor != nil }

    package init(items: [TransactionRecord], nextCursor: PageCursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
