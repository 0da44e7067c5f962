import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator

/// The bookmark toggle, the cart read and checkout + confirm of ``RawCommerce`` on Postgres
/// through libpq: the statements and transactions KeyCat runs there (the writes `READ
/// COMMITTED`, every statement conditional), without its layers, and one statement a round trip
/// (no pipelines): what a careful hand-written server does.
struct RawPostgresCommerce: Sendable {
    let database: RawPostgres
    let gateway: RawGateway

    /// A bookmark added or removed, and the listing's count moved when it was: the listing (and,
    /// adding, the buyer) locked first, as KeyCat's toggle does, so concurrent toggles of one
    /// listing wait for each other rather than fail (docs/social.md).
    func toggleBookmark(user: Int64, product: Int64, add: Bool) throws {
        try database.run("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            let live = try database.run("SELECT id FROM products WHERE id = $1 AND deleted_at IS NULL FOR NO KEY UPDATE", [.int(product)])
            guard live.rows == 1 else { throw RawDatabase.Failure(description: "no product") }
            let changed: Int
            if add {
                let buyer = try database.run("SELECT id FROM users WHERE id = $1 AND withdrawn_at IS NULL FOR SHARE", [.int(user)])
                guard buyer.rows == 1 else { throw RawDatabase.Failure(description: "no user") }
                changed = try database.run("""
                    INSERT INTO bookmarks (user_id, product_id, created_at) VALUES ($1, $2, $3)
                    ON CONFLICT (user_id, product_id) DO NOTHING
                    """, [.int(user), .int(product), .int(Int64(Date().timeIntervalSince1970 * 1000))]).changes
            } else {
                changed = try database.run("DELETE FROM bookmarks WHERE user_id = $1 AND product_id = $2", [.int(user), .int(product)]).changes
            }
            if changed == 1 {
                try database.run("UPDATE products SET bookmark_count = bookmark_count + $1 WHERE id = $2", [.int(add ? 1 : -1), .int(product)])
            }
            try database.run("COMMIT")
        } catch {
            _ = try? database.run("ROLLBACK")
            throw error
        }
    }

    /// The cart with current prices and totals, in one join; delivery charged once per seller,
    /// the highest fee of their available lines.
    func cartTotal(user: Int64, now: Int64) throws -> (lines: Int, total: Int64) {
        let result = try database.run("""
            SELECT c.product_id, c.quantity, c.added_at, p.title, p.regular_price, p.price, p.discount_ends_at,
                   p.delivery_fee, p.stock, p.listed = 1 AND p.deleted_at IS NULL, p.seller_id
            FROM cart_lines c JOIN products p ON p.id = c.product_id
            WHERE c.user_id = $1 ORDER BY c.added_at, c.product_id
            """, [.int(user)])
        var total: Int64 = 0
        var fees: [Int64: Int64] = [:]
        for row in 0..<result.rows {
            _ = (result.int(row, 0), result.int(row, 2), result.text(row, 3))
            let ends = result.optionalInt(row, 6)
            let price = ends.map { $0 <= now } == true ? result.int(row, 4) : result.int(row, 5)
            let quantity = result.int(row, 1)
            let available = result.text(row, 9) == "t" && result.int(row, 8) >= quantity
            if available {
                total += price * quantity
                let seller = result.int(row, 10)
                fees[seller] = max(fees[seller] ?? 0, result.int(row, 7))
            }
        }
        return (Int(result.rows), total + fees.values.reduce(0, +))
    }

    // MARK: Checkout and confirm

    /// Checkout of one unit, payment at the PG with the success card, and confirmation: writes
    /// `READ COMMITTED`, as KeyCat's are, the same rows (the parcel, the address copy, the ledger's
    /// sale entries), and the order read back with its parcels and address in a read-only snapshot.
    func checkoutAndConfirm(buyer: Int64, product: Int64) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let read = try database.run("SELECT \(RawCatalog.columns) FROM products WHERE id = $1", [.int(product)])
        guard read.rows == 1 else { throw RawDatabase.Failure(description: "no product") }
        let seller = read.int(0, 1)
        let category = read.text(0, 3)
        let title = read.text(0, 4)
        let price = read.int(0, 7)
        let fee = read.int(0, 10)
        let merchantUID = "raw_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let amount = price + fee

        try database.run("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            let take = try database.run(
                "UPDATE products SET stock = stock - $1, version = version + 1, updated_at = $2 WHERE id = $3 AND stock >= $4 AND listed = 1",
                [.int(1), .int(now), .int(product), .int(1)])
            guard take.changes == 1 else { throw RawDatabase.Failure(description: "sold out") }
            let order = try database.run("""
                INSERT INTO orders (merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at, created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, 'awaiting_payment', $6, $7, $8) RETURNING id
                """, [.text(merchantUID), .int(buyer), .int(price), .int(fee), .int(amount), .int(now + 900_000), .int(now), .int(now)])
            let orderID = order.int(0, 0)
            // The seller's parcel, and the order's copy of the buyer's default address when there is one.
            let shipmentID = try database.run("""
                INSERT INTO shipments (order_id, seller_id, status, delivery_fee, created_at, updated_at)
                VALUES ($1, $2, 'pending', $3, $4, $5) RETURNING id
                """, [.int(orderID), .int(seller), .int(fee), .int(now), .int(now)]).int(0, 0)
            try database.run("""
                INSERT INTO order_addresses (order_id, recipient, phone, postcode, road_address, detail, request)
                SELECT $1, recipient, phone, postcode, road_address, detail, request FROM addresses WHERE user_id = $2 AND is_default = 1
                """, [.int(orderID), .int(buyer)])
            try database.run("""
                INSERT INTO order_lines (order_id, line, product_id, title, unit_price, quantity, delivery_fee, shipment_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """, [.int(orderID), .int(0), .int(product), .text(title), .int(price), .int(1), .int(fee), .int(shipmentID)])
            try database.run("""
                INSERT INTO stock_movements (product_id, kind, change, order_id, actor, reason, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, [.int(product), .text("order_taken"), .int(-1), .int(orderID), .text("system"), .text(""), .int(now)])
            try readOrder(orderID)
            try database.run("COMMIT")

            let impUID = try await gateway.prepareAndPay(merchantUID: merchantUID, amount: amount)

            try readOrderInSnapshot(orderID)
            try await gateway.verifyPaid(impUID: impUID, merchantUID: merchantUID, amount: amount)

            try database.run("BEGIN ISOLATION LEVEL READ COMMITTED")
            try database.run("""
                UPDATE orders SET status = $1, updated_at = $2, outcome_unknown = 0, imp_uid = $3, paid_at = $4
                WHERE id = $5 AND status = $6
                """, [.text("paid"), .int(now), .text(impUID), .int(now), .int(orderID), .text("awaiting_payment")])
            let paymentID = try database.run("""
                INSERT INTO payments (imp_uid, order_id, merchant_uid, amount, status, created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
                """, [.text(impUID), .int(orderID), .text(merchantUID), .int(amount), .text("paid"), .int(now), .int(now)]).int(0, 0)
            // The settlement ledger: the line's sale and the parcel's fee, in one statement.
            try database.run("""
                INSERT INTO settlement_entries (kind, seller_id, order_id, shipment_id, line, payment_id, category, amount, occurred_at)
                VALUES ('sale', $1, $2, $3, 0, $4, $5, $6, $7), ('sale', $1, $2, $3, NULL, $4, NULL, $8, $7)
                """, [.int(seller), .int(orderID), .int(shipmentID), .int(paymentID), .text(category), .int(price), .int(now), .int(fee)])
            try database.run("""
                DELETE FROM cart_lines WHERE user_id = $1 AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = $2)
                """, [.int(buyer), .int(orderID)])
            try database.run("COMMIT")
            try readOrderInSnapshot(orderID)
        } catch {
            _ = try? database.run("ROLLBACK")
            throw error
        }
    }

    private func readOrderInSnapshot(_ id: Int64) throws {
        try database.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try readOrder(id)
        try database.run("COMMIT")
    }

    /// Reads an order and its lines, as KeyCat returns them.
    private func readOrder(_ id: Int64) throws {
        let order = try database.run("""
            SELECT id, merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at, refunded_amount,
                   stock_returned, imp_uid, carrier, tracking_number, created_at, updated_at, paid_at
            FROM orders WHERE id = $1
            """, [.int(id)])
        if order.rows > 0 { _ = (order.text(0, 1), order.text(0, 6), order.optionalText(0, 10)) }
        let lines = try database.run(
            "SELECT product_id, title, unit_price, quantity, delivery_fee, shipment_id, refunded_at FROM order_lines WHERE order_id = $1 ORDER BY line",
            [.int(id)])
        for row in 0..<lines.rows { _ = lines.text(row, 1) }
        let parcels = try database.run("""
            SELECT id, seller_id, status, delivery_fee, carrier, tracking_number, shipped_at, delivered_at FROM shipments WHERE order_id = $1 ORDER BY id
            """, [.int(id)])
        for row in 0..<parcels.rows { _ = parcels.text(row, 2) }
        let address = try database.run(
            "SELECT recipient, phone, postcode, road_address, detail, request FROM order_addresses WHERE order_id = $1", [.int(id)])
        if address.rows > 0 { _ = address.text(0, 0) }
    }
}
