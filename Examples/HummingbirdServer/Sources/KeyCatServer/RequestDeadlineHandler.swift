import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Keeps one connection's deadlines, and answers a head over the size limit with 431.
///
/// A connection is always in one of three states, and two of them have a deadline:
/// - **reading**: a request has begun (its first bytes arrived, or its head) and its end has
///   not: closed when it is still unfinished ``ConnectionLimits/readTimeout`` after it began;
/// - **idle**: no request is arriving and every answer owed was written: closed after
///   ``ConnectionLimits/idleTimeout``;
/// - **answering**: the server owes an answer: no deadline, since the wait is the server's.
///
/// Bytes are seen by ``RequestBytesWatcher`` before they are decoded, so a head that never
/// completes (which the decoder never passes on) still starts the read deadline. Bytes of a next
/// request that come in the same read as the end of the one before are decoded without notice;
/// until more of them arrive, that connection is held to the idle deadline instead.
///
/// Everything runs on the connection's event loop: the handler is not `Sendable`, and its timer
/// is scheduled on that loop.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Deadline: String {
        case read, idle
    }

    private let limits: ConnectionLimits
    private let logger: Logger
    private var context: ChannelHandlerContext?
    /// A request has begun to arrive and its end has not been read.
    private var requestOpen = false
    /// Requests whose head was read and whose answer's end has not been written.
    private var answersOwed = 0
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(.idle) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil, !requestOpen { arm(.idle) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    /// Bytes arrived, not yet decoded (``RequestBytesWatcher``): a request has begun unless one
    /// already was.
    func bytesArrived() {
        beginRequest()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            beginRequest()
            answersOwed += 1
        case .body:
            break
        case .end:
            requestOpen = false
            // Answered already (a refusal sent before the body was read), or not yet.
            if answersOwed == 0 { arm(.idle) } else { disarm() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answersOwed = max(0, answersOwed - 1)
            if answersOwed == 0, !requestOpen { arm(.idle) }
        }
        context.write(data, promise: promise)
    }

    /// A head over ``ConnectionLimits/headBytes`` is answered 431 and the connection closed;
    /// while an earlier request's answer is still being written, the error goes on instead, to
    /// Hummingbird, which answers 400 after it and closes.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard case .headerOverflow? = error as? HTTPParserError, answersOwed == 0 else {
            context.fireErrorCaught(error)
            return
        }
        disarm()
        let body = context.channel.allocator.buffer(string: #"{"code":"request_header_fields_too_large","message":"the request target and header fields are over \#(limits.headBytes) bytes"}"#)
        let headers = HTTPHeaders([
            ("Content-Type", "application/json"), ("Content-Length", String(body.readableBytes)), ("Connection", "close"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .requestHeaderFieldsTooLarge, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func beginRequest() {
        guard !requestOpen else { return }
        requestOpen = true
        arm(.read)
    }

    private func arm(_ deadline: Deadline) {
        disarm()
        guard let context else { return }
        let delay = deadline == .read ? limits.readTimeout : limits.idleTimeout
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
            timer = nil
            logger.debug("closing a connection past its \(deadline.rawValue) deadline", metadata: [
                "peer": "\(context.channel.remoteAddress?.description ?? "?")",
            ])
            context.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}

/// The first handler of a connection's pipeline: tells ``RequestDeadlineHandler`` that bytes
/// arrived, before the HTTP/1 decoder sees them, and passes them on untouched.
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadlines: RequestDeadlineHandler

    init(deadlines: RequestDeadlineHandler) {
        self.deadlines = deadlines
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.bytesArrived()
        context.fireChannelRead(data)
    }
}
