import Foundation
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// The marketplace over real HTTP, on the example server over each store: two sellers and a
/// buyer, a cart holding both sellers' products, checkout to a saved address, payment in the
/// simulator's window; each seller's desk shows only their lines (and where they go), a third
/// seller sees nothing; one seller ships, the other refunds a line, both deliver, the first gives
/// back part of their parcel's value; each seller's
/// upcoming settlement is traced to the payment and refund rows, the operator's dry run of the
/// month agrees, and `db check` is clean.
@Suite("The marketplace over real HTTP", .enabled(if: !HTTPTestServerInstance.configured.isEmpty, "\(HTTPTestServer.skipReason)"))
struct HTTPMarketplaceTests {
    static let password = "keycat-seller-1"

    /// A verified seller made by the operator with `keycat-admin users create`, logged in.
    static func seller(_ server: HTTPTestServerInstance, _ client: HTTPClient, _ name: String) async throws -> HTTPSession {
        let email = "\(name).\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let made = try server.admin(["users", "create", "--email", email, "--nick", name, "--role", "seller"], input: password + "\n")
        try #require(made.status == 0, "\(made.output)")
        return try await client.logIn(email, password)
    }

    static func listing(_ seller: HTTPSession, _ title: String, price: Int, fee: Int, category: String) async throws -> Int64 {
        var product = HTTPJourneyTests.product(title: title, price: price, stock: 5, category: category)
        product["delivery_fee"] = fee
        let created = try await seller.send("POST", "/products", json: product)
        try #require(created.status == 201, "\(created)")
        return try #require(created.int("id"))
    }

    /// The month now in Korea, as settlement periods are named.
    static var currentPeriod: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 9 * 3600)!
        let parts = calendar.dateComponents([.year, .month], from: Date())
        return String(format: "%04d-%02d", parts.year!, parts.month!)
    }

    @Test("two sellers' parcels from one cart: desks, a partial shipment, a line refund, delivery, the settlement traced",
          arguments: HTTPTestServerInstance.configured)
    func journey(_ server: HTTPTestServerInstance) async throws {
        let client = try server.client()
        let sellerA = try await Self.seller(server, client, "seller-a")
        let sellerB = try await Self.seller(server, client, "seller-b")
        let stranger = try await Self.seller(server, client, "seller-c")
        let board = try await Self.listing(sellerA, "Marketplace board", price: 100_000, fee: 3_000, category: "keyboard")
        let caps = try await Self.listing(sellerB, "Marketplace caps", price: 20_000, fee: 2_500, category: "keycap")
        let switches = try await Self.listing(sellerB, "Marketplace switches", price: 10_000, fee: 3_000, category: "switch")

        // The buyer saves an address; a malformed one is refused and nothing is saved.
        let email = "buyer.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = try await client.send("POST", "/users", json: ["email": email, "password": "keycat123", "nick": "mina"])
        try #require(signUp.status == 201, "\(signUp)")
        let buyer = try await client.logIn(email, "keycat123")
        let bad = try await buyer.send("POST", "/me/addresses", json: [
            "recipient": "김민아", "phone": "010-1234-567", "postcode": "06236", "road_address": "서울특별시 강남구 테헤란로 152",
        ])
        #expect(bad.status == 400 && bad.code == "validation" && bad["field"] as? String == "phone", "\(bad)")
        let saved = try await buyer.send("POST", "/me/addresses", json: [
            "recipient": "김민아", "phone": "01012345678", "postcode": "06236", "road_address": "서울특별시 강남구 테헤란로 152",
            "detail": "12층 1201호", "request": "문 앞에 놓아 주세요",
        ])
        try #require(saved.status == 201 && saved["is_default"] as? Bool == true && saved["phone"] as? String == "010-1234-5678",
                     "\(saved)")
        let book = try await buyer.send("GET", "/me/addresses")
        #expect(book.items.count == 1, "\(book)")
        #expect(try await sellerA.send("GET", "/me/addresses").items.isEmpty)

        // One cart, both sellers' products; checkout to the saved address.
        for (product, quantity) in [(board, 1), (caps, 2), (switches, 1)] {
            let added = try await buyer.send("POST", "/cart/items", json: ["product_id": product, "quantity": quantity])
            try #require(added.status == 200, "\(added)")
        }
        let checkout = try await buyer.send("POST", "/checkout", json: ["address_id": try #require(saved.int("id"))])
        try #require(checkout.status == 201, "\(checkout)")
        let orderID = try #require(checkout.int("id"))
        // One fee per seller: A's 3,000; B's two lines bundled at the higher of 2,500 and 3,000.
        #expect(checkout.int("delivery_total") == 6_000 && checkout.int("amount") == 156_000, "\(checkout)")
        let shipments = try #require(checkout["shipments"] as? [[String: Any]])
        #expect(Set(shipments.compactMap { ($0["seller_id"] as? NSNumber)?.int64Value }) == [sellerA.userID, sellerB.userID])
        #expect((checkout["shipping_address"] as? [String: Any])?["detail"] as? String == "12층 1201호", "\(checkout)")
        // PortOne v1's window parameters, to pass as they are: the server's amount, the buyer fields.
        let window = try #require(checkout["payment_request"] as? [String: Any], "\(checkout)")
        #expect(window["amount"] as? Int == 156_000 && window["merchant_uid"] as? String == checkout["merchant_uid"] as? String)
        #expect(window["buyer_tel"] as? String == "010-1234-5678" && window["buyer_postcode"] as? String == "06236"
                && window["buyer_name"] as? String == "김민아" && window["currency"] as? String == "KRW", "\(window)")

        // Pay in the simulator's window, then confirm.
        let merchantUID = try #require(checkout["merchant_uid"] as? String)
        let paid = try await client.send("POST", "/pg/payments/\(merchantUID)", json: ["card_number": PGTestCard.success.number])
        try #require(paid.status == 200 && paid["status"] as? String == "paid", "\(paid)")
        let confirmed = try await buyer.send("POST", "/orders/\(orderID)/confirm", json: ["imp_uid": try #require(paid["imp_uid"] as? String)])
        #expect(confirmed.status == 200 && confirmed["status"] as? String == "paid" && confirmed["fulfilment"] as? String == "unfulfilled"
                && confirmed["payment_request"] == nil, "\(confirmed)")

        // Each desk holds only its seller's lines, the address and the buyer's nick; a third
        // seller's desk is empty and their hands off both parcels.
        let deskA = try await sellerA.send("GET", "/seller/orders").items
        let deskB = try await sellerB.send("GET", "/seller/orders").items
        try #require(deskA.count == 1 && deskB.count == 1, "\(deskA) \(deskB)")
        #expect((deskA[0]["lines"] as? [[String: Any]])?.compactMap { ($0["product_id"] as? NSNumber)?.int64Value } == [board])
        #expect(Set((deskB[0]["lines"] as? [[String: Any]])?.compactMap { ($0["product_id"] as? NSNumber)?.int64Value } ?? [])
            == [caps, switches])
        #expect((deskA[0]["shipping_address"] as? [String: Any])?["road_address"] as? String == "서울특별시 강남구 테헤란로 152")
        #expect(deskA[0]["buyer_nick"] as? String == "mina" && deskA[0]["buyer_email"] == nil)
        #expect(try await stranger.send("GET", "/seller/orders").items.isEmpty)
        let shipmentA = try #require((deskA[0]["shipment"] as? [String: Any])?["id"] as? NSNumber).int64Value
        let shipmentB = try #require((deskB[0]["shipment"] as? [String: Any])?["id"] as? NSNumber).int64Value
        let numberA = parcelNumber(shipmentA), numberB = parcelNumber(shipmentB, prefix: "4123")
        let tracking: [String: Any] = ["carrier": "CJ대한통운", "tracking_number": numberA]
        let foreign = try await stranger.send("POST", "/shipments/\(shipmentA)/ship", json: tracking)
        #expect(foreign.status == 404, "\(foreign)")
        let crossed = try await sellerB.send("POST", "/shipments/\(shipmentA)/ship", json: tracking)
        #expect(crossed.status == 404, "\(crossed)")
        let badNumber = try await sellerA.send("POST", "/shipments/\(shipmentA)/ship", json: ["carrier": "CJ대한통운", "tracking_number": "12"])
        #expect(badNumber.status == 400 && badNumber.code == "validation" && badNumber["field"] as? String == "tracking_number", "\(badNumber)")

        // A ships: the order is partly shipped.
        let shippedA = try await sellerA.send("POST", "/shipments/\(shipmentA)/ship", json: tracking)
        #expect(shippedA.status == 200 && shippedA["status"] as? String == "shipped" && shippedA["tracking_number"] as? String == numberA,
                "\(shippedA)")
        let partly = try await buyer.send("GET", "/orders/\(orderID)")
        #expect(partly["status"] as? String == "paid" && partly["fulfilment"] as? String == "partially_shipped", "\(partly)")
        // A mistyped the number: corrected (송장 수정), by its seller only, checked as when shipping.
        let correction: [String: Any] = ["carrier": "한진", "tracking_number": parcelNumber(shipmentA, prefix: "4123")]
        #expect(try await sellerB.send("PUT", "/shipments/\(shipmentA)/tracking", json: correction).status == 404)
        #expect(try await buyer.send("PUT", "/shipments/\(shipmentA)/tracking", json: correction).status == 403)
        let badCorrection = try await sellerA.send("PUT", "/shipments/\(shipmentA)/tracking", json: ["carrier": "한진", "tracking_number": "1"])
        #expect(badCorrection.status == 400 && badCorrection["field"] as? String == "tracking_number", "\(badCorrection)")
        let corrected = try await sellerA.send("PUT", "/shipments/\(shipmentA)/tracking", json: correction)
        #expect(corrected.status == 200 && corrected["carrier"] as? String == "kr.hanjin" && corrected["tracking_number"] as? String == correction["tracking_number"] as? String
                && corrected["status"] as? String == "shipped", "\(corrected)")
        #expect(try await sellerB.send("PUT", "/shipments/\(shipmentB)/tracking", json: correction).status == 409, "B's parcel has not left")

        // B refunds the switches line before shipping it; refunding it again is refused.
        let lines = try #require(checkout["lines"] as? [[String: Any]])
        let switchesLine = try #require(lines.firstIndex { ($0["product_id"] as? NSNumber)?.int64Value == switches })
        let refund: [String: Any] = ["lines": [switchesLine], "reason": "out of that colour", "restock": true]
        let refunded = try await sellerB.send("POST", "/shipments/\(shipmentB)/refund", json: refund)
        #expect(refunded.status == 200, "\(refunded)")
        let again = try await sellerB.send("POST", "/shipments/\(shipmentB)/refund", json: refund)
        #expect(again.status == 409, "\(again)")
        let restocked = try await client.send("GET", "/products/\(switches)")
        #expect(restocked["stock"] as? Int == 5, "\(restocked)")

        // B ships, both parcels arrive.
        let shippedB = try await sellerB.send("POST", "/shipments/\(shipmentB)/ship", json: ["carrier": "kr.hanjin", "tracking_number": numberB])
        #expect(shippedB.status == 200, "\(shippedB)")
        for (seller, shipment) in [(sellerA, shipmentA), (sellerB, shipmentB)] {
            let delivered = try await seller.send("POST", "/shipments/\(shipment)/deliver")
            #expect(delivered.status == 200 && delivered["status"] as? String == "delivered", "\(delivered)")
        }
        // A's board arrived scuffed and the buyer keeps it: A gives back part of the parcel's value.
        let both = try await sellerA.send("POST", "/shipments/\(shipmentA)/refund", json: ["amount": 5_000, "lines": [0], "reason": "scuffed"])
        #expect(both.status == 400 && both.code == "validation", "\(both)")
        let compensated = try await sellerA.send("POST", "/shipments/\(shipmentA)/refund", json: ["amount": 5_000, "reason": "scuffed corner, kept"])
        #expect(compensated.status == 200, "\(compensated)")
        let done = try await buyer.send("GET", "/orders/\(orderID)")
        #expect(done["status"] as? String == "partially_refunded" && done["fulfilment"] as? String == "delivered"
                && done.int("refunded_amount") == 15_000, "\(done)")

        // Nothing is payable before the buyer confirms receipt (구매확정): A's figures wait for it.
        let waiting = try await sellerA.send("GET", "/seller/settlements/upcoming")
        #expect(waiting.int("payout") == 0 && (waiting["awaiting_confirmation"] as? [String: Any])?["payout"] as? Int == 88_200,
                "\(waiting)")
        // Only the buyer (or an operator) confirms; the buyer confirms both parcels.
        #expect(try await stranger.send("POST", "/shipments/\(shipmentA)/confirm-receipt").status == 404)
        for shipment in [shipmentA, shipmentB] {
            let received = try await buyer.send("POST", "/shipments/\(shipment)/confirm-receipt")
            #expect(received.status == 200 && received["confirmed_at"] != nil, "\(received)")
        }

        // Each seller's upcoming settlement, traced to the payment and the refund.
        let upcomingA = try await sellerA.send("GET", "/seller/settlements/upcoming")
        let upcomingB = try await sellerB.send("GET", "/seller/settlements/upcoming")
        // A: 100,000 sold + 3,000 fee − 5,000 given back − 10 % of the 95,000 kept and of the fee.
        #expect(upcomingA.int("sales") == 100_000 && upcomingA.int("delivery_fees") == 3_000 && upcomingA.int("refunds") == 5_000
                && upcomingA.int("commission") == 9_800 && upcomingA.int("payout") == 88_200, "\(upcomingA)")
        // B: 50,000 sold + 3,000 fee − 10,000 refunded − 10 % of the 40,000 kept and of the fee.
        #expect(upcomingB.int("sales") == 50_000 && upcomingB.int("refunds") == 10_000 && upcomingB.int("commission") == 4_300
                && upcomingB.int("payout") == 38_700, "\(upcomingB)")
        let entries = (upcomingA["entries"] as? [[String: Any]] ?? []) + (upcomingB["entries"] as? [[String: Any]] ?? [])
        #expect(entries.count == 7 && entries.allSatisfy { ($0["order_id"] as? NSNumber)?.int64Value == orderID }, "\(entries)")
        let sales = entries.filter { $0["kind"] as? String == "sale" }, refunds = entries.filter { $0["kind"] as? String == "refund" }
        #expect(sales.count == 5 && Set(sales.compactMap { ($0["payment_id"] as? NSNumber)?.int64Value }).count == 1, "\(sales)")
        #expect(refunds.count == 2 && Set(refunds.compactMap { ($0["refund_id"] as? NSNumber)?.int64Value }).count == 2
                && Set(refunds.compactMap { $0["amount"] as? Int }) == [5_000, 10_000], "\(refunds)")
        let payouts = [upcomingA, upcomingB].compactMap { $0.int("payout") }.reduce(0, +)
        let commissions = [upcomingA, upcomingB].compactMap { $0.int("commission") }.reduce(0, +)
        #expect(payouts + commissions == 156_000 - 15_000)
        let nothing = try await stranger.send("GET", "/seller/settlements/upcoming")
        #expect(nothing.int("payout") == 0 && nothing.int("entry_count") == 0, "\(nothing)")
        // Nobody owes anything from earlier settlements yet.
        #expect([upcomingA, upcomingB, nothing].allSatisfy { $0.int("brought_forward") == 0 && $0.int("carried_forward") == 0 })
        #expect(try await buyer.send("GET", "/seller/settlements/upcoming").status == 403)

        // The operator's dry run of the month so far agrees, and the database is consistent.
        let dryRun = try server.admin(["settlements", "run", "--period", Self.currentPeriod, "--dry-run", "--json"])
        #expect(dryRun.status == 0, "\(dryRun.output)")
        let items = (try? JSONSerialization.jsonObject(with: Data(dryRun.output.utf8)) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        for (seller, payout) in [(sellerA.userID, 88_200), (sellerB.userID, 38_700)] {
            let item = items.first { ($0["seller_id"] as? NSNumber)?.int64Value == seller }
            #expect(item?["payout"] as? Int == payout && item?["brought_forward"] as? Int == 0 && item?["carried_forward"] as? Int == 0,
                    "\(dryRun.output.prefix(2_000))")
        }
        let check = try server.admin(["db", "check"])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("a tracking number on another order's parcel is 409 duplicate, when shipping and when correcting",
          arguments: HTTPTestServerInstance.configured)
    func numberNamesOneParcel(_ server: HTTPTestServerInstance) async throws {
        let client = try server.client()
        let seller = try await Self.seller(server, client, "hana")
        let board = try await Self.listing(seller, "One box board", price: 59_000, fee: 3_000, category: "keyboard")
        var parcels: [Int64] = []
        for _ in 0..<2 {
            let (_, order) = try await HTTPBuyerCancelTests.paidOrder(client, [["product_id": board, "quantity": 1]])
            parcels.append(try #require((order["shipments"] as? [[String: Any]])?.first?["id"] as? NSNumber).int64Value)
        }
        let first: [String: Any] = ["carrier": "cj", "tracking_number": parcelNumber(parcels[0])]
        #expect(try await seller.send("POST", "/shipments/\(parcels[0])/ship", json: first).status == 200)
        let taken = try await seller.send("POST", "/shipments/\(parcels[1])/ship", json: first)
        #expect(taken.status == 409 && taken.code == "duplicate" && taken["field"] as? String == "tracking_number", "\(taken)")
        #expect(try await seller.send("POST", "/shipments/\(parcels[1])/ship",
                                      json: ["carrier": "cj", "tracking_number": parcelNumber(parcels[1])]).status == 200)
        let corrected = try await seller.send("PUT", "/shipments/\(parcels[1])/tracking", json: first)
        #expect(corrected.status == 409 && corrected.code == "duplicate" && corrected["field"] as? String == "tracking_number", "\(corrected)")
    }
}
