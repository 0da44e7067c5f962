import Foundation
import KeyCat

/// The marketplace's half: the caller's address book, a seller's desk and their shipments, and
/// a seller's settlements.
enum FulfilmentRoutes {
    static let routes: [Route] = [
        Route(.get, "/me/addresses", .signedIn) { context in
            let addresses = try await context.keycat.addresses.list(by: context.principal())
            return .json(PageBody(items: addresses.map(AddressBody.init), nextCursor: nil))
        },
        Route(.post, "/me/addresses", .signedIn, body: .jsonDefault, status: 201) { context in
            let body = try context.json(AddressForm.self)
            let saved = try await context.keycat.addresses.add(try body.address(), makeDefault: body.isDefault ?? false, by: context.principal())
            return .json(AddressBody(saved), status: 201)  // no Location: an address has no GET of its own
        },
        Route(.patch, "/me/addresses/{id}", .signedIn, body: .jsonDefault) { context in
            let changes = try context.json(AddressChangesBody.self).changes
            return await .json(AddressBody(try context.keycat.addresses.update(context.id(), changes, by: context.principal())))
        },
        Route(.delete, "/me/addresses/{id}", .signedIn, status: 204) { context in
            try await context.keycat.addresses.delete(context.id(), by: context.principal())
            return .noContent
        },
        Route(.get, "/seller/orders", .roles([.seller, .admin]), query: pageQuery + ["status"]) { context in
            let page = try await context.keycat.orders.sellerOrders(
                status: try context.choice("status"), limit: context.limit(), cursor: context.cursor(), by: context.principal())
            return .json(PageBody(page, SellerOrderBody.init))
        },
        Route(.post, "/shipments/{id}/ship", .roles([.seller, .admin]), body: .jsonDefault) { context in
            let body = try context.json(ShipBody.self)
            let id: ShipmentID = try context.id()
            let order = try await context.keycat.orders.ship(shipment: id, carrier: body.carrier, trackingNumber: body.trackingNumber,
                                                             by: context.principal())
            return .json(try ShipmentBody(shipment: id, of: order))
        },
        Route(.put, "/shipments/{id}/tracking", .roles([.seller, .admin]), body: .jsonDefault) { context in
            let body = try context.json(ShipBody.self)
            let id: ShipmentID = try context.id()
            let order = try await context.keycat.orders.correctTracking(of: id, carrier: body.carrier, trackingNumber: body.trackingNumber,
                                                                        by: context.principal())
            return .json(try ShipmentBody(shipment: id, of: order))
        },
        Route(.post, "/shipments/{id}/deliver", .roles([.seller, .admin])) { context in
            let id: ShipmentID = try context.id()
            return await .json(try ShipmentBody(shipment: id, of: try context.keycat.orders.deliver(shipment: id, by: context.principal())))
        },
        Route(.post, "/shipments/{id}/refund", .roles([.seller, .admin]), body: .jsonDefault) { context in
            let body = try context.json(LineRefundBody.self)
            let id: ShipmentID = try context.id()
            let request = LineRefundRequest(lines: body.lines, amount: body.amount.map(Money.init(won:)), reason: body.reason, restock: body.restock,
                                            idempotencyKey: context.idempotencyKey())
            return .json(try ShipmentBody(shipment: id, of: try await context.keycat.orders.refundLines(of: id, request, by: context.principal())))
        },
        Route(.get, "/seller/settlements", .roles([.seller, .admin]), query: pageQuery + ["period"]) { context in
            let period = try context.query("period").map { text throws(KeyCatError) in try SettlementPeriod(text) }
            let page = try await context.keycat.settlements.list(period: period, limit: context.limit(), cursor: context.cursor(),
                                                                 by: context.principal())
            return .json(PageBody(page) { SettlementBody($0) })
        },
        Route(.get, "/seller/settlements/upcoming", .roles([.seller, .admin]), query: ["seller_id"]) { context in
            let upcoming = try await context.keycat.settlements.upcoming(seller: context.integer("seller_id").map(UserID.init),
                                                                         by: context.principal())
            return .json(UpcomingSettlementBody(upcoming))
        },
        Route(.get, "/seller/settlements/{id}", .roles([.seller, .admin])) { context in
            let (settlement, entries) = try await context.keycat.settlements.settlement(context.id(), by: context.principal())
            return .json(SettlementBody(settlement, entries: entries))
        },
    ]
}

extension ShipmentBody {
    /// Shipment `id` as `order` holds it after a move.
    init(shipment id: ShipmentID, of order: Order) throws(KeyCatError) {
        guard let shipment = order.shipments.first(where: { $0.id == id }) else { throw KeyCatError.notFound("shipment", id) }
        self.init(shipment)
    }
}

/// A new address: `{"recipient", "phone", "postcode", "road_address", "detail"?, "request"?, "is_default"?}`.
struct AddressForm: Decodable, Sendable {
    var recipient: String
    var phone: String
    var postcode: String
    var roadAddress: String
    var detail: String?
    var request: String?
    var isDefault: Bool?

    enum CodingKeys: String, CodingKey {
        case recipient, phone, postcode, roadAddress = "road_address", detail, request, isDefault = "is_default"
    }

    func address() throws(KeyCatError) -> DeliveryAddress {
        try DeliveryAddress.validated(recipient: recipient, phone: phone, postcode: postcode, roadAddress: roadAddress,
                                      detail: detail ?? "", request: request ?? "")
    }
}

/// An address's changes: any of the fields, each checked as on creation.
struct AddressChangesBody: Decodable, Sendable, JSONClosedObject {
    var recipient: String?
    var phone: String?
    var postcode: String?
    var roadAddress: String?
    var detail: String?
    var request: String?
    var isDefault: Bool?

    static var members: Set<String> { members(of: CodingKeys.self) }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case recipient, phone, postcode, roadAddress = "road_address", detail, request, isDefault = "is_default"
    }

    var changes: AddressChanges {
        AddressChanges(recipient: recipient, phone: phone, postcode: postcode, roadAddress: roadAddress, detail: detail,
                       request: request, isDefault: isDefault)
    }
}

/// A seller's refund of their parcel: `{"lines"?: [0, 2], "amount"?: 5000, "reason": "…", "restock"?: true}`.
struct LineRefundBody: Decodable, Sendable {
    var lines: [Int]?
    var amount: Int64?
    var reason: String
    var restock: Bool?
}

/// An order as its seller sees it on the desk: their lines and parcel, where it goes, and the
/// buyer by nick.
struct SellerOrderBody: Encodable, Sendable {
    struct Line: Encodable, Sendable {
        var position: Int
        var productID: Int64
        var title: String
        var unitPrice: Int64
        var quantity: Int
        var refundedAt: Date?

        enum CodingKeys: String, CodingKey {
            case position, productID = "product_id", title, unitPrice = "unit_price", quantity, refundedAt = "refunded_at"
        }
    }

    var orderID: Int64
    var merchantUID: String
    var status: String
    var buyerNick: String
    var shipment: ShipmentBody
    var lines: [Line]
    var shippingAddress: AddressBody?
    var createdAt: Date
    var paidAt: Date?

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id", merchantUID = "merchant_uid", status, buyerNick = "buyer_nick", shipment, lines
        case shippingAddress = "shipping_address", createdAt = "created_at", paidAt = "paid_at"
    }

    init(_ order: SellerOrder) {
        orderID = order.orderID.rawValue
        merchantUID = order.merchantUID
        status = order.status.rawValue
        buyerNick = order.buyerNick
        shipment = ShipmentBody(order.shipment)
        lines = order.lines.map {
            Line(position: $0.position, productID: $0.line.productID.rawValue, title: $0.line.title,
                 unitPrice: $0.line.unitPrice.won, quantity: $0.line.quantity, refundedAt: $0.line.refundedAt)
        }
        shippingAddress = order.shippingAddress.map(AddressBody.init)
        createdAt = order.createdAt
        paidAt = order.paidAt
    }
}

/// A settlement, with the entries it adds up when shown alone.
struct SettlementBody: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        var id: Int64
        var kind: String
        var orderID: Int64
        var shipmentID: Int64
        var line: Int?
        var paymentID: Int64?
        var refundID: Int64?
        var category: String?
        var amount: Int64
        var commission: Int64?
        var occurredAt: Date
        /// In an upcoming settlement: whether the next close pays it (its parcel confirmed).
        var payable: Bool?

        enum CodingKeys: String, CodingKey {
            case id, kind, orderID = "order_id", shipmentID = "shipment_id", line, paymentID = "payment_id", refundID = "refund_id"
            case category, amount, commission, occurredAt = "occurred_at", payable
        }
    }

    var id: Int64
    var period: String
    var sellerID: Int64
    var sales: Int64
    var deliveryFees: Int64
    var refunds: Int64
    var commission: Int64
    var broughtForward: Int64
    var payout: Int64
    var carriedForward: Int64
    var entryCount: Int
    var createdAt: Date
    var entries: [Entry]?

    enum CodingKeys: String, CodingKey {
        case id, period, sellerID = "seller_id", sales, deliveryFees = "delivery_fees", refunds, commission
        case broughtForward = "brought_forward", payout, carriedForward = "carried_forward"
        case entryCount = "entry_count", createdAt = "created_at", entries
    }

    init(_ settlement: Settlement, entries: [SettlementEntry]? = nil) {
        self.entries = entries?.map(Entry.init)
        id = settlement.id.rawValue
        period = settlement.period
        sellerID = settlement.sellerID.rawValue
        sales = settlement.sales.won
        deliveryFees = settlement.deliveryFees.won
        refunds = settlement.refunds.won
        commission = settlement.commission.won
        broughtForward = settlement.broughtForward.won
        payout = settlement.payout.won
        carriedForward = settlement.carriedForward.won
        entryCount = settlement.entryCount
        createdAt = settlement.createdAt
    }
}

extension SettlementBody.Entry {
    init(_ entry: SettlementEntry) {
        self.init(id: entry.id, kind: entry.kind.rawValue, orderID: entry.orderID.rawValue, shipmentID: entry.shipmentID.rawValue,
                  line: entry.line, paymentID: entry.paymentID, refundID: entry.refundID, category: entry.category?.rawValue,
                  amount: entry.amount.won, commission: entry.commission?.won, occurredAt: entry.occurredAt)
    }
}

/// What a seller has earned that no closed period settled yet, and the entries behind it.
struct UpcomingSettlementBody: Encodable, Sendable {
    var sellerID: Int64
    var asOf: Date
    var sales: Int64
    var deliveryFees: Int64
    var refunds: Int64
    var commission: Int64
    var broughtForward: Int64
    var payout: Int64
    var carriedForward: Int64
    var entryCount: Int
    var awaitingConfirmation: Tally
    var entries: [SettlementBody.Entry]

    /// The figures of what waits for purchase confirmation.
    struct Tally: Encodable, Sendable {
        var sales, deliveryFees, refunds, commission, payout: Int64
        var entryCount: Int

        enum CodingKeys: String, CodingKey {
            case sales, deliveryFees = "delivery_fees", refunds, commission, payout, entryCount = "entry_count"
        }

        init(_ tally: SettlementTally) {
            (sales, deliveryFees, refunds, commission, payout) = (tally.sales, tally.deliveryFees, tally.refunds, tally.commission, tally.payout)
            entryCount = tally.entryCount
        }
    }

    enum CodingKeys: String, CodingKey {
        case sellerID = "seller_id", asOf = "as_of", sales, deliveryFees = "delivery_fees", refunds, commission
        case broughtForward = "brought_forward", payout, carriedForward = "carried_forward"
        case entryCount = "entry_count", awaitingConfirmation = "awaiting_confirmation", entries
    }

    init(_ upcoming: UpcomingSettlement) {
        sellerID = upcoming.sellerID.rawValue
        asOf = upcoming.asOf
        sales = upcoming.tally.sales
        deliveryFees = upcoming.tally.deliveryFees
        refunds = upcoming.tally.refunds
        commission = upcoming.tally.commission
        // What the next close would pay: the payable entries less what the seller owes.
        let balance = upcoming.balance
        (broughtForward, payout, carriedForward) = (balance.broughtForward, balance.payout, balance.carriedForward)
        entryCount = upcoming.tally.entryCount
        awaitingConfirmation = Tally(upcoming.awaitingConfirmation)
        entries = upcoming.entries.map { entry in
            var body = SettlementBody.Entry(entry)
            body.payable = upcoming.payableEntryIDs.contains(entry.id)
            return body
        }
    }
}
