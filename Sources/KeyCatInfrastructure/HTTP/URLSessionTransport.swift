import Foundation
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

    public init(baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral)) {
        self.baseURL = baseURL
        self.session = session
    }

    public func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPTransportError) -> HTTPResponse {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            throw .other("invalid path \(request.path)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own timeout is an idle timeout; the race below bounds the whole exchange.
        urlRequest.timeoutInterval = timeout.seconds
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let session = session
        let prepared = urlRequest
        let outcome = await withTaskGroup(of: Result<HTTPResponse, HTTPTransportError>?.self) { group in
            group.addTask { await Self.perform(prepared, on: session) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(.timedOut)
            }
            defer { group.cancelAll() }
            for await result in group {
                if let result { return result }
            }
            return .failure(.cancelled)
        }
        return try outcome.get()
    }

    private static func perform(_ request: URLRequest, on session: URLSession) async -> Result<HTTPResponse, HTTPTransportError> {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failure(.other("not an HTTP response")) }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return .success(HTTPResponse(status: http.statusCode, headers: headers, body: data))
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
