import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Safe by default (docs/webhooks.md): where a delivery may go, checked at every attempt, and
/// redirects never followed.
@Suite("Webhook SSRF guard")
struct WebhookSSRFTests {
    static let addresses: [(String, String?)] = [
        ("10.1.2.3", "a private address"), ("172.16.0.1", "a private address"), ("172.31.255.255", "a private address"),
        ("172.32.0.1", nil), ("192.168.1.1", "a private address"), ("100.64.0.1", "a private (shared) address"),
        ("127.0.0.1", "a loopback address"), ("127.8.8.8", "a loopback address"), ("169.254.169.254", "a link-local address"),
        ("0.0.0.0", "an unspecified address"), ("224.0.0.1", "a multicast address"), ("255.255.255.255", "a reserved address"),
        ("8.8.8.8", nil), ("::1", "a loopback address"), ("::", "an unspecified address"), ("fe80::1", "a link-local address"),
        ("fc00::1", "a private address"), ("fd12:3456::1", "a private address"), ("ff02::1", "a multicast address"),
        ("::ffff:127.0.0.1", "a loopback address"), ("::ffff:10.0.0.1", "a private address"), ("2001:4860:4860::8888", nil),
        // IPv4 carried in IPv6, special-purpose and documentation ranges.
        ("::127.0.0.1", "an IPv4-compatible address"), ("64:ff9b::7f00:1", "a loopback address"), ("64:ff9b::808:808", nil),
        ("64:ff9b:1::1", "a local NAT64 address"), ("2002:7f00:1::", "a loopback address"), ("2002:a9fe:a9fe::1", "a link-local address"),
        ("2002:808:808::1", nil), ("2001:0:4136:e378::1", "a Teredo address"), ("2001:db8::1", "a documentation address"),
        ("fec0::1", "a site-local address"), ("198.18.0.1", "a benchmarking address"), ("198.19.255.255", "a benchmarking address"),
        ("198.20.0.1", nil), ("192.0.0.8", "a special-purpose address"), ("192.0.2.1", "a documentation address"),
        ("198.51.100.7", "a documentation address"), ("203.0.113.9", "a documentation address"), ("192.0.3.1", nil),
    ]

    @Test("private, loopback, link-local, unspecified, multicast and reserved addresses are refused; public ones pass",
          arguments: addresses)
    func classifies(_ text: String, _ reason: String?) throws {
        var bytes = [UInt8](repeating: 0, count: text.contains(":") ? 16 : 4)
        let parsed = bytes.withUnsafeMutableBytes { inet_pton(text.contains(":") ? AF_INET6 : AF_INET, text, $0.baseAddress) }
        try #require(parsed == 1)
        #expect(OutboundAddressPolicy.refusalReason(for: bytes) == reason)
    }

    @Test("a resolver slower than the request's timeout refuses the host when the timeout passes; a quick one answers")
    func resolverBoundedByTimeout() async {
        let slow = await OutboundAddressPolicy.resolving("slow.example.com", within: .milliseconds(100)) {
            Thread.sleep(forTimeInterval: 3)
            return .success(["203.0.113.9"])
        }
        guard case let .failure(refusal) = slow else { Issue.record("a slow resolver answered: \(slow)"); return }
        // Only the timeout gives this answer: the resolver's own would have been its address.
        #expect("\(refusal)".contains("slow.example.com did not resolve within"))
        let quick = await OutboundAddressPolicy.resolving("quick.example.com", within: .seconds(10)) { .success(["93.184.216.34"]) }
        guard case .success(["93.184.216.34"]) = quick else { Issue.record("a quick resolver's answer was lost: \(quick)"); return }
    }

    @Test("a delivery to a loopback or private host is refused before any connection, unless the host is a development host")
    func refusesAtSendTime() async throws {
        let sender = HTTPWebhookSender(developmentHosts: [])
        for url in ["https://127.0.0.1:1/hook", "https://localhost:1/hook", "https://[::1]:1/", "https://10.0.0.1/"] {
            let request = WebhookRequest(url: WebhookURL(stored: url), headers: [:], body: Data("{}".utf8), timeout: .seconds(2),
                                         startedAt: Date())
            let attempt = try #require(await sender.send(request))
            #expect(attempt.statusCode == nil)
            #expect(attempt.error?.hasPrefix("refused: ") == true, "\(url): \(attempt.error ?? "")")
            #expect(!attempt.succeeded)
        }
    }

    @Test("over real HTTP a 2xx delivers, its body kept to 4 KB, and a 3xx is a failed attempt whose redirect is not followed")
    func redirectsAreNotFollowed() async throws {
        let server = try #require(OneShotServer())
        defer { server.close() }
        let sender = HTTPWebhookSender(developmentHosts: ["127.0.0.1"])
        let url = WebhookURL(stored: "http://127.0.0.1:\(server.port)/hook?x=1")

        server.answer("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n" + String(repeating: "a", count: 5_000))
        let delivered = try #require(await sender.send(WebhookRequest(
            url: url, headers: ["webhook-id": "evt_1", "content-type": "application/json"], body: Data("{\"a\":1}".utf8),
            timeout: .seconds(10), startedAt: Date())))
        #expect(delivered.succeeded)
        #expect(delivered.responseBody.utf8.count == WebhookAttempt.keptResponseBytes)
        let request = server.requests.first ?? ""
        #expect(request.hasPrefix("POST /hook?x=1 HTTP/1.1"))
        #expect(request.lowercased().contains("webhook-id: evt_1"))
        #expect(request.hasSuffix("{\"a\":1}"))

        server.answer("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(server.port)/elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        server.answer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        let redirected = try #require(await sender.send(WebhookRequest(
            url: url, headers: [:], body: Data("{}".utf8), timeout: .seconds(10), startedAt: Date())))
        // Foundation on Linux sometimes ends a refused redirect as a timeout rather than with the
        // 302 itself; either way the attempt failed and the redirect was not followed.
        #expect(redirected.statusCode == 302 || redirected.statusCode == nil)
        #expect(redirected.statusCode == nil || redirected.error == "redirects are not followed")
        #expect(!redirected.succeeded)
        #expect(server.requests.count == 2)  // nobody asked for /elsewhere
    }
}

/// A loopback HTTP server that answers each connection with the next canned answer and keeps
/// each request it read (headers and body) as text.
final class OneShotServer: Sendable {
    private let listener: LoopbackListener
    private let state = Mutex<(answers: [String], requests: [String])>(([], []))

    var port: UInt16 { listener.port }
    var requests: [String] { state.withLock { $0.requests } }

    init?() {
        guard let listener = LoopbackListener() else { return nil }
        self.listener = listener
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func answer(_ text: String) { state.withLock { $0.answers.append(text) } }

    func close() { shutdown(listener.descriptor, Int32(SHUT_RDWR)); Glibc.close(listener.descriptor) }

    private func serve() {
        while true {
            let connection = accept(listener.descriptor, nil, nil)
            guard connection >= 0 else { return }
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(connection, &buffer, buffer.count)
                if count <= 0 { break }
                received += buffer[0..<count]
                let text = String(decoding: received, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n") {
                    let head = text[..<end.lowerBound].lowercased()
                    let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                    if text[end.upperBound...].utf8.count >= length { break }
                }
            }
            let answer = state.withLock { state -> String in
                state.requests.append(String(decoding: received, as: UTF8.self))
                return state.answers.isEmpty ? "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n" : state.answers.removeFirst()
            }
            _ = Array(answer.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            // Half-close and drain, so the answer is never cut short by a reset.
            shutdown(connection, Int32(SHUT_WR))
            while read(connection, &buffer, buffer.count) > 0 {}
            Glibc.close(connection)
        }
    }
}
