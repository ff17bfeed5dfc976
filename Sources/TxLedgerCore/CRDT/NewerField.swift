/// A record field that a newer version of the format defines and this one does not know
/// (Specs/bundle-format.md, "Newer fields"). It is read by its wire type alone, kept with the
/// record and written again, unchanged, in this replica's exports: a newer device's data
/// survives a trip through an older one.
struct NewerField: Hashable, Sendable {
    /// A value as its wire type gives it; texts and replicas resolved from the bundle's tables.
    enum Value: Hashable, Sendable {
        case varint(UInt64)
        /// A stamp time (`millis << 16 | counter`), absolute.
        case stampTime(Int64)
        case text(String)
        case sharedText(String)
        case replica(ReplicaID)
        case bytes([UInt8])

        var wireType: WireType {
            switch self {
            case .varint: .varint
            case .stampTime: .stampTime
            case .text: .text
            case .sharedText: .sharedText
            case .replica: .replica
            case .bytes: .bytes
            }
        }
    }

    /// The field number, `NewerFields.numbers`.
    let number: Int
    let value: Value
}
