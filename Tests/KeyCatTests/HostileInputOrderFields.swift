import Foundation
import KeyCat
import Testing

extension HostileField {
    static let orders: [HostileField] = [
        HostileField(name: "checkout idempotency key") { shop, _ in
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            return HostileField.Probe { text in
                let first = try await shop.shop.checkout(product, by: buyer, key: text)
                let again = try await shop.shop.checkout(product, by: buyer, key: text)
                #expect(again.id == first.id, "a replayed key answers with the first order")
                return nil
            }
        },
        awaitingPayment("confirm imp_uid") { shop, order, buyer, text in
            _ = try await shop.keycat.checkout.confirm(order.id, impUID: text, by: buyer)
            return nil
        },
        awaitingPayment("confirm idempotency key") { shop, order, buyer, text in
            let payment = try shop.shop.pay(order)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, idempotencyKey: text, by: buyer)
            #expect(try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, idempotencyKey: text, by: buyer) == paid)
            return nil
        },
        awaitingPayment("cancel reason") { shop, order, buyer, text in
            _ = try await shop.keycat.orders.cancel(order.id, reason: text, by: buyer)
            return nil
        },
        paid("refund reason") { shop, order, text in
            _ = try await shop.keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: text),
                                                    by: shop.shop.operatorConsole)
            return try await shop.keycat.orders.refunds(of: order.id, by: shop.shop.operatorConsole).last?.reason
        },
        paid("refund idempotency key") { shop, order, text in
            let request = RefundRequest(amount: Money(won: 1_000), reason: "dent", idempotencyKey: text)
            let first = try await shop.keycat.orders.refund(order.id, request, by: shop.shop.operatorConsole)
            #expect(try await shop.keycat.orders.refund(order.id, request, by: shop.shop.operatorConsole) == first)
            return nil
        },
        paid("shipping carrier") { shop, order, text in
            try await shop.keycat.orders.ship(order.id, carrier: text, trackingNumber: "1234", by: shop.shop.operatorConsole).carrier
        },
        paid("tracking number") { shop, order, text in
            try await shop.keycat.orders.ship(order.id, carrier: "CJ", trackingNumber: text, by: shop.shop.operatorConsole).trackingNumber
        },
    ]

    /// A field sent about an order awaiting payment, by its buyer.
    static func awaitingPayment(
        _ name: String, _ send: @escaping @Sendable (SocialShop, Order, Principal, String) async throws -> String?
    ) -> HostileField {
        HostileField(name: name) { shop, _ in
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.shop.checkout(product, by: buyer)
            return HostileField.Probe(send: { text in try await send(shop, order, buyer, text) },
                                      state: { "\(try await shop.keycat.orders.order(order.id, by: buyer))" })
        }
    }

    /// A field an operator sends about a paid order.
    static func paid(_ name: String, _ send: @escaping @Sendable (SocialShop, Order, String) async throws -> String?)
        -> HostileField
    {
        HostileField(name: name) { shop, _ in
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.shop.paidOrder(product, by: buyer)
            return HostileField.Probe(send: { text in try await send(shop, order, text) },
                                      state: { "\(try await shop.keycat.orders.order(order.id, by: buyer))" })
        }
    }
}
