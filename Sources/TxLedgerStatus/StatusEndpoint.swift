import Foundation
import TxLedgerCore

/// Where the status of one chain's transactions is asked: an RPC or REST base URL.
public struct StatusEndpoint: Hashable, Sendable, CustomStringConvertible {
    public let url: URL
    /// At most this many checks in flight at this endpoint at once (besides the refresher's
    /// overall bound); `nil` means the overall bound only.
    public let maxInFlight: Int?

    /// - Throws: `LedgerError.invalidInput` unless `url` is an absolute http or https URL and
    ///   `maxInFlight`, if given, is at least 1.
    public init(url: URL, maxInFlight: Int? = nil) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw LedgerError.invalidInput(field: "endpoint", reason: "must be an http:// or https:// URL with a host")
        }
        if let maxInFlight, maxInFlight < 1 {
            throw LedgerError.invalidInput(field: "maxInFlight", reason: "must be at least 1")
        }
        self.url = url
        self.maxInFlight = maxInFlight
    }

    /// - Throws: as `init(url:maxInFlight:)`, and for text that is not a URL.
    public init(parsing text: String, maxInFlight: Int? = nil) throws {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)) else {
            throw LedgerError.invalidInput(field: "endpoint", reason: "is not a URL")
        }
        try self.init(url: url, maxInFlight: maxInFlight)
    }

    /// Scheme, host and port only: RPC URLs often carry an API key in their path or query, so
    /// this is the only form that errors, logs and summaries show.
    public var description: String {
        var text = "\(url.scheme ?? "http")://\(url.host ?? "")"
        if let port = url.port { text += ":\(port)" }
        return text
    }
}
