/// The dApp or site that requested a transaction or signature (activity-log-sqlite.md).
/// Stored once per distinct `(domain, uri, scheme)` and shared by every record that names it.
public struct AppMetadata: Hashable, Sendable {
    public let domain: String?
    public let uri: String?
    public let scheme: String?

    /// Returns `nil` when all three parts are `nil`: a record without an app.
    public init?(domain: String? = nil, uri: String? = nil, scheme: String? = nil) throws {
        guard domain != nil || uri != nil || scheme != nil else { return nil }
        self.domain = try TextField.identifier.validate(domain, field: "app.domain")
        self.uri = try TextField.url.validate(uri, field: "app.uri")
        self.scheme = try TextField.line(max: 64).validate(scheme, field: "app.scheme")
    }
}
