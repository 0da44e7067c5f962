import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The ``PaymentGateway`` over HTTP: a PortOne-v1-shaped PG, real or simulated.
///
/// Built like a mobile app's network layer: ``PGRoute`` says what to send, ``PGInterceptor``
/// adds the token and retries, ``PGEventMonitor`` logs each exchange with secrets masked, and
/// ``PGErrorMapper`` turns every PG answer into a ``KeyCatError`` (architecture §5).
package struct PGGatewayClient: PaymentGateway {
    private let interceptor: PGInterceptor

    /// - Parameters:
    ///   - transport: ``URLSessionTransport`` for a real PG, the simulator's in-process transport
    ///     in tests.
    ///   - clock: measures the deadline and durations.
    ///   - sleeper: waits out backoffs and `Retry-After`; tests inject one that does not sleep.
    ///   - logSink: where the event monitor writes.
    ///   - jitter: a random number in 0...1 for backoff jitter.
    package init(
        transport: any HTTPTransport, configuration: PGClientConfiguration, clock: any WallClock = SystemClock(),
        sleeper: any Sleeper = TaskSleeper(), logSink: any LogSink = StandardErrorLogSink(),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        let monitor = PGEventMonitor(sink: logSink)
        interceptor = PGInterceptor(
            transport: transport,
            tokens: PGTokenProvider(transport: transport, configuration: configuration, clock: clock, monitor: monitor),
            configuration: configuration, clock: clock, sleeper: sleeper, jitter: jitter, monitor: monitor)
    }

    /// The token provider, so tests can count token fetches.
    package var tokens: PGTokenProvider { interceptor.tokens }

    package func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) {
        let response = try await interceptor.send(.prepare(merchantUID: merchantUID, amount: amount))
        let prepared = try PGResponseDecoder.payload(PGPreparePayload.self, from: response)
        guard prepared.merchantUID == merchantUID, prepared.amount == amount.won else {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status, type: nil,
                                      message: "prepare answered for another merchant UID or amount")
        }
    }

    package func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment {
        try await payment(.payment(impUID: impUID))
    }

    package func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment {
        try await payment(.findPayment(merchantUID: merchantUID))
    }

    package func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment {
        guard cancellation.amount.map({ $0 > .zero }) ?? true else {
            throw KeyCatError.validation("amount", "a cancel amount must be positive (or absent for the whole balance)")
        }
        return try await payment(.cancel(cancellation))
    }

    package func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage {
        guard query.page >= 1, (1...100).contains(query.limit), query.from <= query.to else {
            throw KeyCatError.validation("query", "a payment listing needs page ≥ 1, limit 1–100 and from ≤ to")
        }
        let response = try await interceptor.send(.paymentsByStatus(query))
        let payload = try PGResponseDecoder.payload(PGPaymentListPayload.self, from: response)
        var payments: [GatewayPayment] = []
        for item in payload.list {
            guard let payment = item.domain else {
                throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status, type: nil,
                                          message: "unknown payment status \(item.status)")
            }
            payments.append(payment)
        }
        return GatewayPaymentPage(total: payload.total, previous: payload.previous.flatMap { $0 > 0 ? $0 : nil },
                                  next: payload.next.flatMap { $0 > 0 ? $0 : nil }, payments: payments)
    }

    private func payment(_ route: PGRoute) async throws(KeyCatError) -> GatewayPayment {
        let response = try await interceptor.send(route)
        let payload = try PGResponseDecoder.payload(PGPaymentPayload.self, from: response)
        guard let payment = payload.domain else {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status, type: nil,
                                      message: "unknown payment status \(payload.status)")
        }
        return payment
    }
}
