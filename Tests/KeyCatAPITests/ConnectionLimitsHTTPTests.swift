import Foundation
import Testing

/// The example server `scripts/test` starts with short deadlines for these tests
/// (`KEYCAT_TEST_LIMITS_SERVER_URL`, its read and idle timeouts beside it), when it did.
enum LimitsServer {
    static var url: URL? {
        HTTPTestServer.environment["KEYCAT_TEST_LIMITS_SERVER_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    static func port() throws -> Int {
        try #require(url?.port, "CI=true, so scripts/test must start the limits server (KEYCAT_TEST_LIMITS_SERVER_URL)")
    }

    /// How long the server may take to close a connection it should close: its longest
    /// deadline, and a wide margin for a loaded machine. Only a server that never closes it
    /// takes this long.
    static var closeBound: Duration {
        let seconds = ["KEYCAT_TEST_LIMITS_READ_TIMEOUT_SECONDS", "KEYCAT_TEST_LIMITS_IDLE_TIMEOUT_SECONDS"]
            .compactMap { HTTPTestServer.environment[$0].flatMap(Int.init) }.max() ?? 60
        return .seconds(seconds + 60)
    }
}

/// A stranger cannot hold the example server's connections: a request head over 8 KiB is
/// refused at once, a request still unfinished at the read deadline (its head or its body) is cut
/// off, and a connection with nothing to do is closed at the idle deadline. The server runs with
/// a read timeout of a second and an idle timeout of two (`scripts/test`).
@Suite("The example server's limits on request heads and connections, over real sockets",
       .enabled(if: LimitsServer.url != nil || HTTPTestServer.isCI, "KEYCAT_TEST_LIMITS_SERVER_URL is not set (scripts/test sets it)"))
struct ConnectionLimitsHTTPTests {
    static let halfHead = "GET /products?limit=1 HTTP/1.1\r\nHost: keycat.test\r\nAccept: application/json\r\n"

    @Test("a hundred connections that each send half a request head and stall are closed unanswered, and the server still serves")
    func halfSentHeads() async throws {
        let port = try LimitsServer.port()
        var stalled: [RawHTTPConnection] = []
        for _ in 0..<100 {
            let connection = try RawHTTPConnection(port: port)
            #expect(connection.write(Self.halfHead))
            stalled.append(connection)
        }
        try await RawHTTPConnection.waitUntilClosed(stalled, within: LimitsServer.closeBound)
        #expect(stalled.allSatisfy { $0.received.isEmpty }, "a stalled head was answered: \(stalled.first { !$0.received.isEmpty }?.text ?? "")")
        let answer = try await HTTPClient(base: try #require(LimitsServer.url)).send("GET", "/products?limit=1")
        #expect(answer.status == 200, "\(answer)")
    }

    @Test("a head sent a line at a time, or a body a byte at a time, is cut off at the read deadline")
    func trickledRequests() async throws {
        let port = try LimitsServer.port()
        let head = try RawHTTPConnection(port: port)
        head.write("GET /products HTTP/1.1\r\n")
        let body = try RawHTTPConnection(port: port)
        body.write("POST /sessions HTTP/1.1\r\nHost: keycat.test\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{")
        // Each keeps sending, never finishing, until the server closes it (the bound stops a
        // server that never does).
        let deadline = ContinuousClock.now + LimitsServer.closeBound
        var line = 0
        while !(head.isClosedByServer && body.isClosedByServer) {
            try #require(ContinuousClock.now < deadline, "still open after \(LimitsServer.closeBound): head \(!head.isClosedByServer), body \(!body.isClosedByServer)")
            line += 1
            if !head.isClosedByServer { head.write("X-Line-\(line): more\r\n") }
            if !body.isClosedByServer { body.write(" ") }
            head.poll()
            body.poll()
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(head.received.isEmpty, "\(head.text)")
    }

    @Test("a connection that sends nothing, or nothing after its answer, is closed at the idle deadline")
    func idleConnections() async throws {
        let port = try LimitsServer.port()
        let silent = try RawHTTPConnection(port: port)
        let answered = try RawHTTPConnection(port: port)
        answered.write(Self.halfHead + "\r\n")
        try await RawHTTPConnection.waitUntilClosed([silent, answered], within: LimitsServer.closeBound)
        #expect(silent.received.isEmpty)
        #expect(answered.text.hasPrefix("HTTP/1.1 200"), "\(answered.text.prefix(200))")
    }

    @Test("a request head over 8 KiB, in one header or in the target, is answered 431 and closed; one under it is served",
          arguments: [
              ("GET /products HTTP/1.1\r\nHost: keycat.test\r\nX-Padding: \(String(repeating: "a", count: 9_000))\r\n\r\n", 431),
              ("GET /products?limit=1&\(String(repeating: "a", count: 9_000))=1 HTTP/1.1\r\nHost: keycat.test\r\n\r\n", 431),
              ("GET /products HTTP/1.1\r\nHost: keycat.test\r\n" + (0..<300).map { "X-Field-\($0): \(String(repeating: "b", count: 20))\r\n" }.joined() + "\r\n", 431),
              ("GET /products?limit=1 HTTP/1.1\r\nHost: keycat.test\r\nConnection: close\r\nX-Padding: \(String(repeating: "a", count: 7_000))\r\n\r\n", 200),
          ])
    func oversizedHead(_ request: String, _ status: Int) async throws {
        let connection = try RawHTTPConnection(port: try LimitsServer.port())
        connection.write(request)
        try await RawHTTPConnection.waitUntilClosed([connection], within: LimitsServer.closeBound)
        #expect(connection.text.hasPrefix("HTTP/1.1 \(status) "), "\(connection.text.prefix(300))")
        if status == 431 {
            #expect(connection.text.contains(#""code":"request_header_fields_too_large""#), "\(connection.text)")
            #expect(connection.text.lowercased().contains("connection: close"))
        }
    }
}
