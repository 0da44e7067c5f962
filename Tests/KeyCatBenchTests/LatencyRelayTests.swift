import Foundation
import Glibc
import KeyCatTestSupport
import Testing
@testable import keycat_bench

/// The bench's stand-in for a network: bytes pass whole and in order, each way waits the delay,
/// and an end on either side reaches the other.
@Suite(.timeLimit(.minutes(3)))
struct LatencyRelayTests {
    @Test("megabytes each way come back whole and in order, and the end of the stream comes through")
    func largeTransfers() async throws {
        let echo = try EchoServer()
        let relay = try LatencyRelay(toHost: "127.0.0.1", port: echo.port, delay: .milliseconds(1))
        // More than loopback buffers hold, so the relay must wait for its destination to drain.
        let sent = (0..<(6 * 1_024 * 1_024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let received = try await onThread {
            let socket = try connectedSocket(port: relay.port)
            defer { close(socket) }
            Thread.detachNewThread {
                sendAll(sent, to: socket)
                shutdown(socket, Int32(SHUT_WR))
            }
            return readExactly(.max, from: socket)
        }
        #expect(received.count == sent.count)
        #expect(received == sent)
    }

    @Test("a request and its answer each wait the delay")
    func delaysEachWay() async throws {
        let echo = try EchoServer()
        let relay = try LatencyRelay(toHost: "127.0.0.1", port: echo.port, delay: .milliseconds(25))
        let elapsed = try await onThread {
            let socket = try connectedSocket(port: relay.port)
            defer { close(socket) }
            // The first exchange opens the connection to the server; time the second.
            sendAll([1], to: socket)
            _ = readExactly(1, from: socket)
            let clock = ContinuousClock()
            let start = clock.now
            sendAll([2], to: socket)
            let answer = readExactly(1, from: socket)
            return (clock.now - start, answer)
        }
        #expect(elapsed.1 == [2])
        #expect(elapsed.0 >= .milliseconds(50), "a round trip took \(elapsed.0)")
    }

    @Test("many connections at once each get their own bytes back")
    func connectionsSideBySide() async throws {
        let echo = try EchoServer()
        let relay = try LatencyRelay(toHost: "127.0.0.1", port: echo.port, delay: .milliseconds(2))
        let answers = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for number in 0..<32 {
                group.addTask {
                    try await onThread {
                        let socket = try connectedSocket(port: relay.port)
                        defer { close(socket) }
                        var answers: [UInt8] = []
                        for exchange in 0..<5 {
                            let message = Array("connection \(number), exchange \(exchange);".utf8)
                            sendAll(message, to: socket)
                            answers += readExactly(message.count, from: socket)
                        }
                        return (number, answers)
                    }
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 32)
        for (number, answer) in answers {
            let expected = (0..<5).map { "connection \(number), exchange \($0);" }.joined()
            #expect(String(decoding: answer, as: UTF8.self) == expected)
        }
    }
}

private struct SocketFailure: Error {}

private func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}

private func connectedSocket(port: Int) throws -> Int32 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(socket)
        throw SocketFailure()
    }
    return socket
}

private func sendAll(_ bytes: [UInt8], to socket: Int32) {
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { return }
        sent += count
    }
}

/// Reads until `wanted` bytes came or the stream ended (`.max`: to its end).
private func readExactly(_ wanted: Int, from socket: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
    while bytes.count < wanted {
        let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, min($0.count, wanted - bytes.count)) }
        guard count > 0 else { break }
        bytes += buffer[..<count]
    }
    return bytes
}

/// A loopback server that sends back whatever it reads, a thread per connection, and closes a
/// connection when its client ends its side. It stops with the test process.
private final class EchoServer: Sendable {
    let port: Int

    init() throws {
        guard let listener = LoopbackListener(backlog: 64) else { throw SocketFailure() }
        port = Int(listener.port)
        Thread.detachNewThread {
            while true {
                let connection = accept(listener.descriptor, nil, nil)
                guard connection >= 0 else { continue }
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
                        guard count > 0 else { break }
                        sendAll(Array(buffer[..<count]), to: connection)
                    }
                    close(connection)
                }
            }
        }
    }
}
