import Foundation
import KeyCat

/// How orders look on the command line: one JSON shape (snake_case) and one table.
enum OrderOutput {
    static func json(_ order: Order) -> JSONValue {
        .object([
            ("id", .int(order.id.rawValue)),
            ("merchant_uid", .string(order.merchantUID)),
            ("buyer_id", .int(order.buyerID.rawValue)),
            ("status", .string(order.status.rawValue)),
            ("amount", .int(order.amount.won)),
            ("items_total", .int(order.itemsTotal.won)),
            ("delivery_total", .int(order.deliveryTotal.won)),
            ("refunded_amount", .int(order.refundedAmount.won)),
            ("imp_uid", .optional(order.impUID)),
            ("carrier", .optional(order.carrier)),
            ("tracking_number", .optional(order.trackingNumber)),
            ("expires_at", .string(timestamp(order.expiresAt))),
            ("created_at", .string(timestamp(order.createdAt))),
            ("paid_at", .optional(order.paidAt.map(timestamp))),
            ("fulfilment", .string(order.fulfilment.rawValue)),
            ("shipping_address", order.shippingAddress.map(address) ?? .null),
            ("lines", .array(order.lines.map { line in
                .object([
                    ("product_id", .int(line.productID.rawValue)), ("title", .string(line.title)),
                    ("unit_price", .int(line.unitPrice.won)), ("quantity", .int(line.quantity)),
                    ("delivery_fee", .int(line.deliveryFee.won)),
                    ("refunded_at", .optional(line.refundedAt.map(timestamp))),
                ])
            })),
            ("shipments", .array(order.shipments.map(shipment))),
        ])
    }

    static func shipment(_ shipment: Shipment) -> JSONValue {
        .object([
            ("id", .int(shipment.id.rawValue)), ("seller_id", .int(shipment.sellerID.rawValue)),
            ("status", .string(shipment.status.rawValue)), ("delivery_fee", .int(shipment.deliveryFee.won)),
            ("carrier", .optional(shipment.carrier)), ("tracking_number", .optional(shipment.trackingNumber)),
            ("lines", .array(shipment.lines.map { .int(Int64($0)) })),
            ("confirmed_at", .optional(shipment.confirmedAt.map(timestamp))),
            ("carrier_status", .optional(shipment.carrierStatus?.rawValue)),
            ("carrier_delivered_at", .optional(shipment.carrierDeliveredAt.map(timestamp))),
        ])
    }

    static func address(_ address: DeliveryAddress) -> JSONValue {
        .object([
            ("recipient", .string(address.recipient)), ("phone", .string(address.phone)), ("postcode", .string(address.postcode)),
            ("road_address", .string(address.roadAddress)), ("detail", .string(address.detail)), ("request", .string(address.request)),
        ])
    }

    /// A seller's desk: each order as its seller sees it.
    static func json(_ order: SellerOrder) -> JSONValue {
        .object([
            ("order_id", .int(order.orderID.rawValue)), ("merchant_uid", .string(order.merchantUID)),
            ("status", .string(order.status.rawValue)), ("buyer_nick", .string(order.buyerNick)),
            ("shipment", shipment(order.shipment)),
            ("lines", .array(order.lines.map { position, line in
                .object([
                    ("position", .int(Int64(position))), ("product_id", .int(line.productID.rawValue)), ("title", .string(line.title)),
                    ("unit_price", .int(line.unitPrice.won)), ("quantity", .int(line.quantity)),
                    ("refunded_at", .optional(line.refundedAt.map(timestamp))),
                ])
            })),
            ("shipping_address", order.shippingAddress.map(address) ?? .null),
            ("created_at", .string(timestamp(order.createdAt))), ("paid_at", .optional(order.paidAt.map(timestamp))),
        ])
    }

    static func table(_ orders: [SellerOrder]) -> String {
        var table = TextTable(["ORDER", "STATUS", "SHIPMENT", "PARCEL", "LINES", "BUYER", "SHIP TO", "PAID"])
        for order in orders {
            table.append([String(order.orderID.rawValue), order.status.rawValue, String(order.shipment.id.rawValue),
                          order.shipment.status.rawValue + (order.shipment.trackingNumber.map { " \($0)" } ?? ""),
                          order.lines.map { "\($0.line.quantity)×\($0.line.title)" }.joined(separator: ", "),
                          order.buyerNick, order.shippingAddress.map { "\($0.recipient) (\($0.postcode))" } ?? "in person",
                          order.paidAt.map(timestamp) ?? "-"])
        }
        return table.rendered()
    }

    static func table(_ orders: [Order]) -> String {
        var table = TextTable(["ID", "STATUS", "BUYER", "AMOUNT", "REFUNDED", "CREATED", "MERCHANT UID"])
        for order in orders {
            table.append([String(order.id.rawValue), order.status.rawValue, String(order.buyerID.rawValue),
                          order.amount.description, order.refundedAmount.description, timestamp(order.createdAt),
                          order.merchantUID])
        }
        return table.rendered()
    }

    /// One order in detail: its fields, then its lines.
    static func detail(_ order: Order) -> String {
        var text = table([order])
        text += "Fulfilment: \(order.fulfilment.rawValue)\n"
        if let address = order.shippingAddress {
            text += "Ship to: \(address.recipient), \(address.phone), (\(address.postcode)) \(address.roadAddress) \(address.detail)"
                + (address.request.isEmpty ? "" : " — \(address.request)") + "\n"
        }
        var parcels = TextTable(["SHIPMENT", "SELLER", "STATUS", "FEE", "CARRIER", "TRACKING", "CARRIER SAYS", "LINES"])
        for shipment in order.shipments {
            // What the carrier said, when the shop tracks parcels: a dispute's ruling reads it.
            let carrierSays = shipment.carrierDeliveredAt.map { "delivered \(timestamp($0))" } ?? shipment.carrierStatus?.rawValue ?? "-"
            parcels.append([String(shipment.id.rawValue), String(shipment.sellerID.rawValue), shipment.status.rawValue,
                            shipment.deliveryFee.description, shipment.carrier ?? "-", shipment.trackingNumber ?? "-", carrierSays,
                            shipment.lines.map(String.init).joined(separator: ", ")])
        }
        if !order.shipments.isEmpty { text += "\n" + parcels.rendered() }
        var lines = TextTable(["PRODUCT", "TITLE", "UNIT PRICE", "QTY", "DELIVERY"])
        for line in order.lines {
            lines.append([String(line.productID.rawValue), line.title, line.unitPrice.description,
                          String(line.quantity), line.deliveryFee.description])
        }
        return text + "\n" + lines.rendered()
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
    }
}
