import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// What one HTTP/1.1 connection may take from the server before it is refused or closed: the
/// size of a request head, the time a request may take to arrive, and the time a connection may
/// sit with nothing to do. Without them a client that opens many connections and sends half a
/// request head on each holds a descriptor and a task per connection for as long as it likes.
struct ConnectionLimits: Sendable {
    /// The request target and the header fields (names and values, as NIO's decoder counts
    /// them) may total this many bytes; past it the request is answered 431 and the connection
    /// closed.
    var headBytes = 8 << 10
    /// From a request's first byte to its last (head and body), at most this long.
    var readTimeout = Duration.seconds(30)
    /// With no request arriving and no answer owed, a connection is closed after this long.
    var idleTimeout = Duration.seconds(60)
}

extension HTTPServerBuilder {
    /// Hummingbird's HTTP/1.1 server within `limits`: its decoder caps the head, and two
    /// handlers per connection (``RequestDeadlineHandler`` and ``RequestBytesWatcher``) keep the
    /// deadlines and answer an oversized head.
    static func http1(limits: ConnectionLimits) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
                maxHeaderFieldSize: limits.headBytes, maxHeaderListSize: limits.headBytes)
            return LimitedHTTP1Channel(
                http1: HTTP1Channel(responder: responder, configuration: .init(httpDecoderConfiguration: decoder)), limits: limits)
        }
    }
}

/// Hummingbird's ``HTTP1Channel`` with the deadline handlers added to each connection's
/// pipeline: the watcher first, where bytes arrive, and the deadline handler just after the
/// HTTP/1 decoder, where requests and answers pass as parts.
struct LimitedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let limits: ConnectionLimits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let deadlines = RequestDeadlineHandler(limits: limits, logger: logger)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(deadlines, position: .after(decoder))
            try pipeline.addHandler(RequestBytesWatcher(deadlines: deadlines), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
