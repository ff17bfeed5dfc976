import Foundation

/// Why a status check gave no answer. None of these ever changes a record's status: the record
/// keeps its status, its `lastCheckedAt` moves, and the refresh summary reports the problem.
///
/// Descriptions name the problem, never the endpoint's URL (which may hold an API key).
public enum StatusCheckError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No answer within the request timeout.
    case timeout
    /// The endpoint could not be reached (refused, reset, name not resolved, no network).
    case unreachable
    /// HTTP 429: the endpoint asks us to slow down.
    case rateLimited
    /// HTTP 5xx.
    case serverError(status: Int)
    /// Another HTTP status that the provider does not expect.
    case unexpectedStatus(Int)
    /// A body that is not JSON, or JSON of the wrong shape.
    case malformedResponse(String)
    /// A JSON-RPC error object (e.g. a provider's own rate limit, -32005).
    case rpcError(code: Int64, message: String)
    /// No endpoint is configured for this chain (endpoint key, e.g. `ethereum`).
    case noEndpoint(String)
    /// No provider knows how to check this record.
    case noProvider
    /// A provider threw something else than a `StatusCheckError` (an app's own provider);
    /// only the error's type is kept, since its text may quote a URL.
    case providerFailed(String)
    /// The app said the network is unavailable (`StatusRefresher.setNetworkAvailable(false)`).
    case offline

    public var description: String {
        switch self {
        case .timeout: "timed out"
        case .unreachable: "endpoint unreachable"
        case .rateLimited: "rate limited (HTTP 429)"
        case let .serverError(status): "server error (HTTP \(status))"
        case let .unexpectedStatus(status): "unexpected HTTP \(status)"
        case let .malformedResponse(reason): "malformed response: \(reason)"
        case let .rpcError(code, message): "JSON-RPC error \(code): \(message)"
        case let .noEndpoint(key): "no endpoint for \(key)"
        case .noProvider: "no status provider for this chain"
        case let .providerFailed(type): "the status provider failed (\(type))"
        case .offline: "offline"
        }
    }

    /// A short word for scripts: `timeout`, `unreachable`, `rate_limited`, `server_error`,
    /// `unexpected_status`, `malformed_response`, `rpc_error`, `no_endpoint`, `no_provider`,
    /// `provider_failed`, `offline`.
    public var code: String {
        switch self {
        case .timeout: "timeout"
        case .unreachable: "unreachable"
        case .rateLimited: "rate_limited"
        case .serverError: "server_error"
        case .unexpectedStatus: "unexpected_status"
        case .malformedResponse: "malformed_response"
        case .rpcError: "rpc_error"
        case .noEndpoint: "no_endpoint"
        case .noProvider: "no_provider"
        case .providerFailed: "provider_failed"
        case .offline: "offline"
        }
    }
}

extension StatusCheckError: LocalizedError {
    public var errorDescription: String? { description }
}
