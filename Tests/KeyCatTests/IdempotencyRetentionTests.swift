import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("Idempotency keys past their retention")
struct IdempotencyRetentionTests {
    @Test("checkout and confirm leave expired keys alone; reconciliation sweeps them and a swept key runs anew",
          arguments: TestStore.allCases)
    func reconcileSweeps(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let first = try await shop.checkout(product, by: buyer, key: "k1")
            let payment = try shop.pay(first)
            _ = try await shop.keycat.checkout.confirm(first.id, impUID: payment.impUID, idempotencyKey: "c1", by: buyer)
            shop.clock.advance(by: 25 * 60 * 60)
            _ = try await shop.checkout(product, by: buyer, key: "k2")
            let count = { try await shop.integer("SELECT count(*) FROM idempotency_keys") }
            #expect(try await count() == 3)
            let report = try await shop.keycat.checkout.reconcile()
            #expect(report.idempotencyKeysSwept == 2)
            #expect(try await count() == 1)
            // The swept key is new again: it runs as a fresh checkout.
            let again = try await shop.checkout(product, by: buyer, key: "k1")
            #expect(again.id != first.id)
        }
    }

    @Test("handled webhook ids are kept 30 days, then reconciliation forgets them, oldest first",
          arguments: TestStore.allCases)
    func webhookIDsSwept(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer, key: "k1")
            let payment = try shop.pay(order)
            let deliver = { (id: String) in
                try await shop.keycat.checkout.handleWebhook(id: id, impUID: payment.impUID, merchantUID: order.merchantUID)
            }
            #expect(try await deliver("wh_old") != .duplicate)
            shop.clock.advance(by: 2 * 24 * 3600)
            #expect(try await deliver("wh_newer") != .duplicate)
            #expect(try await deliver("wh_old") == .duplicate)
            let count = { try await shop.integer("SELECT count(*) FROM webhook_events") }
            #expect(try await shop.keycat.checkout.reconcile().webhookIDsSwept == 0)
            #expect(try await count() == 2)

            // 31 days after the first: only it is past the retention.
            shop.clock.advance(by: 29 * 24 * 3600)
            #expect(try await shop.keycat.checkout.reconcile().webhookIDsSwept == 1)
            #expect(try await count() == 1)
            #expect(try await deliver("wh_newer") == .duplicate)
            // A redelivery of the forgotten id re-reads the payment and changes nothing.
            #expect(try await deliver("wh_old") != .duplicate)
            #expect(try await shop.keycat.orders.order(order.id, by: buyer).status == .paid)
        }
    }
}
