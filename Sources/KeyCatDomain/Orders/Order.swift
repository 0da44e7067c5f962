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
    /// Σ delivery fee, one per line.
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
    public var carrier: String?
    public var trackingNumber: String?
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
    /// The product's delivery fee at checkout, charged once per line.
    public var deliveryFee: Money

    public init(productID: ProductID, title: String, unitPrice: Money, quantity: Int, deliveryFee: Money) {
        self.productID = productID
        self.title = title
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.deliveryFee = deliveryFee
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

    public init(id: Int64, orderID: OrderID, amount: Money, checksum: Money, reason: String, restock: Bool,
                target: OrderStatus, status: Status, createdAt: Date, requestKey: String? = nil,
                requestFingerprint: String? = nil) {
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
