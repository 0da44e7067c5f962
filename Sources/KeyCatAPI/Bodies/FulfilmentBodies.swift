import Foundation
import KeyCat

/// The JSON of a delivery address (an address-book entry, or an order's copy).
public struct AddressBody: Encodable, Sendable, Hashable {
    public var id: Int64?
    public var recipient: String
    public var phone: String
    public var postcode: String
    public var roadAddress: String
    public var detail: String
    public var request: String
    public var isDefault: Bool?

    enum CodingKeys: String, CodingKey {
        case id, recipient, phone, postcode, roadAddress = "road_address", detail, request, isDefault = "is_default"
    }

    public init(_ address: DeliveryAddress) {
        recipient = address.recipient
        phone = address.phone
        postcode = address.postcode
        roadAddress = address.roadAddress
        detail = address.detail
        request = address.request
    }

    public init(_ saved: SavedAddress) {
        self.init(saved.address)
        id = saved.id.rawValue
        isDefault = saved.isDefault
    }
}

/// The JSON of one seller's parcel of an order.
public struct ShipmentBody: Encodable, Sendable, Hashable {
    public var id: Int64
    public var orderID: Int64
    public var sellerID: Int64
    public var status: String
    public var deliveryFee: Int64
    public var carrier: String?
    public var trackingNumber: String?
    /// Positions in the order's `lines`.
    public var lines: [Int]
    public var shippedAt: Date?
    public var deliveredAt: Date?
    /// When receipt was confirmed (구매확정).
    public var confirmedAt: Date?
    /// What its carrier last said (`not_found`, `in_transit`, `delivered`), when the shop tracks
    /// parcels; absent until the carrier was asked.
    public var carrierStatus: String?
    /// When its carrier says it was delivered.
    public var carrierDeliveredAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, orderID = "order_id", sellerID = "seller_id", status, deliveryFee = "delivery_fee", carrier
        case trackingNumber = "tracking_number", lines, shippedAt = "shipped_at", deliveredAt = "delivered_at"
        case confirmedAt = "confirmed_at", carrierStatus = "carrier_status", carrierDeliveredAt = "carrier_delivered_at"
    }

    public init(_ shipment: Shipment) {
        id = shipment.id.rawValue
        orderID = shipment.orderID.rawValue
        sellerID = shipment.sellerID.rawValue
        status = shipment.status.rawValue
        deliveryFee = shipment.deliveryFee.won
        carrier = shipment.carrier
        trackingNumber = shipment.trackingNumber
        lines = shipment.lines
        shippedAt = shipment.shippedAt
        deliveredAt = shipment.deliveredAt
        confirmedAt = shipment.confirmedAt
        carrierStatus = shipment.carrierStatus?.rawValue
        carrierDeliveredAt = shipment.carrierDeliveredAt
    }
}
