import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization
@testable import KeyCatData

/// A sleeper that never sleeps: it records each wait and moves the test clock forward by it, so
/// deadlines are reached without real time passing.
final class ClockAdvancingSleeper: Sleeper {
    let clock: TestClock
    private let recorded = Mutex<[Duration]>([])

    init(clock: TestClock) { self.clock = clock }

    func sleep(for duration: Duration) async {
        recorded.withLock { $0.append(duration) }
        clock.advance(by: duration.seconds)
    }

    var waits: [Duration] { recorded.withLock { $0 } }
}

/// A simulator, a client wired to it in process, and everything a test inspects.
struct PaymentsHarness {
    let clock = TestClock()
    let simulator: PGSimulator
    let client: PGGatewayClient
    let sleeper: ClockAdvancingSleeper
    let log = CapturingLogSink()

    init(
        credentials: PGSimulator.Credentials = .test, clientSecret: String? = nil,
        configure: (inout PGClientConfiguration) -> Void = { _ in }
    ) throws {
        let clock = clock
        sleeper = ClockAdvancingSleeper(clock: clock)
        simulator = try PGSimulator(credentials: credentials, sleeper: sleeper, now: { clock.now() })
        var configuration = PGClientConfiguration(apiKey: credentials.key, apiSecret: clientSecret ?? credentials.secret)
        configure(&configuration)
        client = PGGatewayClient(
            transport: simulator.transport, configuration: configuration, clock: clock, sleeper: sleeper,
            logSink: log, jitter: { 0.5 })
    }

    /// Prepares `merchantUID` for `won` and pays it with the card that succeeds.
    @discardableResult
    func paidPayment(_ merchantUID: String, won: Int64 = 10_000) async throws -> GatewayPayment {
        try await client.prepare(merchantUID: merchantUID, amount: Money(won: won))
        let paid = try simulator.pay(merchantUID: merchantUID, cardNumber: PGTestCard.success.number)
        return try await client.payment(impUID: paid.impUID)
    }
}

/// Runs `body` and returns the KeyCatError it threw, or nil when it did not throw.
func keyCatError(_ body: () async throws(KeyCatError) -> Void) async -> KeyCatError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-payments-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
