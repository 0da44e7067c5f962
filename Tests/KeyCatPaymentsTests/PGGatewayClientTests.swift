import Foundation
import KeyCatDomain
import KeyCatPGSimulator
import Testing
@testable import KeyCatData

@Suite("PG gateway client")
struct PGGatewayClientTests {
    @Test("prepare, pay, read by both ids, refund in two parts")
    func wholeStory() async throws {
        let harness = try PaymentsHarness()
        try await harness.client.prepare(merchantUID: "order-7", amount: Money(won: 30_000))
        // As in v1, a prepared amount is no payment until the buyer opens the window.
        let before = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(merchantUID: "order-7") }
        #expect(before?.code == .paymentNotFound)
        _ = try harness.simulator.openWindow(merchantUID: "order-7")
        let ready = try await harness.client.payment(merchantUID: "order-7")
        #expect(ready.status == .ready)
        let paidRecord = try harness.simulator.pay(merchantUID: "order-7", cardNumber: "4242-4242-4242-4242")
        let paid = try await harness.client.payment(impUID: paidRecord.impUID)
        #expect(paid.status == .paid)
        #expect(paid.amount == Money(won: 30_000))
        #expect(paid.paidAt == harness.clock.now())
        #expect(try await harness.client.payment(merchantUID: "order-7") == paid)

        let partial = try await harness.client.cancel(.init(
            target: .impUID(paid.impUID), amount: Money(won: 10_000), checksum: paid.cancellableAmount, reason: "one switch"))
        #expect(partial.status == .paid)
        #expect(partial.cancellableAmount == Money(won: 20_000))
        let full = try await harness.client.cancel(.init(
            target: .merchantUID("order-7"), checksum: partial.cancellableAmount, reason: "the rest"))
        #expect(full.status == .cancelled)
        #expect(full.cancelledAmount == Money(won: 30_000))
    }

    @Test("a declined card reads back as failed with its reason", arguments: [PGTestCard.declined, .insufficientFunds, .expiredCard, .processingError])
    func declined(_ card: PGTestCard) async throws {
        let harness = try PaymentsHarness()
        try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 5_000))
        let record = try harness.simulator.pay(merchantUID: "order-1", cardNumber: card.number)
        let payment = try await harness.client.payment(impUID: record.impUID)
        #expect(payment.status == .failed)
        #expect(payment.failureReason == card.failureReason)
    }

    @Test("a cancel amount that is not positive is refused before any request")
    func nonPositiveCancel() async throws {
        let harness = try PaymentsHarness()
        let error = await keyCatError { () async throws(KeyCatError) in
            _ = try await harness.client.cancel(.init(target: .impUID("imp_1"), amount: .zero, checksum: .zero, reason: "r"))
        }
        #expect(error?.code == .validation)
        #expect(harness.simulator.totalRequestCount == 0)
    }
}

@Suite("PG gateway client: listing payments")
struct PGGatewayClientListingTests {
    @Test("pages of payments by status come back in domain types, and walking them finds each once")
    func listing() async throws {
        let harness = try PaymentsHarness()
        for index in 0..<5 {
            harness.clock.advance(by: 60)
            try await harness.paidPayment("order-\(index)", won: 1_000 + Int64(index))
        }
        let window = DateInterval(start: harness.clock.now().addingTimeInterval(-3_600), end: harness.clock.now())
        let page = try await harness.client.payments(GatewayPaymentQuery(status: .paid, from: window.start, to: window.end, page: 1, limit: 2))
        #expect(page.total == 5 && page.previous == nil && page.next == 2)
        #expect(page.payments.map(\.merchantUID) == ["order-4", "order-3"])
        #expect(page.payments.allSatisfy { $0.status == .paid })
        let all = try await harness.client.allPayments(status: .paid, in: window)
        #expect(all.map(\.amount.won).sorted() == [1_000, 1_001, 1_002, 1_003, 1_004])
        #expect(try await harness.client.allPayments(status: .cancelled, in: window).isEmpty)
    }

    @Test("a listing the PG refuses maps to the gateway's error; a bad query is refused before any request")
    func errors() async throws {
        let harness = try PaymentsHarness()
        harness.simulator.injectFault(.error(.forbidden), on: .paymentsByStatus)
        let now = harness.clock.now()
        let forbidden = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payments(GatewayPaymentQuery(status: nil, from: now, to: now)) }
        #expect(forbidden?.code == .gatewayForbidden)
        let before = harness.simulator.totalRequestCount
        let invalid = await keyCatError { () async throws(KeyCatError) in
            _ = try await harness.client.payments(GatewayPaymentQuery(status: .paid, from: now, to: now, limit: 101))
        }
        #expect(invalid?.code == .validation && harness.simulator.totalRequestCount == before)
        harness.simulator.injectFault(.error(.serviceUnavailable), on: .paymentsByStatus)
        let retried = try await harness.client.payments(GatewayPaymentQuery(status: nil, from: now, to: now))
        #expect(retried.total == 0 && harness.simulator.requestCount(.paymentsByStatus) == 3)
    }
}
