import Foundation
import TxLedgerCore

/// Why a status check gave no answer. None of these ever changes a record's status: the record
/// keeps its status, its `lastCheckedAt` moves, and the refresh summary reports the problem.
///
/// Descriptions name the problem, never the endpoint's URL (which may hold an API key). A
/// struct with a `code`, as `LedgerError` is: later versions may add codes without breaking an
/// app whose `switch` over `code` has a `default:` (Specs/errors.md).
public struct StatusCheckError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is: a short word for scripts. Later versions may add codes.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        /// No answer within the request timeout.
        public static let timeout: Code = "timeout"
        /// The endpoint could not be reached (refused, reset, name not resolved, no network).
        public static let unreachable: Code = "unreachable"
        /// HTTP 429: the endpoint asks us to slow down.
        public static let rateLimited: Code = "rate_limited"
        /// HTTP 5xx.
        public static let serverError: Code = "server_error"
        /// Another HTTP status that the provider does not expect.
        public static let unexpectedStatus: Code = "unexpected_status"
        /// A body that is not JSON, or JSON of the wrong shape.
        public static let malformedResponse: Code = "malformed_response"
        /// A JSON-RPC error object (e.g. a provider's own rate limit, -32005).
        public static let rpcError: Code = "rpc_error"
        /// No endpoint is configured for this chain.
        public static let noEndpoint: Code = "no_endpoint"
        /// No provider knows how to check this record.
        public static let noProvider: Code = "no_provider"
        /// A provider threw something else than a `StatusCheckError` (an app's own provider).
        public static let providerFailed: Code = "provider_failed"
        /// The app said the network is unavailable (`StatusRefresher.setNetworkAvailable(false)`).
        public static let offline: Code = "offline"
    }

    public let code: Code
    /// The HTTP status (`serverError`, `unexpectedStatus`).
    public let httpStatus: Int?
    /// What was wrong with the body (`malformedResponse`), the JSON-RPC error's message
    /// (`rpcError`), the endpoint key (`noEndpoint`, e.g. `ethereum`), or the type of what an
    /// app's provider threw (`providerFailed`: only its type, since its text may quote a URL).
    public let detail: String?
    /// The JSON-RPC error's code (`rpcError`).
    public let rpcCode: Int64?

    private init(_ code: Code, httpStatus: Int? = nil, detail: String? = nil, rpcCode: Int64? = nil) {
        self.code = code
        self.httpStatus = httpStatus
        self.detail = detail
        self.rpcCode = rpcCode
    }

    public static let timeout = StatusCheckError(.timeout)
    public static let unreachable = StatusCheckError(.unreachable)
    public static let rateLimited = StatusCheckError(.rateLimited)

    public static func serverError(status: Int) -> StatusCheckError {
        StatusCheckError(.serverError, httpStatus: status)
    }

    public static func unexpectedStatus(_ status: Int) -> StatusCheckError {
        StatusCheckError(.unexpectedStatus, httpStatus: status)
    }

    public static func malformedResponse(_ reason: String) -> StatusCheckError {
        StatusCheckError(.malformedResponse, detail: reason)
    }

    public static func rpcError(code: Int64, message: String) -> StatusCheckError {
        StatusCheckError(.rpcError, detail: message, rpcCode: code)
    }

    public static func noEndpoint(_ key: String) -> StatusCheckError {
        StatusCheckError(.noEndpoint, detail: key)
    }

    public static let noProvider = StatusCheckError(.noProvider)

    public static func providerFailed(_ type: String) -> StatusCheckError {
        StatusCheckError(.providerFailed, detail: type)
    }

    public static let offline = StatusCheckError(.offline)

    public var description: String {
        let detail = self.detail ?? ""
        return switch code {
        case .timeout: "timed out"
        case .unreachable: "endpoint unreachable"
        case .rateLimited: "rate limited (HTTP 429)"
        case .serverError: "server error (HTTP \(httpStatus ?? 500))"
        case .unexpectedStatus: "unexpected HTTP \(httpStatus ?? 0)"
        case .malformedResponse: "malformed response: \(detail)"
        case .rpcError: "JSON-RPC error \(rpcCode ?? 0): \(detail)"
        case .noEndpoint: "no endpoint for \(detail)"
        case .noProvider: "no status provider for this chain"
        case .providerFailed: "the status provider failed (\(detail))"
        case .offline: "offline"
        default: "\(code)\(self.detail.map { ": \($0)" } ?? "")"
        }
    }
}

extension StatusCheckError: LocalizedError {
    public var errorDescription: String? { description }
}
