import Foundation
import KeyCatInfrastructure
#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on loopback that forwards to a server and delivers every chunk a fixed delay after
/// it arrived, in each direction: a database "on another host" on a machine without `netem`. A
/// request and its answer each wait the delay once, so a round trip costs twice it.
///
/// Chunks are in flight together, as on a link: each direction has a reader that stamps each
/// chunk with its arrival and goes on reading, and a writer that sends each chunk when its delay
/// is up. (Holding each chunk in turn would add the delay once per chunk of a reply that arrives
/// in several, charging a pipelined exchange for its size.) The relay is for the bench alone: it
/// never closes its listening socket early and stops with the process.
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
        Thread.detachNewThread { [self] in
            Thread.nameCurrent("keycat-relay")
            accept()
        }
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
            Thread.detachNewThread { [self] in pump(from: client, to: server, named: "relay-to-db") }
            Thread.detachNewThread { [self] in pump(from: server, to: client, named: "relay-from-db") }
        }
    }

    /// Copies `source` to `destination`, each chunk the delay after it arrived, until `source`
    /// ends; then ends `destination`'s sending side. Its threads are named `name` (so a profile
    /// tells the relay's cost from the work it relays for).
    private func pump(from source: Int32, to destination: Int32, named name: String) {
        Thread.nameCurrent(name)
        let inFlight = ChunksInFlight()
        Thread.detachNewThread { [self] in
            Thread.nameCurrent(name)
            deliver(inFlight, to: destination, closing: source)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            inFlight.append(Array(buffer[..<count]), due: Self.monotonicMicroseconds() + UInt64(delay))
        }
        inFlight.finish()
    }

    /// Writes each chunk of `inFlight` to `destination` when it is due.
    private func deliver(_ inFlight: ChunksInFlight, to destination: Int32, closing source: Int32) {
        while let (chunk, due) = inFlight.next() {
            let now = Self.monotonicMicroseconds()
            if due > now { usleep(useconds_t(due - now)) }
            var sent = 0
            while sent < chunk.count {
                let written = chunk.withUnsafeBytes { write(destination, $0.baseAddress! + sent, chunk.count - sent) }
                guard written > 0 else { break }
                sent += written
            }
            guard sent == chunk.count else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
        shutdown(source, Int32(SHUT_RD))
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}

/// One direction's chunks between arriving and being written, in order, each with when it is due.
private final class ChunksInFlight: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [(bytes: [UInt8], due: UInt64)] = []
    private var taken = 0
    private var finished = false

    func append(_ bytes: [UInt8], due: UInt64) {
        condition.lock()
        chunks.append((bytes, due))
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// The oldest chunk not yet taken, waiting for one; nil once the source ended and every chunk
    /// was taken.
    func next() -> ([UInt8], UInt64)? {
        condition.lock()
        defer { condition.unlock() }
        while taken == chunks.count && !finished { condition.wait() }
        guard taken < chunks.count else { return nil }
        let chunk = chunks[taken]
        taken += 1
        if taken == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            taken = 0
        }
        return (chunk.bytes, chunk.due)
    }
}
