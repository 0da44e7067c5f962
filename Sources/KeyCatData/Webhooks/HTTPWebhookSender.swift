import Foundation
import KeyCatDomain
import KeyCatInfrastructure
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// KeyCat's ``WebhookSender``: HTTPS through `URLSession`, guarded against server-side request
/// forgery (docs/webhooks.md "Safe by default").
///
/// Before each request the host is resolved and refused if any address is private, loopback,
/// link-local, unspecified, multicast or reserved (``OutboundAddressPolicy``), unless it is one
/// of the operator's development hosts. Redirects are not followed: a 3xx is a failed attempt.
/// The whole exchange is bounded by the request's timeout; the response body kept is its first
/// 4 KB. Resolution runs on a Dispatch thread and the exchange is async, so a slow endpoint
/// holds no thread of the shop's and no storage connection.
///
/// The address check and the connection resolve the name separately, so a name whose DNS
/// answer changes between the two (rebinding with a very short TTL) can still slip through;
/// shops that need more route deliveries through an egress proxy (``WebhookDeliveryOptions/sender``).
package struct HTTPWebhookSender: WebhookSender {
    private let developmentHosts: Set<String>
    private var session: URLSession { Self.session }

    package init(developmentHosts: Set<String>) {
        self.developmentHosts = Set(developmentHosts.map(WebhookURL.normalizedHost))
    }

    /// One session for every sender of the process: it keeps connections alive between
    /// deliveries, and a session is never released (it lives as long as its delegate).
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = 8
        return URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }()

    package func send(_ request: WebhookRequest) async -> WebhookAttempt? {
        let clock = ContinuousClock()
        let start = clock.now
        func attempt(status: Int?, error: String?, body: Data = Data()) -> WebhookAttempt {
            let elapsed = clock.now - start
            return WebhookAttempt(
                startedAt: request.startedAt, durationMilliseconds: elapsed.components.seconds * 1_000
                    + elapsed.components.attoseconds / 1_000_000_000_000_000,
                statusCode: status, error: error,
                responseBody: String(decoding: body.prefix(WebhookAttempt.keptResponseBytes), as: UTF8.self))
        }
        if !developmentHosts.contains(request.url.host) {
            if case let .failure(refusal) = await OutboundAddressPolicy.check(host: request.url.host, port: request.url.port,
                                                                             timeout: request.timeout) {
                return attempt(status: nil, error: "refused: \(refusal)")
            }
        }
        if Task.isCancelled { return nil }
        guard let origin = URL(string: request.url.origin) else { return attempt(status: nil, error: "not a URL: \(request.url)") }
        let transport = URLSessionTransport(baseURL: origin, session: session)
        do {
            let response = try await transport.send(
                TransportRequest(method: .post, path: request.url.pathAndQuery, headers: request.headers, body: request.body),
                timeout: request.timeout - (clock.now - start))  // what the name's resolution left of it
            switch response.status {
            case 200..<300: return attempt(status: response.status, error: nil, body: response.body)
            case 300..<400:
                return attempt(status: response.status, error: "redirects are not followed", body: response.body)
            default: return attempt(status: response.status, error: "HTTP \(response.status)", body: response.body)
            }
        } catch {
            if case .cancelled = error { return nil }
            return attempt(status: nil, error: error.description)
        }
    }
}

/// Answers every redirect with "do not follow": the 3xx itself becomes the response.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
