/// One page of a newest-first listing.
public struct Page: Sendable, Equatable {
    public let items: [TransactionRecord]
    /// Where the next page starts; `nil` on the last page.
    public let nextCursor: PageCursor?
}
