import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on loopback that forwards to a server and holds every chunk for a fixed delay in
/// each direction: a database "on another host" on a machine without `netem`. A request and its
/// answer each wait the delay once, so a round trip costs twice it.
///
/// Each connection gets two threads, one per direction, each reading a chunk, waiting, and
/// writing it on. The relay is for the bench alone: it never closes its listening socket early
/// and stops with the process.
final class LatencyRelay: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The loopback port to connect to instead of the server's.
    let port: Int
    private let listener: Int32
    private let target: sockaddr_in
    private let delay: useconds_t

    /// Listens on a free loopback port and relays to `host:port` (an IPv4 address or a name),
    /// delaying each chunk by `delay`.
    init(toHost host: String, port targetPort: Int, delay: Duration) throws {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(targetPort), &hints, &found) == 0, let info = found else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        target = info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
        self.delay = useconds_t(delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000)

        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 256) == 0 else { throw Failure(description: "cannot listen on loopback") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in accept() }
    }

    /// A relay to the Postgres server `url` names, and the URL to use instead (the same one,
    /// pointed at the relay).
    static func relaying(postgresURL url: String, delay: Duration) throws -> (relay: LatencyRelay, url: String) {
        guard var components = URLComponents(string: url), let host = components.host else {
            throw KeycatBench.UsageFailure(message: "a relayed --db needs a postgres:// URL naming its host")
        }
        let relay = try LatencyRelay(toHost: host, port: components.port ?? 5432, delay: delay)
        components.host = "127.0.0.1"
        components.port = relay.port
        return (relay, components.string ?? url)
    }

    private func accept() {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = target
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            for socket in [client, server] {
                var on: Int32 = 1
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            Thread.detachNewThread { [self] in pump(from: client, to: server) }
            Thread.detachNewThread { [self] in pump(from: server, to: client) }
        }
    }

    /// Copies `source` to `destination`, each chunk after the delay, until `source` ends; then
    /// ends `destination`'s sending side.
    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            usleep(delay)
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + sent, count - sent) }
                guard written > 0 else { break }
                sent += written
            }
            guard sent == count else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
        shutdown(source, Int32(SHUT_RD))
    }
}
