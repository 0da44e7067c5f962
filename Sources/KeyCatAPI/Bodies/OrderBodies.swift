import Foundation
import KeyCat

/// The JSON a server answers with for an order: snake_case keys as the KeyCat app expects, money
/// in won, times in ISO 8601 (encode with `JSONEncoder.keycat`).
public struct OrderBody: Encodable, Sendable, Hashable {
    public struct Line: Encodable, Sendable, Hashable {
        public var productID: Int64
        public var title: String
        public var unitPrice: Int64
        public var quantity: Int
        public var deliveryFee: Int64
        public var sellerID: Int64?
        public var refundedAt: Date?
        /// False: the line is sold on payment (its units are taken when the payment arrives).
        public var stockTaken: Bool

        enum CodingKeys: String, CodingKey {
            case productID = "product_id", title, unitPrice = "unit_price", quantity, deliveryFee = "delivery_fee"
            case sellerID = "seller_id", refundedAt = "refunded_at", stockTaken = "stock_taken"
        }
    }

    public var id: Int64
    public var merchantUID: String
    public var status: String
    public var amount: Int64
    public var itemsTotal: Int64
    public var deliveryTotal: Int64
    public var refundedAmount: Int64
    public var expiresAt: Date
    /// When the order was placed: what the order list's `placed_from`/`placed_before` compare.
    public var createdAt: Date
    public var paidAt: Date?
    public var impUID: String?
    public var carrier: String?
    public var trackingNumber: String?
    public var lines: [Line]
    public var shipments: [ShipmentBody]
    public var fulfilment: String
    public var shippingAddress: AddressBody?
    /// While awaiting payment: the parameters of PortOne v1's `IMP.request_pay`, to pass as they are.
    public var paymentRequest: PaymentRequestBody?

    enum CodingKeys: String, CodingKey {
        case id, merchantUID = "merchant_uid", status, amount, itemsTotal = "items_total", deliveryTotal = "delivery_total"
        case refundedAmount = "refunded_amount", expiresAt = "expires_at", paidAt = "paid_at", impUID = "imp_uid"
        case createdAt = "created_at", carrier, trackingNumber = "tracking_number", lines, shipments, fulfilment, shippingAddress = "shipping_address"
        case paymentRequest = "payment_request"
    }

    /// PortOne v1's payment-window parameters for an order awaiting payment (``PaymentWindowRequest``).
    public struct PaymentRequestBody: Encodable, Sendable, Hashable {
        public var merchantUID: String
        public var name: String
        public var amount: Int64
        public var currency: String
        public var buyerName: String?
        public var buyerTel: String?
        public var buyerAddr: String?
        public var buyerPostcode: String?

        enum CodingKeys: String, CodingKey {
            case merchantUID = "merchant_uid", name, amount, currency, buyerName = "buyer_name", buyerTel = "buyer_tel"
            case buyerAddr = "buyer_addr", buyerPostcode = "buyer_postcode"
        }

        init(_ request: PaymentWindowRequest) {
            merchantUID = request.merchantUID
            name = request.name
            amount = request.amount.won
            currency = request.currency
            buyerName = request.buyerName
            buyerTel = request.buyerTel
            buyerAddr = request.buyerAddr
            buyerPostcode = request.buyerPostcode
        }
    }

    public init(_ order: Order) {
        id = order.id.rawValue
        merchantUID = order.merchantUID
        status = order.status.rawValue
        amount = order.amount.won
        itemsTotal = order.itemsTotal.won
        deliveryTotal = order.deliveryTotal.won
        refundedAmount = order.refundedAmount.won
        expiresAt = order.expiresAt
        createdAt = order.createdAt
        paidAt = order.paidAt
        impUID = order.impUID
        carrier = order.carrier
        trackingNumber = order.trackingNumber
        lines = order.lines.map {
            Line(productID: $0.productID.rawValue, title: $0.title, unitPrice: $0.unitPrice.won, quantity: $0.quantity,
                 deliveryFee: $0.deliveryFee.won, sellerID: $0.sellerID?.rawValue, refundedAt: $0.refundedAt,
                 stockTaken: $0.stockTaken)
        }
        shipments = order.shipments.map(ShipmentBody.init)
        fulfilment = order.fulfilment.rawValue
        shippingAddress = order.shippingAddress.map(AddressBody.init)
        paymentRequest = PaymentWindowRequest(order).map(PaymentRequestBody.init)
    }
}

/// The JSON of a buyer's cart, priced now: each line with its product's own `delivery_fee`, and
/// the `parcels` checkout would ship, each charged the highest fee of its lines once, as the
/// order's shipments are; `delivery_total` adds up the parcels.
public struct CartBody: Encodable, Sendable, Hashable {
    public struct Line: Encodable, Sendable, Hashable {
        public var productID: Int64
        public var sellerID: Int64?
        public var title: String
        public var quantity: Int
        public var unitPrice: Int64
        public var lineTotal: Int64
        public var deliveryFee: Int64
        public var stock: Int
        public var available: Bool

        enum CodingKeys: String, CodingKey {
            case productID = "product_id", sellerID = "seller_id", title, quantity, unitPrice = "unit_price", lineTotal = "line_total"
            case deliveryFee = "delivery_fee", stock, available
        }
    }

    /// One seller's available lines, shipped together for one fee.
    public struct Parcel: Encodable, Sendable, Hashable {
        public var sellerID: Int64?
        public var deliveryFee: Int64
        public var productIDs: [Int64]

        enum CodingKeys: String, CodingKey {
            case sellerID = "seller_id", deliveryFee = "delivery_fee", productIDs = "product_ids"
        }
    }

    public var lines: [Line]
    public var parcels: [Parcel]
    public var itemsTotal: Int64
    public var deliveryTotal: Int64
    public var total: Int64

    enum CodingKeys: String, CodingKey {
        case lines, parcels, itemsTotal = "items_total", deliveryTotal = "delivery_total", total
    }

    public init(_ cart: Cart) {
        lines = cart.lines.map {
            Line(productID: $0.productID.rawValue, sellerID: $0.sellerID?.rawValue, title: $0.title, quantity: $0.quantity,
                 unitPrice: $0.unitPrice.won, lineTotal: $0.lineTotal.won, deliveryFee: $0.deliveryFee.won, stock: $0.stock,
                 available: $0.isAvailable)
        }
        parcels = cart.parcels.map { parcel in
            Parcel(sellerID: parcel.sellerID?.rawValue, deliveryFee: parcel.deliveryFee.won,
                   productIDs: parcel.lines.map { cart.lines[$0].productID.rawValue })
        }
        itemsTotal = cart.itemsTotal.won
        deliveryTotal = cart.deliveryTotal.won
        total = cart.total.won
    }
}

extension JSONEncoder {
    /// Sorted keys and ISO 8601 dates: the encoder for KeyCat's response bodies.
    public static var keycat: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

/// The JSON of one refund of an order.
public struct RefundBody: Encodable, Sendable, Hashable {
    public var id: Int64
    public var orderID: Int64
    public var amount: Int64
    public var reason: String
    public var restock: Bool
    /// `pending`, `done` or `failed`.
    public var status: String
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, orderID = "order_id", amount, reason, restock, status, createdAt = "created_at"
    }

    public init(_ refund: Refund) {
        id = refund.id
        orderID = refund.orderID.rawValue
        amount = refund.amount.won
        reason = refund.reason
        restock = refund.restock
        status = refund.status.rawValue
        createdAt = refund.createdAt
    }
}
