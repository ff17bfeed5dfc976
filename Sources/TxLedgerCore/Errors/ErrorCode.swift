/// The code of one of the library's error types (`LedgerError.Code`, `BundleError.Code`,
/// `StatusUpdateRefusal.Code`, `StatusCheckError.Code`): a stable string, with a static constant
/// per code, that later versions may add to without breaking an app (Specs/errors.md), as
/// GRDB's `ResultCode` is.
public protocol ErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension ErrorCode {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
}
