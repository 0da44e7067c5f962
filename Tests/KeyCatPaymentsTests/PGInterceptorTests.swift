import Foundation
import KeyCatDomain
import KeyCatPGSimulator
import Testing
@testable import KeyCatData

@Suite("PG client token handling and retries")
struct PGInterceptorTests {
    @Test("an expired token is refreshed once and the caller never notices")
    func tokenExpiryMidRun() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.expireTokens()
        let again = try await harness.client.payment(impUID: paid.impUID)
        #expect(again == paid)
        #expect(harness.simulator.requestCount(.getToken) == 2)
        #expect(harness.simulator.requestCount(.payment) == 3)  // first read, the 401, the retry
    }

    @Test("a token about to expire is replaced before use, without a 401")
    func tokenNearExpiry() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.clock.advance(by: 30 * 60 - 30)  // 30 s before the simulator's 30-minute expiry
        #expect(try await harness.client.payment(impUID: paid.impUID) == paid)
        #expect(harness.simulator.requestCount(.getToken) == 2)
        #expect(harness.simulator.requestCount(.payment) == 2)
    }

    @Test("a PG that keeps answering 401 ends in gatewayAuthenticationFailed after exactly one refresh")
    func persistentUnauthorized() async throws {
        let harness = try PaymentsHarness()
        harness.simulator.injectFault(.error(.unauthorized), on: .payment, times: 100)
        let error = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        #expect(error?.code == .gatewayAuthenticationFailed)
        #expect(harness.simulator.requestCount(.getToken) == 2)
        #expect(harness.simulator.requestCount(.payment) == 2)
        #expect(harness.client.tokens.fetchCount == 2)
    }

    @Test("5xx and timeouts on a read are retried with exponential backoff until the attempt bound",
          arguments: [PGFault.error(.serviceUnavailable), .error(.internalServerError), .lostAnswer])
    func retriesStopAtBound(_ fault: PGFault) async throws {
        let harness = try PaymentsHarness { $0.maxAttempts = 4 }
        harness.simulator.injectFault(fault, on: .payment, times: 100)
        let error = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        #expect(error?.code == (fault == .lostAnswer ? .gatewayTimeout : .gatewayUnavailable))
        #expect(harness.simulator.requestCount(.payment) == 4)
        // 200 ms doubling, with equal jitter at 0.5: 150, 300, 600 ms.
        #expect(harness.sleeper.waits == [.milliseconds(150), .milliseconds(300), .milliseconds(600)])
    }

    @Test("retries stop before a wait would pass the deadline")
    func retriesStopAtDeadline() async throws {
        let harness = try PaymentsHarness {
            $0.maxAttempts = 100
            $0.deadline = .seconds(2)
            $0.initialBackoff = .seconds(1)
        }
        let start = harness.clock.now()
        harness.simulator.injectFault(.error(.internalServerError), on: .payment, times: 100)
        let error = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        #expect(error?.code == .gatewayUnavailable)
        #expect(harness.simulator.requestCount(.payment) == 2)  // waits 0.75 s, then 1.5 s would end at 2.25 s
        #expect(harness.clock.now().timeIntervalSince(start) <= 2)
    }

    @Test("a recovered 5xx read succeeds")
    func recovers() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(.error(.pgProvider), on: .payment, times: 2)
        #expect(try await harness.client.payment(impUID: paid.impUID) == paid)
    }

    @Test("a 429 waits the Retry-After seconds, then retries")
    func rateLimitWaits() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(.rateLimited(retryAfterSeconds: 3), on: .findPayment)
        #expect(try await harness.client.payment(merchantUID: "order-1") == paid)
        #expect(harness.sleeper.waits == [.seconds(3)])
    }

    @Test("a cancel is retried after a 5xx or a lost answer and applied once: its checksum guards the retry",
          arguments: [PGFault.error(.serviceUnavailable), .error(.pgProvider), .lostAnswer])
    func cancelRetriedUnderChecksum(_ fault: PGFault) async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(fault, on: .cancel)
        let cancelled = try await harness.client.cancel(.init(
            target: .impUID(paid.impUID), amount: Money(won: 4_000), checksum: paid.amount, reason: "r"))
        #expect(cancelled.cancelledAmount == Money(won: 4_000))
        #expect(harness.simulator.requestCount(.cancel) == 2)
        #expect(harness.simulator.cancellations(impUID: paid.impUID).count == 1)
        #expect(harness.sleeper.waits.count == 1)
    }

    @Test("a lost full cancel's retry, refused as already cancelled, reads back as done")
    func lostFullCancel() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(.lostAnswer, on: .cancel)
        let cancelled = try await harness.client.cancel(.init(target: .impUID(paid.impUID), checksum: paid.amount, reason: "r"))
        #expect(cancelled.status == .cancelled)
        #expect(harness.simulator.cancellations(impUID: paid.impUID).count == 1)
    }

    @Test("a retry refused for a checksum that was stale from the start is not taken for success")
    func staleChecksumAfterRetry() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(.error(.serviceUnavailable), on: .cancel)
        let error = await keyCatError { () async throws(KeyCatError) in
            _ = try await harness.client.cancel(.init(
                target: .impUID(paid.impUID), amount: Money(won: 1_000), checksum: Money(won: 9_000), reason: "stale"))
        }
        #expect(error?.code == .cancellableAmountInconsistent)
        #expect(harness.simulator.cancellations(impUID: paid.impUID).isEmpty)
    }

    @Test("a cancel lost, then refused with a 503, then refused for its checksum is applied once")
    func cancelRetriedTwice() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(.lostAnswer, on: .cancel)
        harness.simulator.injectFault(.error(.serviceUnavailable), on: .cancel)
        let cancelled = try await harness.client.cancel(.init(
            target: .impUID(paid.impUID), amount: Money(won: 4_000), checksum: paid.amount, reason: "r",
            idempotencyKey: "refund-order-1-1"))
        #expect(cancelled.cancelledAmount == Money(won: 4_000))
        #expect(harness.simulator.requestCount(.cancel) == 3)
        #expect(harness.simulator.cancellations(impUID: paid.impUID).count == 1)
    }

    @Test("a lost answer is gatewayTimeout (outcome unknown) and re-reading shows what the PG did")
    func lostAnswerThenReread() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.injectFault(.lostAnswer, on: .cancel, times: 10)
        let error = await keyCatError { () async throws(KeyCatError) in
            _ = try await harness.client.cancel(.init(target: .impUID(paid.impUID), checksum: paid.amount, reason: "buyer"))
        }
        #expect(error?.code == .gatewayTimeout)
        #expect(error?.message.contains("outcome is unknown") == true)
        #expect(error?.context["outcome"] == "unknown")
        let reread = try await harness.client.payment(impUID: paid.impUID)
        #expect(reread.status == .cancelled)
        #expect(reread.cancelledAmount == paid.amount)
    }

    @Test("a lost prepare is retried; v1 refuses the second registration and the client reads the first back")
    func lostPrepare() async throws {
        let harness = try PaymentsHarness()
        harness.simulator.injectFault(.lostAnswer, on: .prepare)
        try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
        #expect(harness.simulator.requestCount(.prepare) == 2)
        #expect(harness.simulator.requestCount(.prepared) == 1)
        #expect(harness.simulator.prepared(merchantUID: "order-1")?.amount == 10_000)
    }

    @Test("a prepare met by another amount already registered is refused, not taken for success")
    func preparedWithAnotherAmount() async throws {
        let harness = try PaymentsHarness()
        try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
        let error = await keyCatError { () async throws(KeyCatError) in
            try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 12_000))
        }
        #expect(error?.code == .gatewayInvalidRequest)
        #expect(harness.simulator.prepared(merchantUID: "order-1")?.amount == 10_000)
    }
}

@Suite("PG client keyed writes across a token refresh")
struct PGKeyedWriteTests {
    @Test("a keyed refund refused for an expired token runs once with the new token")
    func keyedAfterExpiry() async throws {
        let harness = try PaymentsHarness()
        let paid = try await harness.paidPayment("order-1")
        harness.simulator.expireTokens()
        let cancelled = try await harness.client.cancel(.init(
            target: .impUID(paid.impUID), checksum: paid.amount, reason: "r", idempotencyKey: "refund-1"))
        #expect(cancelled.status == .cancelled)
        #expect(harness.simulator.requestCount(.cancel) == 2)
        #expect(harness.simulator.cancellations(impUID: paid.impUID).count == 1)
    }
}
