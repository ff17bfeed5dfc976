import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a status provider talks to its endpoint: REST `GET`s below the endpoint's URL and
/// JSON-RPC 2.0 calls to it, with the transport errors and HTTP statuses every provider treats
/// alike (429, 5xx, timeouts, unreachable) already turned into `StatusCheckError`s.
public struct EndpointClient: Sendable {
    public let endpoint: StatusEndpoint
    /// What this chain's answers must show before they are written (confirmations, the depth
    /// of a used nonce).
    public let evidence: EvidencePolicy
    let transport: any HTTPTransport
    let timeout: TimeInterval

    public init(
        endpoint: StatusEndpoint,
        transport: any HTTPTransport,
        timeout: TimeInterval,
        evidence: EvidencePolicy = EvidencePolicy()
    ) {
        self.endpoint = endpoint
        self.evidence = evidence
        self.transport = transport
        self.timeout = timeout
    }

    /// `GET`s `path` (e.g. `/tx/<id>/status`) below the endpoint's URL.
    /// - Returns: the reply, for 2xx and any 4xx but 429 (a provider decides what a 404 means).
    public func get(_ path: String) async throws -> HTTPReply {
        var request = URLRequest(url: endpoint.url.appendingPathComponent(path), timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return try await send(request)
    }

    /// `GET`s a JSON resource below the endpoint's URL.
    /// - Returns: the parsed body, or `nil` for HTTP 404 (the resource does not exist, which a
    ///   provider reads as "the chain does not know the transaction").
    /// - Throws: `StatusCheckError.unexpectedStatus` for another status than 200 or 404;
    ///   `.malformedResponse` for a body that is not JSON; the transport's errors.
    public func getJSON(_ path: String) async throws -> JSONValue? {
        let reply = try await get(path)
        if reply.status == 404 { return nil }
        guard reply.status == 200 else { throw StatusCheckError.unexpectedStatus(reply.status) }
        return try JSONValue.parse(reply.body)
    }

    /// Calls a JSON-RPC 2.0 method on the endpoint's URL.
    /// - Returns: the `result` member, which may be `.null`.
    /// - Throws: `StatusCheckError.rpcError` for an `error` member; `.malformedResponse` for a
    ///   reply that is not a JSON-RPC response; the transport's errors.
    public func call(_ method: String, _ params: [JSONValue]) async throws -> JSONValue {
        var request = URLRequest(url: endpoint.url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(
            JSONValue.object([
                "jsonrpc": .string("2.0"), "id": .number("1"), "method": .string(method), "params": .array(params),
            ])
        )
        let reply = try await send(request)
        guard (200..<300).contains(reply.status) else { throw StatusCheckError.unexpectedStatus(reply.status) }
        let body = try JSONValue.parse(reply.body)
        if let error = body["error"], !error.isNull {
            throw StatusCheckError.rpcError(
                code: error["code"]?.integer ?? 0,
                message: String((error["message"]?.string ?? "no message").prefix(200))
            )
        }
        guard let result = body["result"] else {
            throw StatusCheckError.malformedResponse("a JSON-RPC reply without result or error")
        }
        return result
    }

    private func send(_ request: URLRequest) async throws -> HTTPReply {
        let reply = try await transport.send(request)
        switch reply.status {
        case 429: throw StatusCheckError.rateLimited
        case 500...599: throw StatusCheckError.serverError(status: reply.status)
        case 200..<300, 400..<500: return reply
        default: throw StatusCheckError.unexpectedStatus(reply.status)
        }
    }
}
