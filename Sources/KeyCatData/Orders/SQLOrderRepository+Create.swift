import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Creating an order: the stock taken (or the line sold on payment), the hold limits counted,
/// the rows written.
extension SQLOrderRepository {
    /// Takes the stock and writes the order, its parcels, lines, stock movements and address in
    /// one transaction, in two batches (on Postgres: two round trips, the second carrying the
    /// `COMMIT`): the stock takes with the order's own row, then every other insert.
    ///
    /// The order it answers is built from what it wrote and the ids the inserts returned, not
    /// read back: every other column of a new order is its schema's default, and the times are
    /// the milliseconds the store keeps (a test holds it equal to ``find(_:)``'s).
    ///
    /// `READ COMMITTED` on Postgres, so concurrent checkouts never run again for a conflict:
    /// every statement is conditional on the rows it changes (the stock take re-checks
    /// `stock >= ?` after waiting for the product's lock; the request key is a unique index), and
    /// the hold limits, the one read that decides a write, are counted after locking the buyer's
    /// row, so one buyer's checkouts are counted one after another.
    package func create(_ order: NewOrder, at now: Date) async throws(KeyCatError) -> Order {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                let (id, placed) = try Self.takeStockAndInsert(order, at: now, on: connection)
                var shipments: [ShipmentID] = []
                try connection.batch(Self.detailStatements(placed, id: id, at: now) { shipments.append($0) }
                                        + EventOutbox.statements([Self.createdEvent(placed, id: id, at: now)], on: connection),
                                     endingTransaction: true)
                return try Self.created(placed, id: id, shipments: shipments, at: now)
            }
        }
    }

    /// Takes each line's units with the one statement that takes stock, which must hit or the
    /// order is not made, and inserts the order's row in the same batch (the request key, when
    /// the order has one, let go first by an order past its retention; with hold limits, the
    /// buyer's open orders counted first, the products locked, and each take conditional on the
    /// holding caps: ``StockHoldPolicy``). The takes go in product order, so two checkouts of the
    /// same products lock them in the same order and never deadlock. A line that missed tries
    /// again once after expiring the reservations that lapsed on its product; one that misses
    /// again is sold on payment when the order has hold limits and the shelf has its units
    /// (``OrderLine/stockTaken`` false), else throws `outOfStock`, and the transaction takes the
    /// row back with the stock.
    ///
    /// - Returns: the order's id and the order as placed: its lines sold on payment marked so.
    private static func takeStockAndInsert(_ order: NewOrder, at now: Date, on connection: Database.Connection) throws
        -> (id: OrderID, placed: NewOrder) {
        var statements: [SQLStatement<Database.Connection.Row>] = []
        let holdings = Holdings()
        if order.holdLimits != nil {
            statements += holdStatements(of: order.buyerID, locking: order.lines.map(\.productID), at: now, into: holdings,
                                         on: connection)
        }
        let takes = order.lines.sorted { $0.productID < $1.productID }
        let firstTake = statements.count
        statements += takes.map { .run(takeStatement(order.holdLimits), takeArguments($0, of: order, at: now)) }
        if let key = order.requestKey {
            // A key past its retention is new again: the old order lets go of it.
            statements.append(.run("UPDATE orders SET request_key = NULL WHERE buyer_id = ? AND request_key = ?",
                                   [.integer(order.buyerID.rawValue), .text(key)]))
        }
        var id: Int64?
        statements.append(.query("""
            INSERT INTO orders (merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at,
                                created_at, updated_at, request_key)
            VALUES (?, ?, ?, ?, ?, 'awaiting_payment', ?, ?, ?, ?) RETURNING id
            """, [.text(order.merchantUID), .integer(order.buyerID.rawValue), .integer(order.itemsTotal.won),
                  .integer(order.deliveryTotal.won), .integer(order.amount.won), StoredTime.value(order.expiresAt),
                  StoredTime.value(now), StoredTime.value(now), .optional(order.requestKey.map(SQLValue.text))]) { id = $0.int64(0) })
        let changes = try connection.batch(statements)
        if let limits = order.holdLimits { try limits.check(openOrders: holdings.openOrders) }
        var placed = order
        for (line, count) in zip(takes, changes[firstTake...]) where count != 1 {
            if try releaseExpiredReservations(of: line.productID, at: now, on: connection) > 0,
               try connection.run(takeStatement(order.holdLimits), takeArguments(line, of: order, at: now)) == 1 {
                continue
            }
            let left = try connection.queryOne(
                "SELECT CASE WHEN listed = 1 THEN stock ELSE 0 END FROM products WHERE id = ?",
                [.integer(line.productID.rawValue)]) { $0.int(0) } ?? 0
            if order.holdLimits != nil, left >= line.quantity,
               let index = placed.lines.firstIndex(where: { $0.productID == line.productID }) {
                // Held up to its caps: sold to whoever pays first.
                placed.lines[index].stockTaken = false
                continue
            }
            throw KeyCatError(
                .outOfStock, "only \(left) of \(line.title) left, \(line.quantity) wanted",
                context: ["product_id": "\(line.productID)", "title": line.title, "available": "\(left)",
                          "requested": "\(line.quantity)"])
        }
        guard let id else { throw KeyCatError(.internalError, "order \(order.merchantUID) was not written") }
        return (OrderID(id), placed)
    }

    /// One parcel per seller, the lines in their parcels, a stock movement per line and the
    /// address of the order `id`, in one batch: a line names its parcel by (order, seller), as an
    /// order has one parcel per seller, so nothing waits for the parcels' ids. `written` gets each
    /// parcel's id, in the order of ``Shipment/parcels(of:)``.
    private static func detailStatements(
        _ order: NewOrder, id: OrderID, at now: Date, written: @escaping (ShipmentID) -> Void
    ) throws -> [SQLStatement<Database.Connection.Row>] {
        let orderID = SQLValue.integer(id.rawValue)
        var statements: [SQLStatement<Database.Connection.Row>] = []
        var sellerOfLine: [Int: UserID] = [:]
        for parcel in Shipment.parcels(of: order.lines) {
            guard let seller = parcel.sellerID else {
                throw KeyCatError(.internalError, "an order line reached the store without its seller")
            }
            statements.append(.query("""
                INSERT INTO shipments (order_id, seller_id, status, delivery_fee, created_at, updated_at)
                VALUES (?, ?, 'pending', ?, ?, ?) RETURNING id
                """, [orderID, .integer(seller.rawValue), .integer(parcel.deliveryFee.won), StoredTime.value(now),
                      StoredTime.value(now)]) { written(ShipmentID($0.int64(0))) })
            for position in parcel.lines { sellerOfLine[position] = seller }
        }
        for (index, line) in order.lines.enumerated() {
            statements.append(.run("""
                INSERT INTO order_lines (order_id, line, product_id, title, unit_price, quantity, delivery_fee, shipment_id,
                                         stock_taken, category)
                VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT id FROM shipments WHERE order_id = ? AND seller_id = ?), ?,
                        (SELECT category FROM products WHERE id = ?))
                """, [orderID, .int(index), .integer(line.productID.rawValue), .text(line.title),
                      .integer(line.unitPrice.won), .int(line.quantity), .integer(line.deliveryFee.won),
                      orderID, .optional(sellerOfLine[index].map { SQLValue.integer($0.rawValue) }), .bool(line.stockTaken),
                      .integer(line.productID.rawValue)]))
            // A line sold on payment takes its units, and records their movement, when it is paid.
            guard line.stockTaken else { continue }
            statements.append(StockLedger.statement(.orderTaken, change: -line.quantity, product: line.productID,
                                                    order: id, at: now))
        }
        if let address = order.shippingAddress {
            statements.append(.run("""
                INSERT INTO order_addresses (order_id, recipient, phone, postcode, road_address, detail, request)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [orderID] + SQLAddressRepository<Database>.values(address)))
        }
        return statements
    }

    /// `order.created`: the order's figures and lines, no address (docs/events.md).
    private static func createdEvent(_ order: NewOrder, id: OrderID, at now: Date) -> DomainEvent {
        DomainEvent(.orderCreated, at: now, aggregate: EventAggregate(.order, id.rawValue), data: [
            "order_id": .integer(id.rawValue), "merchant_uid": .string(order.merchantUID),
            "buyer_id": .integer(order.buyerID.rawValue), "status": .string(OrderStatus.awaitingPayment.rawValue),
            "amount": .won(order.amount), "items_total": .won(order.itemsTotal), "delivery_total": .won(order.deliveryTotal),
            "expires_at": .time(order.expiresAt),
            "lines": .list(order.lines.map { line in
                .object(["product_id": .integer(line.productID.rawValue), "seller_id": line.sellerID.map { .integer($0.rawValue) } ?? .null,
                         "title": .string(line.title), "quantity": .integer(Int64(line.quantity)), "unit_price": .won(line.unitPrice)])
            }),
        ])
    }

    /// The order `id` as `create` just wrote it from `order`, its parcels' ids in `shipments`:
    /// awaiting payment, nothing refunded or returned, no payment, no carrier, each line and
    /// parcel as written and the times as the store keeps them, to the millisecond.
    private static func created(_ order: NewOrder, id: OrderID, shipments: [ShipmentID], at now: Date) throws -> Order {
        let parcels = Shipment.parcels(of: order.lines)
        guard parcels.count == shipments.count else {
            throw KeyCatError(.internalError, "order \(id) wrote \(shipments.count) of its \(parcels.count) parcels")
        }
        let stored = StoredTime.stored(now)
        var created = Order(
            id: id, merchantUID: order.merchantUID, buyerID: order.buyerID,
            lines: order.lines.map { line in
                var line = line
                line.refundedAt = nil
                return line
            },
            itemsTotal: order.itemsTotal, deliveryTotal: order.deliveryTotal, amount: order.amount,
            status: .awaitingPayment, expiresAt: StoredTime.stored(order.expiresAt), createdAt: stored, updatedAt: stored)
        created.shipments = zip(parcels, shipments).compactMap { parcel, shipment in
            parcel.sellerID.map { seller in
                Shipment(id: shipment, orderID: id, sellerID: seller, status: .pending, deliveryFee: parcel.deliveryFee,
                         lines: parcel.lines)
            }
        }
        created.shippingAddress = order.shippingAddress
        return created
    }

    /// Expires the orders holding `product` whose reservation ended ``CheckoutService/latePaymentGrace``
    /// before `now` (a payment made in time may still arrive until then) and whose PG outcome
    /// is not in doubt, giving back every unit they took (the ledger's `order_returned`), each
    /// told as `order.cancelled` (`expired`), as reconciliation's expiry tells it.
    ///
    /// - Returns: how many orders it expired.
    static func releaseExpiredReservations(of product: ProductID, at now: Date, on connection: some SQLConnection) throws -> Int {
        let expired = try connection.query("""
            UPDATE orders SET status = 'expired', updated_at = ?
            WHERE status = 'awaiting_payment' AND outcome_unknown = 0 AND expires_at <= ?
              AND id IN (SELECT order_id FROM order_lines WHERE product_id = ?)
            RETURNING id
            """, [StoredTime.value(now), StoredTime.value(now.addingTimeInterval(-CheckoutService.latePaymentGrace)),
                  .integer(product.rawValue)]) { OrderID($0.int64(0)) }
        for id in expired {
            try OrderRow.returnStock(of: id, as: .orderReturned, at: now, on: connection)
            let event = DomainEvent(.orderCancelled, at: now, aggregate: EventAggregate(.order, id.rawValue),
                                    data: ["cause": "expired", "paid": false])
            try connection.batch([EventOutbox.statement(event, reading: .order, row: id.rawValue,
                                                        on: connection)])
        }
        return expired.count
    }
}
