import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// SQLite only: a file written at an older schema version by the SQLite migrator; upgrades on
/// both stores are `StoreMigrationContractTests`'.
@Suite("Inventory ledger on a database that predates it")
struct InventoryLedgerMigrationTests {
    @Test("the migration writes an opening balance per product and each order's movements, so db check is healthy at once")
    func openingBalances() async throws {
        try await withTemporaryDirectory { directory async throws in
            // A seller with two products; a buyer with an order awaiting payment (holds 2), an
            // expired one (returned its 1) and a paid one (sold 3).
            let path = try olderDatabase(in: directory, before: "inventory ledger", rows: """
                INSERT INTO users (id, email, nick, password_hash, role, created_at, updated_at) VALUES
                    (1, 's@example.com', 'seller', '!', 'seller', 0, 0), (2, 'b@example.com', 'buyer', '!', 'buyer', 0, 0);
                INSERT INTO products (id, seller_id, kind, category, title, content, regular_price, price, coupon_price,
                                      delivery_fee, delivery_schedule, stock, created_at, updated_at) VALUES
                    (1, 1, 'commercial', 'keyboard', 'A', '', 1000, 1000, 0, 0, 'standard', 5, 0, 0),
                    (2, 1, 'commercial', 'keycap', 'B', '', 500, 500, 0, 0, 'standard', 0, 0, 0);
                INSERT INTO orders (id, merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at,
                                    stock_returned, created_at, updated_at, paid_at) VALUES
                    (1, 'm1', 2, 2000, 0, 2000, 'awaiting_payment', 9, 0, 1, 1, NULL),
                    (2, 'm2', 2, 500, 0, 500, 'expired', 9, 1, 2, 3, NULL),
                    (3, 'm3', 2, 1500, 0, 1500, 'paid', 9, 0, 4, 4, 4);
                INSERT INTO order_lines (order_id, line, product_id, title, unit_price, quantity, delivery_fee) VALUES
                    (1, 0, 1, 'A', 1000, 2, 0), (2, 0, 2, 'B', 500, 1, 0), (3, 0, 2, 'B', 500, 3, 0);
                INSERT INTO payments (imp_uid, order_id, merchant_uid, amount, status, created_at, updated_at)
                    VALUES ('imp_3', 3, 'm3', 1500, 'paid', 4, 4);
                """)

            let keycat = try await KeyCat.open(KeyCat.Configuration(databasePath: path))
            defer { keycat.close() }
            let report = try await keycat.checkHealth()
            #expect(report.isHealthy, "\(report)")
            let admin = Principal.operatorConsole("tester")
            let first = try await keycat.catalog.stockHistory(ProductID(1), by: admin).items
            #expect(first.map(\.kind) == [.opening, .orderTaken] && first.map(\.change) == [7, -2])
            let second = try await keycat.catalog.stockHistory(ProductID(2), by: admin).items
            #expect(second.map(\.kind) == [.opening, .orderTaken, .orderTaken, .orderReturned])
            #expect(second.map(\.change) == [3, -1, -3, 1])
        }
    }
}
