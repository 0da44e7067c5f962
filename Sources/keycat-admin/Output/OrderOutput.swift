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
            ("lines", .array(order.lines.map { line in
                .object([
                    ("product_id", .int(line.productID.rawValue)), ("title", .string(line.title)),
                    ("unit_price", .int(line.unitPrice.won)), ("quantity", .int(line.quantity)),
                    ("delivery_fee", .int(line.deliveryFee.won)),
                ])
            })),
        ])
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
        if let carrier = order.carrier { text += "Shipped with \(carrier), tracking \(order.trackingNumber ?? "-")\n" }
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
