import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization
import Testing
@testable import KeyCatData

/// Passes requests on to the simulator and remembers the tokens they carried.
final class TokenRecordingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let seen = Mutex<Set<String>>([])

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func send(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        if let authorization = request.header("Authorization") {
            seen.withLock { _ = $0.insert(String(authorization.dropFirst("Bearer ".count))) }
        }
        return try await inner.send(request, timeout: timeout)
    }

    var tokens: Set<String> { seen.withLock { $0 } }
}

@Suite("PG event monitor")
struct PGEventMonitorTests {
    @Test("each exchange is logged with method, path, status, attempt and duration")
    func lineShape() async throws {
        let harness = try PaymentsHarness()
        _ = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_404") }
        let line = try #require(harness.log.lines.first { $0.contains("path=/payments/imp_404") })
        #expect(line.contains("method=GET"))
        #expect(line.contains("status=404"))
        #expect(line.contains("attempt=1"))
        #expect(line.contains("duration_ms="))
    }

    @Test("no log line contains a token, the API secret or a card number")
    func redaction() async throws {
        let clock = TestClock()
        let sleeper = ClockAdvancingSleeper(clock: clock)
        let simulator = try PGSimulator(sleeper: sleeper, now: { clock.now() })
        let transport = TokenRecordingTransport(simulator.transport)
        let log = CapturingLogSink()
        let secret = PGSimulator.Credentials.test.secret
        let client = PGGatewayClient(
            transport: transport, configuration: PGClientConfiguration(apiKey: PGSimulator.Credentials.test.key, apiSecret: secret),
            clock: clock, sleeper: sleeper, logSink: log, jitter: { 0.5 })
        let card = PGTestCard.success.number

        try await client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: card)
        simulator.expireTokens()  // forces a second token, and a 401 line
        simulator.injectFault(.error(.serviceUnavailable), on: .payment)
        _ = try await client.payment(impUID: paid.impUID)
        _ = try await client.cancel(.init(
            target: .impUID(paid.impUID), amount: Money(won: 1_000), checksum: Money(won: 10_000),
            reason: "buyer typed 4242 4242 4242 4242 into the note", idempotencyKey: "refund-secret-key"))

        let lines = log.lines
        #expect(lines.count >= 6)
        #expect(transport.tokens.count == 2)
        let forbidden = Array(transport.tokens) + [secret, card, "4242 4242 4242 4242", "refund-secret-key"]
        for line in lines {
            for secretText in forbidden {
                #expect(!line.contains(secretText), "leaked in: \(line)")
            }
        }
        #expect(lines.contains { $0.contains("imp_secret") && $0.contains(Redactor.mask) })
    }
}
