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
}
