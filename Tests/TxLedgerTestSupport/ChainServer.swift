import FlyingFox
import Foundation

@testable import TxLedger
@testable import TxLedgerStatus

/// A loopback HTTP server that plays a chain endpoint: every request is logged and answered by
/// the test's handler. JSON-RPC requests are parsed so handlers can switch on the method.
final class ChainServer: Sendable {
    struct Request: Sendable {
        let method: String
        let path: String
        let body: TxLedger.JSONValue?

        var rpcMethod: String? { body?["method"]?.string }
        var rpcParams: [TxLedger.JSONValue] {
            if case let .array(params)? = body?["params"] { return params }
            return []
        }
    }

    enum Reply: Sendable {
        /// A JSON-RPC 2.0 response with this `result` (JSON text).
        case rpcResult(String)
        /// A status and a body, as is.
        case http(Int, String)
        /// No answer until the server stops: the client times out, however slowly the machine runs.
        case hang
    }

    typealias Handler = @Sendable (Request) async -> Reply

    let url: URL
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let log: RequestLog

    static func start(_ handler: @escaping Handler) async throws -> ChainServer {
        // FlyingFox answers 500 to a handler that runs past `timeout`: a handler held by a
        // ConcurrencyProbe ran past 60 s on one loaded core, so the server's deadline is the
        // suite's one deadline too.
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0),
            timeout: TestLimits.hang,
            logger: .disabled
        )
        let log = RequestLog()
        await server.appendRoute("*") { request in
            let parsed = Request(
                method: request.method.rawValue,
                path: request.path,
                body: try? TxLedger.JSONValue.parse(try await request.bodyData)
            )
            await log.append(parsed)
            let reply = await handler(parsed)
            if case .hang = reply { await log.waitForStop() }
            return Self.response(reply)
        }
        // The server, its connections and its handlers run on a thread of their own; waiting
        // for it to listen has no deadline shorter than a hung test's.
        let task = serverTask { try await server.run() }
        try await serverTask { try await server.waitUntilListening(timeout: TestLimits.hang) }.value
        guard case let .ip4(_, port)? = await server.listeningAddress else { throw URLError(.cannotConnectToHost) }
        return ChainServer(url: URL(string: "http://127.0.0.1:\(port)")!, server: server, task: task, log: log)
    }

    private init(url: URL, server: HTTPServer, task: Task<Void, any Error>, log: RequestLog) {
        self.url = url
        self.server = server
        self.task = task
        self.log = log
    }

    /// Every request so far, in arrival order.
    var requests: [Request] { get async { await log.requests } }

    func stop() async {
        await log.stop()
        task.cancel()
        await server.stop(timeout: 1)
    }

    func endpoint(maxInFlight: Int? = nil) throws -> StatusEndpoint {
        try StatusEndpoint(url: url, maxInFlight: maxInFlight)
    }

    private static func response(_ reply: Reply) -> HTTPResponse {
        switch reply {
        case let .rpcResult(result):
            return HTTPResponse(
                statusCode: .ok,
                headers: [.contentType: "application/json"],
                body: Data(#"{"jsonrpc":"2.0","id":1,"result":\#(result)}"#.utf8)
            )
        case let .http(status, body):
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: "Test"),
                headers: [.contentType: "application/json"],
                body: Data(body.utf8)
            )
        case .hang:
            return HTTPResponse(statusCode: .serviceUnavailable)
        }
    }
}

private actor RequestLog {
    private(set) var requests: [ChainServer.Request] = []
    private var stopped = false
    private var hanging: [CheckedContinuation<Void, Never>] = []

    func append(_ request: ChainServer.Request) { requests.append(request) }

    func waitForStop() async {
        if !stopped { await withCheckedContinuation { hanging.append($0) } }
    }

    func stop() {
        stopped = true
        for continuation in hanging { continuation.resume() }
        hanging = []
    }
}
