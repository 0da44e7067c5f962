import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("db check's order invariants")
struct OrderInvariantTests {
    /// A way to break the database behind KeyCat's back, and what `db check` must then say.
    static let corruptions: [(String, String)] = [
        ("PRAGMA ignore_check_constraints = ON; UPDATE products SET stock = -1", "has negative stock"),
        ("DROP INDEX payments_one_paid_per_order; INSERT INTO payments (imp_uid, order_id, merchant_uid, amount, status, created_at, updated_at) SELECT 'imp_twice', order_id, merchant_uid, amount, 'paid', 0, 0 FROM payments",
         "is charged twice"),
        ("DELETE FROM settlement_entries; DELETE FROM payments", "was paid but has no paid payment"),
        ("UPDATE orders SET status = 'awaiting_payment'", "has a paid payment but is not paid"),
        ("INSERT INTO refunds (order_id, amount, checksum, reason, restock, target, status, created_at, updated_at) SELECT id, amount + 1, amount, 'x', 0, 'refunded', 'done', 0, 0 FROM orders",
         "has refunds above its paid amount"),
        ("UPDATE orders SET refunded_amount = 5", "records a refunded amount other than the sum of its refunds"),
        ("UPDATE orders SET status = 'expired'", "closed without a sale but kept its stock"),
        ("UPDATE orders SET stock_returned = 1", "returned its stock but still counts as sold"),
    ]

    /// `sql` for the shop's store: Postgres has no `PRAGMA`, so the stock check is dropped instead.
    static func edit(_ sql: String, on shop: TestShop) -> String {
        guard shop.isPostgres else { return sql }
        return sql.replacingOccurrences(of: "PRAGMA ignore_check_constraints = ON;",
                                        with: "ALTER TABLE products DROP CONSTRAINT products_stock_check;")
    }

    @Test("every invariant is found when it breaks", arguments: TestStore.allCases, corruptions)
    func detects(_ store: TestStore, _ corruption: (String, String)) async throws {
        let (sql, sentence) = corruption
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            _ = try await shop.paidOrder(product, by: buyer)
            try await shop.expectHealthy()
            try await shop.execute(Self.edit(sql, on: shop))
            let problems = try await shop.keycat.checkHealth().invariantProblems
            #expect(problems.contains { $0.contains(sentence) }, "\(problems)")
        }
    }
}
