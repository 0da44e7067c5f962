import Foundation
import KeyCat
@testable import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The other bodies ``JSONWriter`` writes — orders, carts, reviews, bookmarks, follows — against
/// `JSONEncoder.keycat`: the same bytes, with every optional field present and absent.
struct ResponseBodiesJSONTests {
    static let now = ProductBodyJSONTests.now

    /// `body` written by the writer and encoded by `JSONEncoder.keycat`, as text.
    static func both(_ body: some JSONWritable) throws -> (new: String, old: String) {
        var writer = JSONWriter()
        body.write(to: &writer)
        return (String(decoding: writer.bytes, as: UTF8.self), String(decoding: try JSONEncoder.keycat.encode(body), as: UTF8.self))
    }

    static func order(paid: Bool) -> Order {
        var order = Order(
            id: OrderID(rawValue: 31), merchantUID: "kc-20251123-0031", buyerID: UserID(rawValue: 5),
            lines: [OrderLine(productID: ProductID(rawValue: 42), title: "Tofu65 \"Crème\" ⌨️", unitPrice: Money(won: 159_000),
                              quantity: 2, deliveryFee: Money(won: 3_000)),
                    OrderLine(productID: ProductID(rawValue: 43), title: "GMK 키캡\n세트", unitPrice: Money(won: 99_000),
                              quantity: 1, deliveryFee: .zero)],
            itemsTotal: Money(won: 417_000), deliveryTotal: Money(won: 3_000), amount: Money(won: 420_000),
            status: paid ? .shipped : .awaitingPayment, expiresAt: now.addingTimeInterval(900.5),
            refundedAmount: paid ? Money(won: 1_000) : .zero, impUID: paid ? "imp_123/456" : nil,
            carrier: paid ? "CJ대한통운" : nil, trackingNumber: paid ? "6012-3456-7890" : nil,
            createdAt: now, updatedAt: now, paidAt: paid ? now.addingTimeInterval(60) : nil)
        if paid {
            // Every field of a parcel, its carrier's word included.
            order.shipments = [Shipment(
                id: ShipmentID(rawValue: 7), orderID: order.id, sellerID: UserID(rawValue: 9), status: .delivered,
                deliveryFee: Money(won: 3_000), carrier: "kr.cjlogistics", trackingNumber: "601234567890", lines: [0, 1],
                shippedAt: now.addingTimeInterval(120), deliveredAt: now.addingTimeInterval(86_400.25),
                confirmedAt: now.addingTimeInterval(90_000), carrierStatus: .delivered, carrierDeliveredAt: now.addingTimeInterval(86_000.5))]
        }
        return order
    }

    @Test("orders, with and without payment and shipping, are written as JSONEncoder.keycat encodes them",
          arguments: [false, true])
    func orders(paid: Bool) throws {
        let (new, old) = try Self.both(OrderBody(Self.order(paid: paid)))
        #expect(new == old)
        let (newPage, oldPage) = try Self.both(PageBody(items: [OrderBody(Self.order(paid: paid))], nextCursor: "abc"))
        #expect(newPage == oldPage)
    }

    @Test("reviews are written as JSONEncoder.keycat encodes them")
    func reviews() throws {
        let review = Review(id: ReviewID(rawValue: 8), productID: ProductID(rawValue: 42), authorID: UserID(rawValue: 5),
                            authorNick: "키캣 😺", rating: 4, content: "Smooth \\ thocky\t\"good\"\u{0}", createdAt: Self.now)
        let (new, old) = try Self.both(PageBody(items: [ReviewBody(review), ReviewBody(review)], nextCursor: nil))
        #expect(new == old)
    }

    @Test("bookmarks, of a live and of a deleted listing, are written as JSONEncoder.keycat encodes them")
    func bookmarks() throws {
        var deleted = ProductBodyJSONTests.product(discountEndsAt: Self.now.addingTimeInterval(60), ratings: (1, 5))
        deleted.deletedAt = Self.now
        let bookmarks = [Bookmark(id: 1, product: ProductBodyJSONTests.product(), bookmarkedAt: Self.now),
                         Bookmark(id: 2, product: deleted, bookmarkedAt: Self.now.addingTimeInterval(-86_400))]
        let (new, old) = try Self.both(PageBody(items: bookmarks.map { BookmarkBody($0, at: Self.now) }, nextCursor: "next"))
        #expect(new == old)
        #expect(new.contains(#""product_deleted":true"#) && new.contains(#""product_deleted":false"#))
    }

    @Test("follow entries, with and without a profile image, and follow counts are written as JSONEncoder.keycat encodes them")
    func follows() throws {
        let entries = [FollowEntry(id: 1, userID: UserID(rawValue: 9), nick: "nick", profileImage: "https://example.com/a.png",
                                   isWithdrawn: false, followedAt: Self.now),
                       FollowEntry(id: 2, userID: UserID(rawValue: 10), nick: "탈퇴", profileImage: nil, isWithdrawn: true,
                                   followedAt: Self.now)]
        let (new, old) = try Self.both(PageBody(items: entries.map(FollowEntryBody.init), nextCursor: nil))
        #expect(new == old)
        let (newCounts, oldCounts) = try Self.both(FollowCountsBody(FollowCounts(followers: 12, following: 0)))
        #expect(newCounts == oldCounts)
    }

    @Test("a cart, with an available and an unavailable line, answers the bytes JSONEncoder.keycat gives",
          arguments: TestStore.allCases)
    func cart(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let first = try await server.product(price: 30_000, stock: 5)
            let second = try await server.product(price: 12_500, stock: 1, title: "Keycaps \"SA\" / 키캡 🎹")
            let buyer = try await server.signedIn(.buyer, "buyer")
            try await server.send("POST", "/cart/items", json: ["product_id": first, "quantity": 2], token: buyer.token)
            try await server.send("POST", "/cart/items", json: ["product_id": second, "quantity": 1], token: buyer.token)
            // Sold out behind the cart: the line stays, unavailable.
            let admin = try await server.signedIn(.admin, "admin")
            let principal = try await server.keycat.accounts.authenticate(accessToken: admin.token)
            var changes = await ProductChanges(expectedVersion: try server.keycat.catalog.product(ProductID(rawValue: second)).version)
            changes.stock = 0
            _ = try await server.keycat.catalog.update(ProductID(rawValue: second), changes, by: principal)

            let answer = await server.api.respond(to: APIRequest(
                method: "GET", target: "/cart", headers: ["Authorization": "Bearer \(buyer.token)"]))
            let cart = try await server.keycat.cart.cart(of: server.keycat.accounts.authenticate(accessToken: buyer.token))
            #expect(cart.lines.count == 2 && cart.lines.contains { !$0.isAvailable })
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == String(decoding: try JSONEncoder.keycat.encode(CartBody(cart)), as: UTF8.self))
        }
    }
}
