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
    package let takesRealMoney: Bool

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
        takesRealMoney = configuration.takesRealMoney
        interceptor = PGInterceptor(
            transport: transport,
            tokens: PGTokenProvider(transport: transport, configuration: configuration, clock: clock, monitor: monitor),
            configuration: configuration, clock: clock, sleeper: sleeper, jitter: jitter, monitor: monitor)
    }

    /// The token provider, so tests can count token fetches.
    package var tokens: PGTokenProvider { interceptor.tokens }

    /// Registers `amount` for `merchantUID`. v1 refuses a second registration of one merchant UID
    /// ("이미 사전등록된 merchant_uid"), which is what a retried prepare whose first answer was lost
    /// meets: the registration is then read back, and the same amount is success.
    package func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) {
        let response = try await interceptor.send(.prepare(merchantUID: merchantUID, amount: amount))
        let envelope = try PGResponseDecoder.envelope(PGPreparePayload.self, from: response)
        let prepared: PGPreparePayload
        if envelope.code != 0, envelope.message?.contains(PGErrorMapper.alreadyPreparedKeyword) == true {
            let lookup = try await interceptor.send(.prepared(merchantUID: merchantUID))
            prepared = try PGResponseDecoder.payload(PGPreparePayload.self, from: lookup)
            guard prepared.amount == amount.won else {
                throw KeyCatError(.gatewayInvalidRequest,
                                  "the payment gateway already holds \(prepared.amount) won for \(merchantUID), not \(amount.won)",
                                  context: ["pg_status": "200", "pg_code": String(envelope.code)])
            }
        } else {
            prepared = try PGResponseDecoder.payload(of: envelope, status: response.status)
        }
        guard prepared.merchantUID == merchantUID, prepared.amount == amount.won else {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status,
                                      message: "prepare answered for another merchant UID or amount")
        }
    }

    package func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment {
        try await payment(.payment(impUID: impUID))
    }

    package func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment {
        try await payment(.findPayment(merchantUID: merchantUID))
    }

    /// Cancels at the PG with the caller's `checksum`. A cancel is retried after a 5xx or a lost
    /// answer (v1 has no idempotency keys; the checksum makes a second application impossible).
    /// When a retry after a send that may have acted — or a cancel carrying an idempotency key,
    /// which says it may repeat an earlier call's (the same key, the same checksum) — is refused
    /// because the balance moved (checksum mismatch, already cancelled in full, or more than the
    /// balance), an earlier send may be what moved it: the payment
    /// is re-read, and a balance of exactly `checksum − amount` means the cancel landed, so it is
    /// returned as done. KeyCat never has two refunds of one order in flight, so nothing else
    /// moves the balance by exactly that much meanwhile.
    package func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment {
        guard cancellation.amount.map({ $0 > .zero }) ?? true else {
            throw KeyCatError.validation("amount", "a cancel amount must be positive (or absent for the whole balance)")
        }
        let response: TransportResponse, repeated: Bool
        do {
            (response, repeated) = try await interceptor.sendNotingRepeats(.cancel(cancellation))
        } catch where error.context[GatewayCancellation.mayHaveActedContext] != nil && !Self.unanswered.contains(error.code) {
            // A repeat refused outright (a 400, a 403, a second 401) after a send whose answer was
            // lost: only the payment's balance says whether that send landed. (When no send was
            // answered at all, the refund stays pending as ever, for a retry or reconciliation.)
            guard let current = try? await payment(cancellation.target) else { throw error }
            let balance = Self.balance(of: current)
            if balance == Self.balance(after: cancellation) { return current }
            // Untouched: nothing was cancelled, and the refusal is the whole answer.
            if balance == cancellation.checksum.won { throw KeyCatError(error.code, error.message, context: error.context
                .filter { $0.key != GatewayCancellation.mayHaveActedContext }) }
            throw error
        }
        do throws(KeyCatError) {
            return try decodePayment(response)
        } catch {
            let balanceMoved: Set<KeyCatError.Code> = [
                .cancellableAmountInconsistent, .paymentAlreadyCancelled, .cancelAmountExceedsCancellable,
            ]
            guard repeated || cancellation.idempotencyKey != nil, balanceMoved.contains(error.code) else {
                throw error
            }
            let current = try await payment(cancellation.target)
            guard Self.balance(of: current) == Self.balance(after: cancellation) else { throw error }
            return current
        }
    }

    /// The errors of a call no send of which was answered: its outcome is unknown whatever came
    /// before.
    private static let unanswered: Set<KeyCatError.Code> = [.gatewayTimeout, .gatewayUnavailable, .rateLimited, .invalidGatewayResponse]

    /// What `payment` holds still, by its own figures.
    private static func balance(of payment: GatewayPayment) -> Int64 { payment.amount.won - payment.cancelledAmount.won }

    /// What a payment holds once `cancellation` has landed on the balance it was sent against.
    private static func balance(after cancellation: GatewayCancellation) -> Int64 {
        cancellation.checksum.won - (cancellation.amount ?? cancellation.checksum).won
    }

    /// The payment a cancel names.
    private func payment(_ target: GatewayCancellation.Target) async throws(KeyCatError) -> GatewayPayment {
        switch target {
        case let .impUID(impUID): try await payment(impUID: impUID)
        case let .merchantUID(merchantUID): try await payment(merchantUID: merchantUID)
        }
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
                throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status,
                                          message: "unknown payment status \(item.status)")
            }
            payments.append(payment)
        }
        return GatewayPaymentPage(total: payload.total, previous: payload.previous.flatMap { $0 > 0 ? $0 : nil },
                                  next: payload.next.flatMap { $0 > 0 ? $0 : nil }, payments: payments)
    }

    private func payment(_ route: PGRoute) async throws(KeyCatError) -> GatewayPayment {
        try decodePayment(try await interceptor.send(route))
    }

    private func decodePayment(_ response: TransportResponse) throws(KeyCatError) -> GatewayPayment {
        let payload = try PGResponseDecoder.payload(PGPaymentPayload.self, from: response)
        guard let payment = payload.domain else {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status,
                                      message: "unknown payment status \(payload.status)")
        }
        return payment
    }
}
