import Foundation

/// A buyer's order: lines with titles and unit prices snapshotted at checkout, the amount the
/// server computed, and where it is in the state machine.
public struct Order: Sendable, Hashable, Codable, Identifiable {
    public var id: OrderID
    /// Our id of the order at the PG: unique, at most 40 characters.
    public var merchantUID: String
    public var buyerID: UserID
    public var lines: [OrderLine]
    /// Σ unit price × quantity.
    public var itemsTotal: Money
    /// Σ of the shipments' delivery fees (one per seller: ``Shipment/bundledFee(of:)``).
    public var deliveryTotal: Money
    /// What the buyer must pay: items plus delivery.
    public var amount: Money
    public var status: OrderStatus
    /// Until when the stock is held for payment.
    public var expiresAt: Date
    /// What has been refunded so far.
    public var refundedAmount: Money
    /// Whether the order's stock was given back (expired, cancelled, failed, refunded with restock).
    public var stockReturned: Bool
    /// The PG payment that paid it.
    public var impUID: String?
    /// The carrier of the shipment that left last (each shipment has its own: ``shipments``).
    public var carrier: String?
    /// The tracking number of the shipment that left last.
    public var trackingNumber: String?
    /// The lines grouped by seller, one parcel each.
    public var shipments: [Shipment] = []
    /// Where it goes: a copy of the address at checkout, which later edits of the address book
    /// never change. Nil for an order made before addresses, and blanked when anonymised.
    public var shippingAddress: DeliveryAddress?
    public var createdAt: Date
    public var updatedAt: Date
    public var paidAt: Date?

    public init(
        id: OrderID, merchantUID: String, buyerID: UserID, lines: [OrderLine], itemsTotal: Money,
        deliveryTotal: Money, amount: Money, status: OrderStatus, expiresAt: Date, refundedAmount: Money = .zero,
        stockReturned: Bool = false, impUID: String? = nil, carrier: String? = nil, trackingNumber: String? = nil,
        createdAt: Date, updatedAt: Date, paidAt: Date? = nil
    ) {
        self.id = id
        self.merchantUID = merchantUID
        self.buyerID = buyerID
        self.lines = lines
        self.itemsTotal = itemsTotal
        self.deliveryTotal = deliveryTotal
        self.amount = amount
        self.status = status
        self.expiresAt = expiresAt
        self.refundedAmount = refundedAmount
        self.stockReturned = stockReturned
        self.impUID = impUID
        self.carrier = carrier
        self.trackingNumber = trackingNumber
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.paidAt = paidAt
    }

    /// Where the goods are, from ``shipments`` (``Fulfilment/of(_:)``).
    public var fulfilment: Fulfilment { Fulfilment.of(shipments.map(\.status)) }

    /// What can still be refunded: the PG checksum of the next cancel.
    public var refundableAmount: Money {
        status.holdsPayment ? Money(won: amount.won - refundedAmount.won) : .zero
    }
}

/// One product in an order, as it was at checkout.
public struct OrderLine: Sendable, Hashable, Codable {
    public var productID: ProductID
    /// The product's title at checkout.
    public var title: String
    /// The selling price at checkout.
    public var unitPrice: Money
    public var quantity: Int
    /// The product's delivery fee at checkout (its shipment charges the highest of its lines').
    public var deliveryFee: Money
    /// The listing's seller (nil on lines read without it).
    public var sellerID: UserID?
    /// When the line was refunded on its own (a seller's line refund), else nil.
    public var refundedAt: Date?
    /// Whether the line's units are out of stock for its order: at checkout, held for the buyer
    /// until the reservation ends. False: the line is sold on payment (the product was held by
    /// unpaid orders up to its cap, ``StockHoldPolicy``), its units taken when the payment
    /// arrives; every line of a paid order took its units.
    public var stockTaken: Bool

    public init(productID: ProductID, title: String, unitPrice: Money, quantity: Int, deliveryFee: Money,
                sellerID: UserID? = nil, refundedAt: Date? = nil, stockTaken: Bool = true) {
        self.productID = productID
        self.title = title
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.deliveryFee = deliveryFee
        self.sellerID = sellerID
        self.refundedAt = refundedAt
        self.stockTaken = stockTaken
    }

    enum CodingKeys: String, CodingKey {
        case productID, title, unitPrice, quantity, deliveryFee, sellerID, refundedAt, stockTaken
    }

    /// Decodes a line; one stored before lines could be sold on payment took its stock.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(productID: try container.decode(ProductID.self, forKey: .productID),
                  title: try container.decode(String.self, forKey: .title),
                  unitPrice: try container.decode(Money.self, forKey: .unitPrice),
                  quantity: try container.decode(Int.self, forKey: .quantity),
                  deliveryFee: try container.decode(Money.self, forKey: .deliveryFee),
                  sellerID: try container.decodeIfPresent(UserID.self, forKey: .sellerID),
                  refundedAt: try container.decodeIfPresent(Date.self, forKey: .refundedAt),
                  stockTaken: try container.decodeIfPresent(Bool.self, forKey: .stockTaken) ?? true)
    }

    /// Unit price × quantity.
    public func total() throws(KeyCatError) -> Money { try unitPrice * quantity }
}

/// A payment recorded against an order, one per PG `impUID`.
public struct OrderPayment: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// It pays for its order.
        case paid
        /// It pays for nothing (forged amount, or paid after the order closed): being cancelled at the PG.
        case voiding
        /// Cancelled at the PG after `voiding`.
        case voided
    }

    /// The row id, in recording order (0 before it is recorded).
    public var id: Int64
    public var impUID: String
    public var orderID: OrderID
    public var merchantUID: String
    public var amount: Money
    public var status: Status
    public var createdAt: Date

    public init(id: Int64 = 0, impUID: String, orderID: OrderID, merchantUID: String, amount: Money, status: Status, createdAt: Date) {
        self.id = id
        self.impUID = impUID
        self.orderID = orderID
        self.merchantUID = merchantUID
        self.amount = amount
        self.status = status
        self.createdAt = createdAt
    }
}

/// A refund of all or part of an order's payment.
public struct Refund: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// Sent (or about to be) to the PG; its answer is not recorded yet.
        case pending
        case done
        case failed
    }

    public var id: Int64
    public var orderID: OrderID
    public var amount: Money
    /// The cancellable balance sent to the PG with it.
    public var checksum: Money
    public var reason: String
    public var restock: Bool
    /// The status the order takes when the refund succeeds.
    public var target: OrderStatus
    public var status: Status
    public var createdAt: Date
    /// The idempotency key the refund was asked with, kept with it so a retry settles this
    /// refund instead of starting another.
    public var requestKey: String?
    /// What the request asked for (order, amount, restock, reason), to refuse the same key with
    /// another request.
    public var requestFingerprint: String?
    /// For a seller's line refund: the shipment whose lines it refunds, and which ones (their
    /// positions in the order). Nil for a refund of the order's balance.
    public var lineRefund: LineRefund?
    /// Who asked for it, as the audit log names actors (`admin:3`, `buyer:7`, `seller:2`,
    /// `cli:ops`): the refund's failure or its completion by reconciliation is recorded under
    /// that name. Nil for refunds recorded before 2026-12-02.
    public var requestedBy: String?

    public init(id: Int64, orderID: OrderID, amount: Money, checksum: Money, reason: String, restock: Bool,
                target: OrderStatus, status: Status, createdAt: Date, requestKey: String? = nil,
                requestFingerprint: String? = nil, lineRefund: LineRefund? = nil, requestedBy: String? = nil) {
        self.lineRefund = lineRefund
        self.requestedBy = requestedBy
        self.id = id
        self.orderID = orderID
        self.amount = amount
        self.checksum = checksum
        self.reason = reason
        self.restock = restock
        self.target = target
        self.status = status
        self.createdAt = createdAt
        self.requestKey = requestKey
        self.requestFingerprint = requestFingerprint
    }

    /// The idempotency key the PG cancel carries, so a lost answer can be retried safely.
    public var gatewayKey: String { "refund-\(orderID)-\(id)" }
}

/// What a line refund gives back: some lines of one shipment, and its delivery fee when the
/// refund leaves the shipment with no line to send (the parcel never goes).
public struct LineRefund: Sendable, Hashable, Codable {
    public var shipmentID: ShipmentID
    /// Positions in the order's lines; empty for a part of the shipment's value.
    public var lines: [Int]
    /// Whether the shipment's delivery fee is part of the refund.
    public var includesDeliveryFee: Bool

    public init(shipmentID: ShipmentID, lines: [Int], includesDeliveryFee: Bool) {
        self.shipmentID = shipmentID
        self.lines = lines
        self.includesDeliveryFee = includesDeliveryFee
    }
}

/// What a buyer's app passes to PortOne v1's payment window (`IMP.request_pay`) for an order
/// awaiting payment, named as v1 names them: the order's `merchant_uid` and amount (never the
/// app's own sum), a name for the payment, and the buyer fields taken from the order's shipping
/// address, which PGs show on the receipt and use for risk checks. The PG's prepare call
/// (`POST /payments/prepare`) takes only `merchant_uid` and `amount` in v1; the rest travels with
/// the window request.
public struct PaymentWindowRequest: Sendable, Hashable {
    /// The longest payment name: PGs cut longer ones, some refuse them.
    public static let nameLimit = 40

    public var merchantUID: String
    /// The first line's title, with `외 N건` for the other lines, at most ``nameLimit`` characters.
    public var name: String
    public var amount: Money
    public var currency = "KRW"
    public var buyerName: String?
    public var buyerTel: String?
    public var buyerAddr: String?
    public var buyerPostcode: String?

    /// The request for `order`, or nil once it no longer awaits payment.
    public init?(_ order: Order) {
        guard order.status == .awaitingPayment, let first = order.lines.first else { return nil }
        merchantUID = order.merchantUID
        amount = order.amount
        let others = order.lines.count - 1
        let suffix = others > 0 ? " 외 \(others)건" : ""
        let room = Self.nameLimit - suffix.count
        name = (first.title.count > room ? String(first.title.prefix(room - 1)) + "…" : first.title) + suffix
        if let address = order.shippingAddress {
            buyerName = address.recipient
            buyerTel = address.phone
            buyerAddr = [address.roadAddress, address.detail].filter { !$0.isEmpty }.joined(separator: " ")
            buyerPostcode = address.postcode
        }
    }
}
