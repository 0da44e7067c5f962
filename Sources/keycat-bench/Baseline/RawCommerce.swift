import CSQLite
import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator

/// Bookmarks, carts and checkout written against the C API and the simulator's HTTP interface
/// directly: the same statements and transactions KeyCat runs, without its layers.
struct RawCommerce {
    let database: RawDatabase
    let gateway: RawGateway

    // MARK: Bookmarks

    func toggleBookmark(user: Int64, product: Int64, add: Bool) throws {
        try database.execute("BEGIN IMMEDIATE")
        do {
            if add {
                let live = try database.statement("SELECT 1 FROM products WHERE id = ? AND deleted_at IS NULL")
                sqlite3_bind_int64(live, 1, product)
                let exists = try database.step(live)
                sqlite3_reset(live)
                guard exists else { throw RawDatabase.Failure(description: "no product") }
                let insert = try database.statement(
                    "INSERT INTO bookmarks (user_id, product_id, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id, product_id) DO NOTHING")
                sqlite3_bind_int64(insert, 1, user)
                sqlite3_bind_int64(insert, 2, product)
                sqlite3_bind_int64(insert, 3, Int64(Date().timeIntervalSince1970 * 1000))
                _ = try database.step(insert)
                sqlite3_reset(insert)
            } else {
                let delete = try database.statement("DELETE FROM bookmarks WHERE user_id = ? AND product_id = ?")
                sqlite3_bind_int64(delete, 1, user)
                sqlite3_bind_int64(delete, 2, product)
                _ = try database.step(delete)
                sqlite3_reset(delete)
            }
            if sqlite3_changes(database.handle) == 1 {
                let count = try database.statement("UPDATE products SET bookmark_count = bookmark_count + ? WHERE id = ?")
                sqlite3_bind_int64(count, 1, add ? 1 : -1)
                sqlite3_bind_int64(count, 2, product)
                _ = try database.step(count)
                sqlite3_reset(count)
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: Cart

    /// The cart with current prices and totals, in one join: the columns KeyCat reads (and its
    /// Postgres twin, ``RawPostgresCommerce``), so a line of a withdrawn listing is unavailable
    /// here too; delivery charged once per seller, the highest fee of their available lines.
    func cartTotal(user: Int64, now: Int64) throws -> (lines: Int, total: Int64) {
        let statement = try database.statement("""
            SELECT c.product_id, c.quantity, c.added_at, p.title, p.regular_price, p.price, p.discount_ends_at,
                   p.delivery_fee, p.stock, p.listed = 1 AND p.deleted_at IS NULL, p.seller_id
            FROM cart_lines c JOIN products p ON p.id = c.product_id
            WHERE c.user_id = ? ORDER BY c.added_at, c.product_id
            """)
        sqlite3_bind_int64(statement, 1, user)
        var lines = 0
        var total: Int64 = 0
        var fees: [Int64: Int64] = [:]
        while try database.step(statement) {
            _ = (sqlite3_column_int64(statement, 0), sqlite3_column_int64(statement, 2), database.text(statement, 3))
            let ends = database.optionalInt(statement, 6)
            let price = ends.map { $0 <= now } == true ? sqlite3_column_int64(statement, 4) : sqlite3_column_int64(statement, 5)
            let quantity = sqlite3_column_int64(statement, 1)
            let available = sqlite3_column_int64(statement, 9) != 0 && sqlite3_column_int64(statement, 8) >= quantity
            if available {
                total += price * quantity
                let seller = sqlite3_column_int64(statement, 10)
                fees[seller] = max(fees[seller] ?? 0, sqlite3_column_int64(statement, 7))
            }
            lines += 1
        }
        sqlite3_reset(statement)
        return (lines, total + fees.values.reduce(0, +))
    }

    // MARK: Checkout and confirm

    /// Checkout of one unit, payment at the PG with the success card, and confirmation: the
    /// same rows KeyCat writes — the order, its line in the seller's parcel, the copy of the
    /// buyer's default address, the stock movement; at payment the payment and the settlement
    /// ledger's sale entries — and the order read back with its parcels and address.
    func checkoutAndConfirm(buyer: Int64, product: Int64) async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let read = try database.statement("SELECT \(RawCatalog.columns) FROM products WHERE id = ?")
        sqlite3_bind_int64(read, 1, product)
        guard try database.step(read) else { throw RawDatabase.Failure(description: "no product") }
        let seller = sqlite3_column_int64(read, 1)
        let category = database.text(read, 3)
        let title = database.text(read, 4)
        let price = sqlite3_column_int64(read, 7)
        let fee = sqlite3_column_int64(read, 10)
        sqlite3_reset(read)
        let merchantUID = "raw_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let amount = price + fee

        try database.execute("BEGIN IMMEDIATE")
        let take = try database.statement(
            "UPDATE products SET stock = stock - ?, version = version + 1, updated_at = ? WHERE id = ? AND stock >= ? AND listed = 1")
        sqlite3_bind_int64(take, 1, 1)
        sqlite3_bind_int64(take, 2, now)
        sqlite3_bind_int64(take, 3, product)
        sqlite3_bind_int64(take, 4, 1)
        _ = try database.step(take)
        sqlite3_reset(take)
        guard sqlite3_changes(database.handle) == 1 else { try database.execute("ROLLBACK"); throw RawDatabase.Failure(description: "sold out") }
        let order = try database.statement("""
            INSERT INTO orders (merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, 'awaiting_payment', ?, ?, ?)
            """)
        database.bindText(order, 1, merchantUID)
        for (index, value) in [buyer, price, fee, amount, now + 900_000, now, now].enumerated() {
            sqlite3_bind_int64(order, Int32(index + 2), value)
        }
        _ = try database.step(order)
        sqlite3_reset(order)
        let orderID = sqlite3_last_insert_rowid(database.handle)
        // The seller's parcel, and the order's copy of the buyer's default address when there is one.
        let parcel = try database.statement("""
            INSERT INTO shipments (order_id, seller_id, status, delivery_fee, created_at, updated_at) VALUES (?, ?, 'pending', ?, ?, ?)
            """)
        for (index, value) in [orderID, seller, fee, now, now].enumerated() { sqlite3_bind_int64(parcel, Int32(index + 1), value) }
        _ = try database.step(parcel)
        sqlite3_reset(parcel)
        let shipmentID = sqlite3_last_insert_rowid(database.handle)
        let address = try database.statement("""
            INSERT INTO order_addresses (order_id, recipient, phone, postcode, road_address, detail, request)
            SELECT ?, recipient, phone, postcode, road_address, detail, request FROM addresses WHERE user_id = ? AND is_default = 1
            """)
        sqlite3_bind_int64(address, 1, orderID)
        sqlite3_bind_int64(address, 2, buyer)
        _ = try database.step(address)
        sqlite3_reset(address)
        let line = try database.statement("""
            INSERT INTO order_lines (order_id, line, product_id, title, unit_price, quantity, delivery_fee, shipment_id)
            VALUES (?, 0, ?, ?, ?, 1, ?, ?)
            """)
        sqlite3_bind_int64(line, 1, orderID)
        sqlite3_bind_int64(line, 2, product)
        database.bindText(line, 3, title)
        sqlite3_bind_int64(line, 4, price)
        sqlite3_bind_int64(line, 5, fee)
        sqlite3_bind_int64(line, 6, shipmentID)
        _ = try database.step(line)
        sqlite3_reset(line)
        let movement = try database.statement("""
            INSERT INTO stock_movements (product_id, kind, change, order_id, actor, reason, created_at)
            VALUES (?, 'order_taken', -1, ?, 'system', '', ?)
            """)
        sqlite3_bind_int64(movement, 1, product)
        sqlite3_bind_int64(movement, 2, orderID)
        sqlite3_bind_int64(movement, 3, now)
        _ = try database.step(movement)
        sqlite3_reset(movement)
        try readOrder(orderID)
        try database.execute("COMMIT")

        let impUID = try await gateway.prepareAndPay(merchantUID: merchantUID, amount: amount)

        try readOrder(orderID)
        try await gateway.verifyPaid(impUID: impUID, merchantUID: merchantUID, amount: amount)

        try database.execute("BEGIN IMMEDIATE")
        let paid = try database.statement("""
            UPDATE orders SET status = 'paid', updated_at = ?, outcome_unknown = 0, imp_uid = ?, paid_at = ?
            WHERE id = ? AND status = 'awaiting_payment'
            """)
        sqlite3_bind_int64(paid, 1, now)
        database.bindText(paid, 2, impUID)
        sqlite3_bind_int64(paid, 3, now)
        sqlite3_bind_int64(paid, 4, orderID)
        _ = try database.step(paid)
        sqlite3_reset(paid)
        let insert = try database.statement("""
            INSERT INTO payments (imp_uid, order_id, merchant_uid, amount, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'paid', ?, ?)
            """)
        database.bindText(insert, 1, impUID)
        sqlite3_bind_int64(insert, 2, orderID)
        database.bindText(insert, 3, merchantUID)
        sqlite3_bind_int64(insert, 4, amount)
        sqlite3_bind_int64(insert, 5, now)
        sqlite3_bind_int64(insert, 6, now)
        _ = try database.step(insert)
        sqlite3_reset(insert)
        // The settlement ledger: the line's sale and the parcel's fee.
        let paymentID = sqlite3_last_insert_rowid(database.handle)
        let entry = try database.statement("""
            INSERT INTO settlement_entries (kind, seller_id, order_id, shipment_id, line, payment_id, category, amount, occurred_at)
            VALUES ('sale', ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (line, category, amount) in [(Int64?.some(0), Optional(category), price), (nil, nil, fee)] where amount > 0 {
            for (index, value) in [seller, orderID, shipmentID].enumerated() { sqlite3_bind_int64(entry, Int32(index + 1), value) }
            if let line { sqlite3_bind_int64(entry, 4, line) } else { sqlite3_bind_null(entry, 4) }
            sqlite3_bind_int64(entry, 5, paymentID)
            if let category { database.bindText(entry, 6, category) } else { sqlite3_bind_null(entry, 6) }
            sqlite3_bind_int64(entry, 7, amount)
            sqlite3_bind_int64(entry, 8, now)
            _ = try database.step(entry)
            sqlite3_reset(entry)
        }
        let clear = try database.statement("DELETE FROM cart_lines WHERE user_id = ? AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = ?)")
        sqlite3_bind_int64(clear, 1, buyer)
        sqlite3_bind_int64(clear, 2, orderID)
        _ = try database.step(clear)
        sqlite3_reset(clear)
        try database.execute("COMMIT")
        try readOrder(orderID)
    }

    /// Reads an order and its lines, as KeyCat returns them.
    private func readOrder(_ id: Int64) throws {
        let order = try database.statement("""
            SELECT id, merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at, refunded_amount,
                   stock_returned, imp_uid, carrier, tracking_number, created_at, updated_at, paid_at
            FROM orders WHERE id = ?
            """)
        sqlite3_bind_int64(order, 1, id)
        if try database.step(order) {
            _ = (database.text(order, 1), database.text(order, 6), database.optionalText(order, 10))
        }
        sqlite3_reset(order)
        let lines = try database.statement(
            "SELECT product_id, title, unit_price, quantity, delivery_fee, shipment_id, refunded_at FROM order_lines WHERE order_id = ? ORDER BY line")
        sqlite3_bind_int64(lines, 1, id)
        while try database.step(lines) { _ = database.text(lines, 1) }
        sqlite3_reset(lines)
        let parcels = try database.statement("""
            SELECT id, seller_id, status, delivery_fee, carrier, tracking_number, shipped_at, delivered_at FROM shipments WHERE order_id = ? ORDER BY id
            """)
        sqlite3_bind_int64(parcels, 1, id)
        while try database.step(parcels) { _ = database.text(parcels, 2) }
        sqlite3_reset(parcels)
        let address = try database.statement(
            "SELECT recipient, phone, postcode, road_address, detail, request FROM order_addresses WHERE order_id = ?")
        sqlite3_bind_int64(address, 1, id)
        if try database.step(address) { _ = database.text(address, 0) }
        sqlite3_reset(address)
    }
}
