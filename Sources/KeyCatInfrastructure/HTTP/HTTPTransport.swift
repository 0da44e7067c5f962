/// Sends one request and hands back the answer: the seam between a gateway client and the wire.
///
/// Two implementations ship: ``InProcessTransport`` (hands the request to an ``HTTPHandler`` such
/// as the PG simulator, no sockets) and ``URLSessionTransport`` (real HTTP). A transport never
/// retries; retrying is the client's decision, because only it knows whether a request is safe
/// to repeat.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, giving up after `timeout`.
    ///
    /// - Throws: ``HTTPTransportError``; an HTTP error status is *not* thrown, it is a response.
    func send(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse
}

/// Why a request got no HTTP answer. The cases matter to a payment client: after
/// ``timedOut`` the server may have acted; after ``connectionFailed`` it never saw the request.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request was sent (or may have been) but no answer came in time: the outcome is unknown.
    case timedOut
    /// No connection could be made (refused, host not found, TLS failure): nothing was sent.
    case connectionFailed(String)
    /// The task was cancelled before an answer came.
    case cancelled
    /// Anything else the transport reports, with its description.
    case other(String)

    public var description: String {
        switch self {
        case .timedOut: "the request timed out"
        case let .connectionFailed(reason): "could not connect: \(reason)"
        case .cancelled: "the request was cancelled"
        case let .other(reason): "transport failure: \(reason)"
        }
    }
}
