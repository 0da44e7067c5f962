/// Something that answers HTTP requests inside the process, like the PG simulator.
///
/// A handler sees the timeout the caller gave, so it can simulate latency and answers lost
/// after the work was done (by throwing ``HTTPTransportError/timedOut`` after applying it).
public protocol HTTPHandler: Sendable {
    func handle(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse
}

/// A transport that hands every request straight to an ``HTTPHandler``: no sockets, no encoding
/// beyond the request's own body, so tests and benchmarks measure the client, not the network.
public struct InProcessTransport: HTTPTransport {
    private let handler: any HTTPHandler

    public init(_ handler: any HTTPHandler) { self.handler = handler }

    public func send(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        if Task.isCancelled { throw .cancelled }
        return try await handler.handle(request, timeout: timeout)
    }
}
