import Foundation
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// A buyer's cancel over real HTTP, on the example server over each store: one order holds two
/// sellers' parcels; the first is shipped and delivered; the buyer's cancel of the whole order is
/// `409 already_shipped` and changes nothing, their cancel of the pending parcel refunds its lines
/// and fee to that seller's account and gives its units back, and `db check` is clean.
@Suite("A buyer's cancel over real HTTP", .enabled(if: !HTTPTestServerInstance.configured.isEmpty, "\(HTTPTestServer.skipReason)"))
struct HTTPBuyerCancelTests {
    @Test("two sellers, one parcel delivered: the whole cancel is refused, the pending parcel's cancel is its seller's",
          arguments: HTTPTestServerInstance.configured)
    func cancelAfterDelivery(_ server: HTTPTestServerInstance) async throws {
        let client = try server.client()
        let sori = try await HTTPMarketplaceTests.seller(server, client, "sori")
        let other = try await HTTPMarketplaceTests.seller(server, client, "keycaps")
        let switches = try await HTTPMarketplaceTests.listing(sori, "Cancel switches", price: 20_000, fee: 3_000, category: "switch")
        let keycaps = try await HTTPMarketplaceTests.listing(other, "Cancel keycaps", price: 24_300, fee: 2_500, category: "keycap")

        let (minji, confirmed) = try await Self.paidOrder(client, [["product_id": switches, "quantity": 1], ["product_id": keycaps, "quantity": 1]])
        let orderID = try #require(confirmed.int("id"))
        #expect(confirmed.int("amount") == 49_800, "\(confirmed)")
        let shipments = try #require(confirmed["shipments"] as? [[String: Any]])
        func parcel(of seller: HTTPSession) throws -> Int64 {
            try #require(shipments.first { ($0["seller_id"] as? NSNumber)?.int64Value == seller.userID }?["id"] as? NSNumber).int64Value
        }
        let soriParcel = try parcel(of: sori), otherParcel = try parcel(of: other)

        // sori ships and delivers her parcel.
        let shipped = try await sori.send("POST", "/shipments/\(soriParcel)/ship", json: ["carrier": "cj", "tracking_number": parcelNumber(soriParcel)])
        try #require(shipped.status == 200, "\(shipped)")
        let delivered = try await sori.send("POST", "/shipments/\(soriParcel)/deliver")
        try #require(delivered.status == 200, "\(delivered)")

        // The whole cancel: 409 already_shipped, nothing refunded, nothing restocked.
        let whole = try await minji.send("POST", "/orders/\(orderID)/cancel", json: ["reason": "changed my mind"])
        #expect(whole.status == 409 && whole.code == "already_shipped"
                && whole["shipment_id"] as? String == "\(soriParcel)", "\(whole)")
        let unchanged = try await minji.send("GET", "/orders/\(orderID)")
        #expect(unchanged["status"] as? String == "paid" && unchanged.int("refunded_amount") == 0, "\(unchanged)")
        #expect(try await client.send("GET", "/products/\(switches)").int("stock") == 4)

        // Naming the delivered parcel is refused the same way; the pending one is cancelled.
        let named = try await minji.send("POST", "/orders/\(orderID)/cancel", json: ["reason": "x", "shipments": [soriParcel]])
        #expect(named.status == 409 && named.code == "already_shipped", "\(named)")
        let cancelled = try await minji.send("POST", "/orders/\(orderID)/cancel", json: ["reason": "found them cheaper", "shipments": [otherParcel]])
        #expect(cancelled.status == 200 && cancelled["status"] as? String == "partially_refunded"
                && cancelled.int("refunded_amount") == 26_800 && cancelled["fulfilment"] as? String == "delivered", "\(cancelled)")
        #expect(try await client.send("GET", "/products/\(keycaps)").int("stock") == 5)
        #expect(try await client.send("GET", "/products/\(switches)").int("stock") == 4)
        let soriUpcoming = try await sori.send("GET", "/seller/settlements/upcoming")
        let otherUpcoming = try await other.send("GET", "/seller/settlements/upcoming")
        #expect(soriUpcoming.int("refunds") == 0 && otherUpcoming.int("refunds") == 26_800, "\(soriUpcoming) \(otherUpcoming)")

        // minji asks to return sori's delivered parcel before confirming it; sori finds the
        // request on her desk and approves it, the switches back on sale.
        let request = try await minji.send("POST", "/shipments/\(soriParcel)/returns", json: ["reason": "축 하나가 불량이에요"])
        #expect(request.status == 201 && request["status"] as? String == "requested", "\(request)")
        let requestID = try #require(request.int("id"))
        #expect(try await minji.send("POST", "/shipments/\(soriParcel)/confirm-receipt").status == 409)
        let desk = try await sori.send("GET", "/seller/returns?status=requested")
        #expect(desk.items.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [requestID], "\(desk)")
        #expect(try await other.send("POST", "/returns/\(requestID)/approve", json: [:]).status == 404)
        let approved = try await sori.send("POST", "/returns/\(requestID)/approve", json: ["restock": true])
        // The answer is the request, refunded; not the order, whose other parcel is not sori's.
        #expect(approved.status == 200 && approved["status"] as? String == "approved" && approved["refunded_at"] is String
                && approved["refunded_amount"] == nil && approved["lines"] == nil, "\(approved)")
        #expect(try await minji.send("GET", "/orders/\(orderID)").int("refunded_amount") == 26_800 + 20_000)
        #expect(try await client.send("GET", "/products/\(switches)").int("stock") == 5)
        let returns = try await minji.send("GET", "/orders/\(orderID)/returns")
        #expect(returns.items.map { $0["status"] as? String } == ["approved"], "\(returns)")

        let check = try server.admin(["db", "check"])
        #expect(check.status == 0, "\(check.output)")
    }

    /// A new buyer's order of `items`, checked out, paid at the simulator and confirmed: the
    /// buyer and the confirmed order.
    static func paidOrder(_ client: HTTPClient, _ items: [[String: Any]]) async throws -> (HTTPSession, HTTPAnswer) {
        let email = "minji.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": "minji"])
        try #require(signUp.status == 201, "\(signUp)")
        let buyer = try await client.logIn(email, "keycat123")
        let checkout = try await buyer.send("POST", "/checkout", json: [
            "items": items,
            "address": [
                "recipient": "김민지", "phone": "01012345678", "postcode": "06236", "road_address": "서울특별시 강남구 테헤란로 152",
            ],
        ])
        try #require(checkout.status == 201, "\(checkout)")
        let merchantUID = try #require(checkout["merchant_uid"] as? String)
        let paid = try await client.send("POST", "/pg/payments/\(merchantUID)", json: ["card_number": PGTestCard.success.number])
        try #require(paid.status == 200, "\(paid)")
        let confirmed = try await buyer.send("POST", "/orders/\(try #require(checkout.int("id")))/confirm",
                                             json: ["imp_uid": try #require(paid["imp_uid"] as? String)])
        try #require(confirmed.status == 200, "\(confirmed)")
        return (buyer, confirmed)
    }

    @Test("a seller's rejection disputed over HTTP: the seller cannot reject it again, an operator rules with keycat-admin",
          arguments: HTTPTestServerInstance.configured)
    func disputedRejection(_ server: HTTPTestServerInstance) async throws {
        let client = try server.client()
        let sori = try await HTTPMarketplaceTests.seller(server, client, "sori")
        let board = try await HTTPMarketplaceTests.listing(sori, "Dispute board", price: 89_000, fee: 3_000, category: "keyboard")
        let (minji, order) = try await Self.paidOrder(client, [["product_id": board, "quantity": 1]])
        let orderID = try #require(order.int("id"))
        let parcel = try #require((order["shipments"] as? [[String: Any]])?.first?["id"] as? NSNumber).int64Value
        #expect(try await sori.send("POST", "/shipments/\(parcel)/ship", json: ["carrier": "cj", "tracking_number": parcelNumber(parcel)]).status == 200)
        #expect(try await sori.send("POST", "/shipments/\(parcel)/deliver").status == 200)
        let request = try await minji.send("POST", "/shipments/\(parcel)/returns", json: ["reason": "빈 상자가 왔어요"])
        let requestID = try #require(request.int("id"), "\(request)")
        let rejected = try await sori.send("POST", "/returns/\(requestID)/reject", json: ["reason": "정상 발송했습니다"])
        #expect(rejected.status == 200 && rejected["status"] as? String == "rejected", "\(rejected)")

        // Only the order's buyer disputes, with a reason.
        #expect(try await sori.send("POST", "/returns/\(requestID)/dispute", json: ["reason": "x"]).status == 404)
        let empty = try await minji.send("POST", "/returns/\(requestID)/dispute", json: [:])
        #expect(empty.status == 400, "\(empty)")
        let disputed = try await minji.send("POST", "/returns/\(requestID)/dispute", json: ["reason": "송장 조회가 안 돼요"])
        #expect(disputed.status == 200 && disputed["status"] as? String == "disputed" && disputed["dispute"] as? String == "송장 조회가 안 돼요"
                && disputed["decision"] as? String == "정상 발송했습니다" && disputed["disputed_at"] is String, "\(disputed)")
        let again = try await sori.send("POST", "/returns/\(requestID)/reject", json: ["reason": "정상 발송"])
        #expect(again.status == 403 && again.code == "forbidden", "\(again)")
        #expect(try await minji.send("POST", "/shipments/\(parcel)/confirm-receipt").status == 409)
        // The seller still sees it, disputed, on their desk (and may give in).
        let desk = try await sori.send("GET", "/seller/returns?status=disputed")
        #expect(desk.items.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [requestID], "\(desk)")

        // The operators' queue, and their ruling.
        let queue = try server.admin(["returns", "list", "--status", "disputed", "--json"])
        let listed = try JSONSerialization.jsonObject(with: Data(queue.output.utf8)) as? [String: Any]
        let ids = (listed?["items"] as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        #expect(queue.status == 0 && ids?.contains(requestID) == true, "\(queue.output)")
        let ruled = try server.admin(["returns", "reject", "\(requestID)", "--reason", "택배사 배송 완료 확인", "--json"])
        #expect(ruled.status == 0 && ruled.output.contains("택배사 배송 완료 확인"), "\(ruled.output)")
        let returns = try await minji.send("GET", "/orders/\(orderID)/returns")
        #expect(returns.items.first?["status"] as? String == "rejected" && returns.items.first?["ruling"] as? String == "택배사 배송 완료 확인"
                && returns.items.first?["ruled_at"] is String, "\(returns)")
        let final = try await minji.send("POST", "/returns/\(requestID)/dispute", json: ["reason": "다시요"])
        #expect(final.status == 409 && final.code == "illegal_transition", "\(final)")
        #expect(try await minji.send("POST", "/shipments/\(parcel)/confirm-receipt").status == 200)
    }
}
