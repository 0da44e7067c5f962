import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over Foundation's `URLSession` for a real gateway (or a simulator behind a server).
///
/// Each request carries its own timeout, which bounds the whole exchange (connection, upload and
/// answer), not only idle time. A timeout surfaces as
/// ``HTTPTransportError/timedOut``; a refused connection or unknown host as
/// ``HTTPTransportError/connectionFailed(_:)``, so the caller can tell "maybe applied" from
/// "never sent".
public struct URLSessionTransport: HTTPTransport {
    /// The gateway's base URL, e.g. `https://api.iamport.kr`; request paths are appended to it.
    public let baseURL: URL
    private let session: URLSession

    /// - Parameter session: default ``uncachedSession()``.
    public init(baseURL: URL, session: URLSession = URLSessionTransport.uncachedSession()) {
        self.baseURL = baseURL
        self.session = session
    }

    /// A session that keeps nothing between requests: no cookies, no credentials, and no cache,
    /// since a payment gateway's answers must never come from one.
    public static func uncachedSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }

    public func send(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            throw .other("invalid path \(request.path)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own timeout is an idle timeout; the race below bounds the whole exchange.
        urlRequest.timeoutInterval = timeout.seconds
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        return try await Self.race(urlRequest, on: session, timeout: timeout).get()
    }

    /// The exchange's outcome, or `timedOut` when `timeout` passes first, or `cancelled` when the
    /// calling task is cancelled first, whichever comes first.
    ///
    /// The `URLSession` task is never cancelled: on Linux, cancelling one can trap the whole
    /// process when the cancel races the task's own completion ("Trying to access a behaviour
    /// for a task that in not in the registry", swift-corelibs-foundation issue 3296) — a server
    /// cancels a request's task whenever its client goes away, and at every graceful shutdown.
    /// So the exchange runs in a task of its own that no cancellation reaches, and a caller that
    /// stops waiting abandons it; the session ends it by itself at the same timeout (the
    /// request's `timeoutInterval`), and its late answer is dropped.
    private static func race(_ request: URLRequest, on session: URLSession,
                             timeout: Duration) async -> Result<TransportResponse, HTTPTransportError> {
        let outcome = FirstOutcome<Result<TransportResponse, HTTPTransportError>>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                outcome.wait(with: continuation)
                let timer = Task.detached {
                    // Cancelled when the answer came first: then it must not settle a timeout,
                    // which could win the race against that answer.
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    outcome.settle(.failure(.timedOut))
                }
                Task.detached {
                    let result = await perform(request, on: session)
                    timer.cancel()
                    outcome.settle(result)
                }
            }
        } onCancel: {
            outcome.settle(.failure(.cancelled))
        }
    }

    private static func perform(_ request: URLRequest, on session: URLSession) async -> Result<TransportResponse, HTTPTransportError> {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failure(.other("not an HTTP response")) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return .success(TransportResponse(status: http.statusCode, headers: headers, body: data))
        } catch let error as URLError {
            return .failure(transportError(for: error))
        } catch is CancellationError {
            return .failure(.cancelled)
        } catch {
            return .failure(.other("\(error)"))
        }
    }

    /// Sorts a `URLError` into "timed out" (maybe applied), "could not connect" (never sent),
    /// "cancelled" or anything else.
    public static func transportError(for error: URLError) -> HTTPTransportError {
        switch error.code {
        case .timedOut:
            .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
             .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .badURL, .unsupportedURL:
            .connectionFailed(error.localizedDescription)
        case .cancelled:
            .cancelled
        default:
            .other(error.localizedDescription)
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
