import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// How orders, payments and refunds map to their rows.
enum OrderRow {
    static let columns = """
        id, merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at, refunded_amount, \
        stock_returned, imp_uid, carrier, tracking_number, created_at, updated_at, paid_at
        """

    /// ``columns`` qualified with `o.`, for joins.
    static let prefixedColumns = columns.split(separator: ",").map { "o." + $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: ", ")

    /// Decodes an order row; its lines are read separately.
    static func decode(_ row: some SQLRow) throws -> Order {
        let status = try status(row, at: 6)
        return Order(
            id: OrderID(row.int64(0)), merchantUID: row.string(1), buyerID: UserID(row.int64(2)), lines: [],
            itemsTotal: Money(won: row.int64(3)), deliveryTotal: Money(won: row.int64(4)), amount: Money(won: row.int64(5)),
            status: status, expiresAt: StoredTime.date(row.int64(7)), refundedAmount: Money(won: row.int64(8)),
            stockReturned: row.bool(9), impUID: row.optionalString(10), carrier: row.optionalString(11),
            trackingNumber: row.optionalString(12), createdAt: StoredTime.date(row.int64(13)),
            updatedAt: StoredTime.date(row.int64(14)), paidAt: StoredTime.date(row.optionalInt64(15)))
    }

    /// The status in `column` of an order row whose id is in column 0.
    static func status(_ row: some SQLRow, at column: Int) throws -> OrderStatus {
        guard let status = OrderStatus(rawValue: row.string(column)) else {
            throw KeyCatError(.internalError, "order \(row.int64(0)) has an unknown status \(row.string(column))")
        }
        return status
    }

    /// Fills in the lines, shipments and shipping addresses of `orders`, one query each for all
    /// of them (the ids travel as a JSON array, each a seek on an index by order), sent as one
    /// batch.
    static func withLines(_ orders: [Order], on connection: some SQLConnection) throws -> [Order] {
        guard !orders.isEmpty else { return [] }
        let single = orders.count == 1
        let filter = single ? "= ?" : "IN (\(connection.dialect.integersFromJSON))"
        let argument: [SQLValue] = single ? [.integer(orders[0].id.rawValue)]
            : [.text("[" + orders.map { String($0.id.rawValue) }.joined(separator: ",") + "]")]
        let details = Details()
        try connection.batch(details.statements(filter: filter, argument, on: connection))
        return orders.map(details.complete)
    }

    /// The order `id` with its lines, shipments and address: four queries in one batch (one
    /// round trip on Postgres).
    static func find(_ id: OrderID, on connection: some SQLConnection) throws -> Order? {
        try run([], thenFind: id, endingTransaction: false, on: connection)
    }

    /// The order `id`, which a refund begins on, as the caller read it: still `status`.
    ///
    /// - Throws: `notFound` when it is gone; `illegalTransition` when its status moved meanwhile.
    static func find(_ id: OrderID, stillIn status: OrderStatus, on connection: some SQLConnection) throws -> Order {
        guard let order = try find(id, on: connection) else { throw KeyCatError.notFound("order", id) }
        guard order.status == status else {
            throw KeyCatError(.illegalTransition, "order \(id) became \(order.status.rawValue) meanwhile; read it again")
        }
        return order
    }

    /// Runs `statements` and reads the order `id` back in the same batch (one round trip on
    /// Postgres, which also carries the transaction's `COMMIT` when `endingTransaction`).
    ///
    /// - Returns: the order as the statements left it.
    static func run<Connection: SQLConnection>(
        _ statements: [SQLStatement<Connection.Row>], thenFind id: OrderID, endingTransaction: Bool, on connection: Connection
    ) throws -> Order? {
        var found: Order?
        let details = Details()
        try connection.batch(statements + findStatements(id, into: details, on: connection) { found = $0 },
                             endingTransaction: endingTransaction)
        return found.map(details.complete)
    }

    /// The statements of ``find(_:on:)``, for a batch that writes first: `found` gets the order
    /// without its details, which `details` gathers. The details are read by the id itself, not
    /// through a lookup of the order.
    static func findStatements<Connection: SQLConnection>(
        _ id: OrderID, into details: Details, on connection: Connection, found: @escaping (Order) -> Void
    ) -> [SQLStatement<Connection.Row>] {
        let argument: [SQLValue] = [.integer(id.rawValue)]
        return [.query("SELECT \(columns) FROM orders WHERE id = ?", argument) { found(try decode($0)) }]
            + details.statements(filter: "= ?", argument, on: connection)
    }

    /// The order matching `condition` (on `orders`, at most one row: a unique key) with its lines,
    /// shipments and address, as ``find(_:on:)``.
    static func find(where condition: String, _ arguments: [SQLValue], on connection: some SQLConnection) throws -> Order? {
        var found: Order?
        let details = Details()
        try connection.batch(
            [.query("SELECT \(columns) FROM orders WHERE \(condition)", arguments) { found = try decode($0) }]
            + details.statements(filter: "= (SELECT id FROM orders WHERE \(condition))", arguments, on: connection))
        return found.map(details.complete)
    }


    /// What ``withLines(_:on:)`` reads beside the orders themselves, gathered by the rows of its
    /// queries.
    final class Details {
        var linesByOrder: [OrderID: [OrderLine]] = [:]
        var linesByShipment: [Int64: [Int]] = [:]
        var shipments: [OrderID: [Shipment]] = [:]
        var addresses: [OrderID: DeliveryAddress] = [:]

        /// The three queries that fill this in for the orders whose id matches `filter`
        /// (`= ?`, `IN (…)`), which takes `argument`.
        func statements<Connection: SQLConnection>(
            filter: String, _ argument: [SQLValue], on connection: Connection
        ) -> [SQLStatement<Connection.Row>] {
            [
                .query("""
                    SELECT l.order_id, l.product_id, l.title, l.unit_price, l.quantity, l.delivery_fee, s.seller_id, l.refunded_at,
                           l.shipment_id, l.stock_taken
                    FROM order_lines l LEFT JOIN shipments s ON s.id = l.shipment_id
                    WHERE l.order_id \(filter) ORDER BY l.order_id, l.line
                    """, argument) { row in
                    let orderID = OrderID(row.int64(0))
                    if let shipment = row.optionalInt64(8) {
                        self.linesByShipment[shipment, default: []].append(self.linesByOrder[orderID]?.count ?? 0)
                    }
                    self.linesByOrder[orderID, default: []].append(OrderLine(
                        productID: ProductID(row.int64(1)), title: row.string(2), unitPrice: Money(won: row.int64(3)),
                        quantity: row.int(4), deliveryFee: Money(won: row.int64(5)), sellerID: row.optionalInt64(6).map(UserID.init),
                        refundedAt: StoredTime.date(row.optionalInt64(7)), stockTaken: row.bool(9)))
                },
                .query("SELECT \(ShipmentRow.columns) FROM shipments s WHERE s.order_id \(filter) ORDER BY s.order_id, s.id",
                       argument) { row in
                    let shipment = try ShipmentRow.decode(row)
                    self.shipments[shipment.orderID, default: []].append(shipment)
                },
                .query("""
                    SELECT order_id, recipient, phone, postcode, road_address, detail, request FROM order_addresses
                    WHERE order_id \(filter) AND anonymised_at IS NULL
                    """, argument) { row in
                    self.addresses[OrderID(row.int64(0))] = DeliveryAddress(
                        recipient: row.string(1), phone: row.string(2), postcode: row.string(3), roadAddress: row.string(4),
                        detail: row.string(5), request: row.string(6))
                },
            ]
        }

        /// `order` with what was read for it.
        func complete(_ order: Order) -> Order {
            var order = order
            order.lines = linesByOrder[order.id] ?? []
            order.shipments = (shipments[order.id] ?? []).map { shipment in
                var shipment = shipment
                shipment.lines = linesByShipment[shipment.id.rawValue] ?? []
                return shipment
            }
            order.shippingAddress = addresses[order.id]
            return order
        }
    }

    static let paymentColumns = "id, imp_uid, order_id, merchant_uid, amount, status, created_at"

    /// The payment columns qualified with `p.`, for joins with `orders`; built once.
    static let prefixedPaymentColumns = paymentColumns.split(separator: ",")
        .map { "p." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    static func decodePayment(_ row: some SQLRow) throws -> OrderPayment {
        OrderPayment(
            id: row.int64(0), impUID: row.string(1), orderID: OrderID(row.int64(2)), merchantUID: row.string(3),
            amount: Money(won: row.int64(4)), status: OrderPayment.Status(rawValue: row.string(5)) ?? .paid,
            createdAt: StoredTime.date(row.int64(6)))
    }

    static let refundColumns = """
        id, order_id, amount, checksum, reason, restock, target, status, created_at, request_key, request_fingerprint, \
        shipment_id, refund_lines, includes_fee, requested_by
        """

    static func decodeRefund(_ row: some SQLRow) throws -> Refund {
        Refund(
            id: row.int64(0), orderID: OrderID(row.int64(1)), amount: Money(won: row.int64(2)),
            checksum: Money(won: row.int64(3)), reason: row.string(4), restock: row.bool(5),
            target: OrderStatus(rawValue: row.string(6)) ?? .refunded,
            status: Refund.Status(rawValue: row.string(7)) ?? .pending, createdAt: StoredTime.date(row.int64(8)),
            requestKey: row.optionalString(9), requestFingerprint: row.optionalString(10),
            lineRefund: row.optionalInt64(11).map { shipment in
                LineRefund(shipmentID: ShipmentID(shipment),
                           lines: (row.optionalString(12) ?? "").split(separator: ",").compactMap { Int($0) },
                           includesDeliveryFee: row.bool(13))
            },
            requestedBy: row.optionalString(14))
    }

    /// Gives an order's units back to stock and marks it returned, once, each line's units a
    /// `kind` movement in the ledger. Lines already returned on their own (a line refund with
    /// restock) are not returned twice. `keepingWhatLeft` leaves out the lines whose parcel left
    /// (shipped or delivered): those units are with the carrier or the buyer, so a cancellation
    /// never puts them on sale again; only an explicit restock (the goods came back) does.
    ///
    /// - Returns: how many lines gave their units back.
    @discardableResult
    static func returnStock(of id: OrderID, as kind: StockMovement.Kind, keepingWhatLeft: Bool = false, at now: Date,
                            on connection: some SQLConnection) throws -> Int {
        let marked = try connection.run(
            "UPDATE orders SET stock_returned = 1 WHERE id = ? AND stock_returned = 0", [.integer(id.rawValue)])
        guard marked == 1 else { return 0 }
        return try returnLines(of: id, where: keepingWhatLeft ? unsent : "", [], as: kind, at: now, on: connection)
    }

    /// Whether a refund of order `id` is pending: its outcome at the PG is not known yet, so no
    /// other refund may start and no parcel of it is confirmed (one refund at a time an order).
    static func hasPendingRefund(_ id: OrderID, on connection: some SQLConnection) throws -> Bool {
        try connection.queryOne("SELECT 1 FROM refunds WHERE order_id = ? AND status = 'pending'", [.integer(id.rawValue)]) { _ in true }
            ?? false
    }

    /// The condition (on `order_lines`) of a line whose parcel has not left.
    static let unsent = """
        AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.id = order_lines.shipment_id AND s.status IN ('shipped', 'delivered'))
        """

    /// Gives back the units of the order's lines matching `condition` that took their units and
    /// are not returned yet, marking them returned (a line sold on payment that was never paid
    /// took nothing, so gives nothing back).
    @discardableResult
    static func returnLines(of id: OrderID, where condition: String, _ arguments: [SQLValue], as kind: StockMovement.Kind,
                            at now: Date, on connection: some SQLConnection) throws -> Int {
        let returned = try connection.query("""
            UPDATE order_lines SET stock_returned = 1
            WHERE order_id = ? AND stock_returned = 0 AND stock_taken = 1 \(condition)
            RETURNING product_id, quantity
            """, [.integer(id.rawValue)] + arguments) { (product: ProductID($0.int64(0)), quantity: $0.int(1)) }
        for line in returned {
            try connection.run(
                "UPDATE products SET stock = stock + ?, version = version + 1, updated_at = ? WHERE id = ?",
                [.int(line.quantity), StoredTime.value(now), .integer(line.product.rawValue)])
            try StockLedger.record(kind, change: line.quantity, product: line.product, order: id, at: now, on: connection)
        }
        return returned.count
    }
}
