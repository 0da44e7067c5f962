#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KeyCatTestSupport

/// A loopback TCP socket that listens and never answers: connections complete (the kernel
/// accepts them into the backlog) but no byte ever comes back, so a client can only time out.
final class SilentServer {
    private let descriptor: Int32
    /// The port it listens on.
    let port: UInt16

    init?() {
        guard let listener = LoopbackListener() else { return nil }
        descriptor = listener.descriptor
        port = listener.port
    }

    deinit { close(descriptor) }
}
