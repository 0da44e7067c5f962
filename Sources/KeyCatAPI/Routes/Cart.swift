import Foundation
import KeyCat

/// The caller's cart, priced now.
enum CartRoutes {
    static let routes: [Route] = [
        Route(.get, "/cart", .signedIn) { context in
            await .json(CartBody(try context.keycat.cart.cart(of: context.principal())))
        },
        Route(.post, "/cart/items", .signedIn, body: .jsonDefault) { context in
            let body = try context.json(CartAddBody.self)
            let productID = try RequestContext.positiveID(body.productID, field: "product_id")
            let cart = try await context.keycat.cart.add(ProductID(productID), quantity: body.quantity ?? 1, by: context.principal())
            return .json(CartBody(cart))
        },
        Route(.put, "/cart/items/{product_id}", .signedIn, body: .jsonDefault) { context in
            let quantity = try context.json(QuantityBody.self).quantity
            return await .json(CartBody(try context.keycat.cart.set(context.id("product_id"), quantity: quantity, by: context.principal())))
        },
        Route(.delete, "/cart/items/{product_id}", .signedIn) { context in
            await .json(CartBody(try context.keycat.cart.remove(context.id("product_id"), by: context.principal())))
        },
        Route(.delete, "/cart", .signedIn, status: 204) { context in
            try await context.keycat.cart.clear(by: context.principal())
            return .noContent
        },
    ]
}

struct CartAddBody: Decodable, Sendable {
    var productID: Int64
    var quantity: Int?

    enum CodingKeys: String, CodingKey { case productID = "product_id", quantity }
}

struct QuantityBody: Decodable, Sendable {
    var quantity: Int
}
