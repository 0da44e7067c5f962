import Foundation
import KeyCat

/// Orders after checkout: the caller's list (an operator's: anyone's), one, cancel, and the
/// operators' refund, ship and deliver.
enum OrderRoutes {
    static let routes: [Route] = [
        Route(.get, "/orders", .signedIn, query: pageQuery + ["status", "buyer_id", "seller_id", "placed_from", "placed_before"]) { context in
            let filter = OrderFilter(
                status: try context.choice("status"), buyerID: try context.integer("buyer_id").map(UserID.init),
                sellerID: try context.integer("seller_id").map(UserID.init),
                placedFrom: try context.instant("placed_from"), placedBefore: try context.instant("placed_before"))
            let page = try await context.keycat.orders.list(filter, limit: context.limit(), cursor: context.cursor(), by: context.principal())
            return .json(PageBody(page, OrderBody.init))
        },
        Route(.get, "/orders/{id}", .signedIn) { context in
            await .json(OrderBody(try context.keycat.orders.order(context.id(), by: context.principal())))
        },
        Route(.post, "/orders/{id}/cancel", .signedIn, body: .jsonDefault) { context in
            let body = try context.json(CancelBody.self)
            let order = try await context.keycat.orders.cancel(
                context.id(), reason: body.reason, shipments: body.shipments?.map(ShipmentID.init), by: context.principal())
            return .json(OrderBody(order))
        },
        Route(.get, "/orders/{id}/refunds", .signedIn) { context in
            let refunds = try await context.keycat.orders.refunds(of: context.id(), by: context.principal())
            return .json(PageBody(items: refunds.map(RefundBody.init), nextCursor: nil))
        },
        Route(.post, "/orders/{id}/refund", .admin, body: .jsonDefault) { context in
            let body = try context.json(RefundBody.Request.self)
            let request = RefundRequest(
                amount: body.amount.map(Money.init(won:)), reason: body.reason, restock: body.restock ?? false,
                expectedBalance: body.expectedBalance.map(Money.init(won:)), idempotencyKey: context.idempotencyKey())
            return .json(OrderBody(try await context.keycat.orders.refund(context.id(), request, by: context.principal())))
        },
        Route(.post, "/orders/{id}/ship", .admin, body: .jsonDefault) { context in
            let body = try context.json(ShipBody.self)
            let order = try await context.keycat.orders.ship(
                context.id(), carrier: body.carrier, trackingNumber: body.trackingNumber, by: context.principal())
            return .json(OrderBody(order))
        },
        Route(.post, "/orders/{id}/deliver", .admin) { context in
            await .json(OrderBody(try context.keycat.orders.deliver(context.id(), by: context.principal())))
        },
    ]
}

extension RefundBody {
    /// An operator's refund: the whole balance when `amount` is left out.
    struct Request: Decodable, Sendable {
        var amount: Int64?
        var reason: String
        var restock: Bool?
        var expectedBalance: Int64?

        enum CodingKeys: String, CodingKey { case amount, reason, restock, expectedBalance = "expected_balance" }
    }
}

/// `{"reason": "...", "shipments": [7, 9]}`: a buyer's cancel, of the whole order when
/// `shipments` is left out, else of the named parcels still pending.
struct CancelBody: Decodable, Sendable {
    var reason: String
    var shipments: [Int64]?
}

struct ShipBody: Decodable, Sendable {
    var carrier: String
    var trackingNumber: String

    enum CodingKeys: String, CodingKey { case carrier, trackingNumber = "tracking_number" }
}
