import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A status code and body, whatever the status.
public struct HTTPReply: Sendable {
    public let status: Int
    public let body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// Sends one HTTP request. The default is `URLSessionTransport`; an app may bring its own
/// (a proxy, a pinned session) and tests may too.
public protocol HTTPTransport: Sendable {
    /// - Throws: `StatusCheckError.timeout` or `.unreachable`; never an error that quotes the URL.
    func send(_ request: URLRequest) async throws -> HTTPReply
}

/// `HTTPTransport` over an ephemeral `URLSession`: no cookies, no cache, no credentials stored.
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // `send` bounds each exchange by the request's own timeout (`RefreshConfiguration.timeout`);
        // the session's idle timeout (60 s by default) must not cut a longer one short.
        configuration.timeoutIntervalForRequest = Self.sessionTimeout
        configuration.timeoutIntervalForResource = Self.sessionTimeout
        session = URLSession(configuration: configuration)
    }

    /// The session's own timeouts: a week, so that only `send`'s bound applies.
    static let sessionTimeout: TimeInterval = 7 * 24 * 60 * 60

    /// Bounds the whole exchange by `request.timeoutInterval` itself: URLSession's own timeout
    /// is an idle timeout, and on Linux it is not applied below a second.
    public func send(_ request: URLRequest) async throws -> HTTPReply {
        let session = session
        return try await withThrowingTaskGroup(of: HTTPReply.self) { group in
            group.addTask { try await Self.exchange(request, session) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(request.timeoutInterval, 0) * 1_000_000_000))
                throw StatusCheckError.timeout
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    private static func exchange(_ request: URLRequest, _ session: URLSession) async throws -> HTTPReply {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw StatusCheckError.unreachable }
            return HTTPReply(status: http.statusCode, body: data)
        } catch let error as URLError {
            // URLError's description holds the URL, which may hold an API key: map, never wrap.
            switch error.code {
            case .cancelled: throw CancellationError()
            case .timedOut: throw StatusCheckError.timeout
            default: throw StatusCheckError.unreachable
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as StatusCheckError {
            throw error
        } catch {
            throw StatusCheckError.unreachable
        }
    }
}
