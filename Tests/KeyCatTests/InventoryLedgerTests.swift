import Foundation
import KeyCat
import KeyCatData
import KeyCatTestSupport
import Testing

@Suite("Inventory ledger: every stock change is a movement, and db check proves stock with it")
struct InventoryLedgerTests {
    @Test("listing, checkout, cancel, refund with restock and two adjustments each leave one movement that adds up to the stock", arguments: TestStore.allCases)
    func everyChangeIsAMovement(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let admin = shop.operatorConsole
            let product = try await shop.product(stock: 10)
            let buyer = try await shop.user(.buyer)
            let paid = try await shop.paidOrder(product, quantity: 2, by: buyer)
            let abandoned = try await shop.checkout(product, quantity: 1, by: buyer)
            _ = try await shop.keycat.orders.cancel(abandoned.id, reason: "changed my mind", by: buyer)
            _ = try await shop.keycat.orders.refund(paid.id, RefundRequest(reason: "came back", restock: true), by: admin)
            _ = try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: -3, reason: " dropped 3 "), by: admin)
            var changes = ProductChanges(expectedVersion: nil)
            changes.stock = 20
            let updated = try await shop.keycat.catalog.update(product.id, changes, by: admin)
            #expect(updated.stock == 20)

            let history = try await shop.keycat.catalog.stockHistory(product.id, by: admin).items
            #expect(history.map(\.kind) == [.listed, .orderTaken, .orderTaken, .orderReturned, .refundRestock, .adjustment, .adjustment])
            #expect(history.map(\.change) == [10, -2, -1, 1, 2, -3, 13])
            #expect(history.reduce(0) { $0 + $1.change } == 20)
            #expect(history[1].orderID == paid.id && history[3].orderID == abandoned.id)
            #expect(history[5].actor == "cli:tester" && history[5].reason == "dropped 3")
            #expect(history[6].actor == "cli:tester" && history[6].reason == "stock set to 20")
            let audit = try await shop.keycat.auditLog.recent(limit: 5)
            #expect(audit.contains { $0.action == "product.adjust_stock" && $0.detail == "-3: dropped 3" && $0.target == "product:\(product.id)" })
            #expect(audit.contains { $0.action == "product.update" && $0.detail == "stock 7 → 20" })
            try await shop.expectHealthy()
        }
    }

    @Test("a seller changing their own stock is recorded under their name and audited", arguments: TestStore.allCases)
    func sellerAdjustment(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft { $0.stock = 4 }, for: seller.userID, by: seller)
            var changes = ProductChanges(expectedVersion: nil)
            changes.stock = 6
            _ = try await shop.keycat.catalog.update(product.id, changes, by: seller)
            let history = try await shop.keycat.catalog.stockHistory(product.id, by: seller).items
            #expect(history.map(\.actor) == ["seller:\(seller.userID)", "seller:\(seller.userID)"])
            #expect(history.map(\.change) == [4, 2])
            await #expect(try shop.keycat.auditLog.recent(limit: 3).contains { $0.actor == "seller:\(seller.userID)" && $0.detail == "stock 4 → 6" })
        }
    }

    @Test("a bad adjustment is a validation error and changes nothing; strangers may neither adjust nor read the ledger", arguments: TestStore.allCases)
    func adjustmentRules(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let admin = shop.operatorConsole
            let product = try await shop.product(stock: 2)
            let stranger = try await shop.user(.seller)
            await expectError(.validation, field: "by") { try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: 0, reason: "x"), by: admin) }
            await expectError(.validation, field: "reason") { try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: 1, reason: "  "), by: admin) }
            await expectError(.validation, field: "by") { try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: -3, reason: "count"), by: admin) }
            await expectError(.notOwner) { try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: 1, reason: "count"), by: stranger) }
            await expectError(.notOwner) { try await shop.keycat.catalog.stockHistory(product.id, by: stranger) }
            await expectError(.notFound) { try await shop.keycat.catalog.adjustStock(ProductID(999), by: StockAdjustment(change: 1, reason: "count"), by: admin) }
            await #expect(try shop.stock(of: product.id) == 2)
            await #expect(try shop.keycat.catalog.stockHistory(product.id, by: admin).items.count == 1)
            await #expect(try !shop.keycat.auditLog.recent(limit: 20).contains { $0.action == "product.adjust_stock" })
        }
    }

    @Test("the ledger pages with a cursor, oldest first", arguments: TestStore.allCases)
    func historyPages(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let admin = shop.operatorConsole
            let product = try await shop.product(stock: 1)
            for step in 1...4 { _ = try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: step, reason: "delivery \(step)"), by: admin) }
            let first = try await shop.keycat.catalog.stockHistory(product.id, limit: PageLimit(3), by: admin)
            let second = try await shop.keycat.catalog.stockHistory(product.id, limit: PageLimit(3), cursor: first.nextCursor, by: admin)
            #expect(first.items.map(\.change) == [1, 1, 2] && second.items.map(\.change) == [3, 4] && second.nextCursor == nil)
            let other = try await shop.product(stock: 1)
            await expectError(.invalidCursor) { try await shop.keycat.catalog.stockHistory(other.id, cursor: first.nextCursor, by: admin) }
        }
    }

    /// Hand edits that stock and order arithmetic must expose, and what `db check` then says.
    static let tampering: [(String, String)] = [
        ("UPDATE products SET stock = stock + 100", "inventory ledger adds up to"),
        ("UPDATE order_lines SET unit_price = unit_price * 10", "items_total is"),
        ("UPDATE orders SET items_total = items_total + 1000", "items_total is"),
        ("UPDATE orders SET delivery_total = 0", "delivery_total is"),
        ("DELETE FROM order_lines", "has no lines"),
        ("DELETE FROM order_lines", "its lines hold 0 units but the inventory ledger took 2"),
        ("UPDATE order_lines SET quantity = 1, unit_price = unit_price * 2", "its lines hold 1 units but the inventory ledger took 2"),
        ("DELETE FROM stock_movements WHERE kind = 'order_taken'", "the inventory ledger took 0"),
        ("INSERT INTO stock_movements (product_id, kind, change, order_id, created_at) SELECT product_id, 'order_returned', quantity, order_id, 0 FROM order_lines",
         "gave back 2 units, not 0"),
    ]

    @Test("each hand edit of stock, prices, totals or lines is found by db check", arguments: TestStore.allCases, tampering)
    func tamperingIsFound(_ store: TestStore, _ edit: (String, String)) async throws {
        let (sql, sentence) = edit
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            _ = try await shop.paidOrder(product, quantity: 2, by: try shop.user(.buyer))
            try await shop.expectHealthy()
            try await shop.execute(sql)
            let report = try await shop.keycat.checkHealth()
            #expect(!report.isHealthy)
            #expect(report.invariantProblems.contains { $0.contains(sentence) }, "\(report.invariantProblems)")
        }
    }
}
