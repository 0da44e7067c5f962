import Foundation
import KeyCat

/// Checkout (the cart, or the items given) with an `Idempotency-Key`, and payment confirmation
/// after the buyer paid at the PG.
enum CheckoutRoutes {
    static let routes: [Route] = [
        Route(.post, "/checkout", .signedIn, body: .jsonDefault, status: 201) { context in
            let body = try context.json(CheckoutBody.self)
            var source = CheckoutRequest.Source.cart
            if let items = body.items {
                var checked: [CheckoutItem] = []
                for (index, item) in items.enumerated() {
                    let productID = try RequestContext.positiveID(item.productID, field: "items.\(index).product_id")
                    checked.append(CheckoutItem(productID: ProductID(productID), quantity: item.quantity))
                }
                source = .items(checked)
            }
            // Both are checked when both are sent; the saved address wins.
            let inline = try body.address?.address()
            let saved = try body.addressID.map { id throws(KeyCatError) in AddressID(try RequestContext.positiveID(id, field: "address_id")) }
            let destination = saved.map(CheckoutRequest.Destination.saved) ?? inline.map(CheckoutRequest.Destination.inline)
            let order = try await context.keycat.checkout.checkout(
                CheckoutRequest(source, destination: destination, idempotencyKey: context.idempotencyKey()), by: context.principal())
            return .json(OrderBody(order), status: 201).located(at: "/orders/\(order.id)")
        },
        Route(.post, "/orders/{id}/confirm", .signedIn, body: .jsonDefault) { context in
            let impUID = try context.json(ConfirmBody.self).impUID
            let order = try await context.keycat.checkout.confirm(
                context.id(), impUID: impUID, idempotencyKey: context.idempotencyKey(), by: context.principal())
            return .json(OrderBody(order))
        },
    ]
}

/// `{"items": [{"product_id": 7, "quantity": 2}]}`, or no `items` to check out the cart.
struct CheckoutBody: Decodable, Sendable {
    struct Item: Decodable, Sendable {
        var productID: Int64
        var quantity: Int

        enum CodingKeys: String, CodingKey { case productID = "product_id", quantity }
    }

    var items: [Item]?
    /// An entry of the buyer's address book; or `address`, given inline; or neither, for the
    /// default. Both are checked when both are given, and `address_id` wins.
    var addressID: Int64?
    var address: AddressForm?

    enum CodingKeys: String, CodingKey { case items, addressID = "address_id", address }
}

struct ConfirmBody: Decodable, Sendable {
    var impUID: String

    enum CodingKeys: String, CodingKey { case impUID = "imp_uid" }
}
