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
