import Foundation
import KeyCat

/// Purchase confirmation (구매확정) and returns: the buyer confirms a delivered parcel or asks to
/// return it; its seller (or an operator) approves or rejects the request.
enum ReceiptRoutes {
    static let routes: [Route] = [
        Route(.post, "/shipments/{id}/confirm-receipt", .signedIn) { context in
            let id: ShipmentID = try context.id()
            return await .json(try ShipmentBody(shipment: id, of: try context.keycat.orders.confirmReceipt(of: id, by: context.principal())))
        },
        Route(.post, "/shipments/{id}/returns", .signedIn, body: .jsonDefault, status: 201) { context in
            let reason = try context.json(ReasonBody.self).reason
            let request = try await context.keycat.orders.requestReturn(of: context.id(), reason: reason, by: context.principal())
            return .json(ReturnRequestBody(request), status: 201)
        },
        Route(.get, "/orders/{id}/returns", .signedIn) { context in
            let requests = try await context.keycat.orders.returnRequests(of: context.id(), by: context.principal())
            return .json(PageBody(items: requests.map(ReturnRequestBody.init), nextCursor: nil))
        },
        Route(.get, "/seller/returns", .roles([.seller, .admin]), query: pageQuery + ["status"]) { context in
            let page = try await context.keycat.orders.returnRequests(
                status: try context.choice("status"), limit: context.limit(), cursor: context.cursor(), by: context.principal())
            return .json(PageBody(page, ReturnRequestBody.init))
        },
        // The request as decided, not the order: an order may hold other sellers' parcels, which
        // are none of this seller's business.
        Route(.post, "/returns/{id}/approve", .roles([.seller, .admin]), body: .jsonDefault) { context in
            let body = try context.json(ApproveReturnBody.self)
            let id: ReturnRequestID = try context.id()
            _ = try await context.keycat.orders.approveReturn(id, restock: body.restock ?? false, by: context.principal())
            return await .json(ReturnRequestBody(try context.keycat.orders.returnRequest(id, by: context.principal())))
        },
        Route(.post, "/returns/{id}/reject", .roles([.seller, .admin]), body: .jsonDefault) { context in
            let reason = try context.json(ReasonBody.self).reason
            return await .json(ReturnRequestBody(try context.keycat.orders.rejectReturn(context.id(), reason: reason, by: context.principal())))
        },
        // The buyer's appeal of a seller's rejection; operators rule with approve or reject.
        Route(.post, "/returns/{id}/dispute", .signedIn, body: .jsonDefault) { context in
            let reason = try context.json(ReasonBody.self).reason
            return await .json(ReturnRequestBody(try context.keycat.orders.disputeReturn(context.id(), reason: reason, by: context.principal())))
        },
    ]
}

/// `{"restock": true}` when the goods came back; `{}` when they did not.
struct ApproveReturnBody: Decodable, Sendable {
    var restock: Bool?
}

/// A buyer's return request as JSON.
struct ReturnRequestBody: Encodable, Sendable {
    var id: Int64
    var shipmentID: Int64
    var orderID: Int64
    var sellerID: Int64
    var buyerID: Int64
    var reason: String
    var status: String
    var decision: String?
    var createdAt: Date
    var decidedAt: Date?
    var refundedAt: Date?
    var dispute: String?
    var disputedAt: Date?
    var ruling: String?
    var ruledAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, shipmentID = "shipment_id", orderID = "order_id", sellerID = "seller_id", buyerID = "buyer_id", reason, status
        case decision, createdAt = "created_at", decidedAt = "decided_at", refundedAt = "refunded_at"
        case dispute, disputedAt = "disputed_at", ruling, ruledAt = "ruled_at"
    }

    init(_ request: ReturnRequest) {
        id = request.id.rawValue
        shipmentID = request.shipmentID.rawValue
        orderID = request.orderID.rawValue
        sellerID = request.sellerID.rawValue
        buyerID = request.buyerID.rawValue
        reason = request.reason
        status = request.status.rawValue
        decision = request.decision
        createdAt = request.createdAt
        decidedAt = request.decidedAt
        refundedAt = request.refundedAt
        dispute = request.dispute
        disputedAt = request.disputedAt
        ruling = request.ruling
        ruledAt = request.ruledAt
    }
}
