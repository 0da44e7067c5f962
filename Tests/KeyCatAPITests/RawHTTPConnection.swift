#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// A TCP connection to a loopback server that sends whatever bytes a test gives it, however
/// malformed or unfinished, and reads what comes back until the server closes: what no HTTP
/// client will do, for the tests of a server's limits on request heads and deadlines.
///
/// Nothing here blocks a thread: the socket is non-blocking, and waiting is polling it between
/// short sleeps.
final class RawHTTPConnection {
    let descriptor: Int32
    /// The bytes the server sent so far.
    private(set) var received: [UInt8] = []
    /// Whether the server closed its end (a read returned 0 or the connection was reset).
    private(set) var isClosedByServer = false

    /// Connects to `127.0.0.1:port`.
    init(port: Int) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(fd >= 0, "socket: errno \(errno)")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw ConnectionError(description: "connect to port \(port): errno \(error)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        descriptor = fd
    }

    deinit { close(descriptor) }

    struct ConnectionError: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `text`; false when the server had closed the connection (the send failed).
    @discardableResult
    func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            if sent < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                isClosedByServer = true
                return false
            }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    /// Reads what is there without waiting; notes the server's close.
    func poll() {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !isClosedByServer {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                isClosedByServer = true
            } else {
                return
            }
        }
    }

    /// What the server sent, as text.
    var text: String { String(decoding: received, as: UTF8.self) }

    /// Waits until the server has closed every one of `connections` (reading what each sent),
    /// polling every few milliseconds; fails the test when `bound` passes first, which only a
    /// server that never closes them should take.
    static func waitUntilClosed(_ connections: [RawHTTPConnection], within bound: Duration,
                                sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + bound
        while true {
            connections.forEach { $0.poll() }
            let open = connections.filter { !$0.isClosedByServer }.count
            if open == 0 { return }
            try #require(ContinuousClock.now < deadline, "\(open) of \(connections.count) connections still open after \(bound)",
                         sourceLocation: sourceLocation)
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
