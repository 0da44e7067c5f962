import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// A tracking number names one parcel (송장 돌려막기 refused), on each store: a seller cannot
/// ship one box and give its number to every order, so that its carrier's delivery stands for
/// them all; one box holding two orders of the same buyer, to the same address, may share it.
@Suite("Tracking numbers", .serialized)
struct TrackingNumberTests {
    static let number = "5531-2026-1123"

    /// A paid order of one unit of `product` for `buyer`, going to `address` (none: the buyer
    /// keeps no address book, an order handed over in person).
    static func order(_ shop: TestShop, _ products: Product..., by buyer: Principal, to address: DeliveryAddress? = nil) async throws -> Order {
        let order = try await shop.keycat.checkout.checkout(
            CheckoutRequest(.items(products.map { CheckoutItem(productID: $0.id, quantity: 1) }), destination: address.map { .inline($0) }),
            by: buyer)
        let payment = try shop.pay(order)
        return try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
    }

    /// A listing of `title` by `seller`, ten in stock.
    static func listing(_ title: String, by seller: Principal, in shop: TestShop) async throws -> Product {
        try await shop.keycat.catalog.create(TestShop.draft(title, price: 100_000) { $0.stock = 10 }, for: seller.userID, by: seller)
    }

    static func ship(_ shop: TestShop, _ order: Order, carrier: String = "cj", number: String = number, by seller: Principal) async throws -> Order {
        try await shop.keycat.orders.ship(shipment: order.shipments[0].id, carrier: carrier, trackingNumber: number, by: seller)
    }

    @Test("another order's number is refused, on any seller's parcel and in a correction; the same digits at another carrier are not",
          arguments: TestStore.allCases)
    func oneNumberOneParcel(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (seller, otherSeller) = (try await shop.user(.seller), try await shop.user(.seller))
            let board = try await Self.listing("Board", by: seller, in: shop)
            let caps = try await Self.listing("Caps", by: otherSeller, in: shop)
            let (first, second) = (try await shop.user(.buyer), try await shop.user(.buyer))
            let shipped = try await Self.ship(shop, try await Self.order(shop, board, by: first), by: seller)
            #expect(shipped.shipments[0].trackingNumber == "553120261123")

            // The seller's next order, to another buyer, with the same box's number.
            let next = try await Self.order(shop, board, by: second)
            let refused = await expectFailure(.duplicate) { try await Self.ship(shop, next, by: seller) }
            #expect(refused?.context["field"] == "tracking_number" && refused?.context["carrier"] == "kr.cjlogistics")
            // Another seller's parcel cannot carry it either.
            let theirs = try await Self.order(shop, caps, by: second)
            await expectFailure(.duplicate) { try await Self.ship(shop, theirs, by: otherSeller) }
            // Nothing moved, nothing audited: both parcels still wait to leave.
            for order in [next, theirs] {
                let now = try await shop.keycat.orders.order(order.id, by: second)
                #expect(now.status == .paid && now.shipments[0].status == .pending && now.shipments[0].trackingNumber == nil)
            }
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.ship"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["shipment:\(shipped.shipments[0].id)"])

            // The same digits at another carrier are another parcel.
            _ = try await Self.ship(shop, next, carrier: "hanjin", by: seller)
            // A correction to the taken number is refused, and the parcel keeps its own.
            _ = try await Self.ship(shop, theirs, number: "4100-2233-4455", by: otherSeller)
            await expectFailure(.duplicate) {
                try await shop.keycat.orders.correctTracking(of: theirs.shipments[0].id, carrier: "cj", trackingNumber: Self.number, by: otherSeller)
            }
            let kept = try await shop.keycat.orders.order(theirs.id, by: second).shipments[0]
            #expect(kept.carrier == "kr.cjlogistics" && kept.trackingNumber == "410022334455" && kept.trackingCorrectedAt == nil)
            // An operator is held to it too.
            let third = try await Self.order(shop, board, by: second)
            await expectFailure(.duplicate) {
                try await shop.keycat.orders.ship(third.id, carrier: "CJ대한통운", trackingNumber: Self.number, by: shop.operatorConsole)
            }
            try await shop.expectHealthy()
        }
    }

    @Test("one box holding two orders of the same buyer to the same address shares its number; another address does not",
          arguments: TestStore.allCases)
    func oneBoxTwoOrders(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (seller, buyer) = (try await shop.user(.seller), try await shop.user(.buyer))
            let board = try await Self.listing("Board", by: seller, in: shop)
            let home = MarketplaceTests.home
            let office = try DeliveryAddress.validated(recipient: home.recipient, phone: home.phone, postcode: "04524",
                                                       roadAddress: "서울특별시 중구 세종대로 110", detail: "3층", request: "")
            let morning = try await Self.order(shop, board, by: buyer, to: home)
            let evening = try await Self.order(shop, board, by: buyer, to: home)
            _ = try await Self.ship(shop, morning, by: seller)
            let together = try await Self.ship(shop, evening, by: seller)
            #expect(together.shipments[0].trackingNumber == "553120261123")
            // The buyer's order to the office is another box.
            let elsewhere = try await Self.order(shop, board, by: buyer, to: office)
            await expectFailure(.duplicate) { try await Self.ship(shop, elsewhere, by: seller) }
            // An order handed over without an address is not the box going to one; two such
            // orders of the buyer may be.
            let inPerson = try await Self.order(shop, board, by: buyer)
            await expectFailure(.duplicate) { try await Self.ship(shop, inPerson, by: seller) }
            _ = try await Self.ship(shop, inPerson, number: "4100-2233-4455", by: seller)
            let alsoInPerson = try await Self.order(shop, board, by: buyer)
            #expect(try await Self.ship(shop, alsoInPerson, number: "4100-2233-4455", by: seller).shipments[0].status == .shipped)
            try await shop.expectHealthy()
        }
    }

    @Test("two sellers' parcels of one order are two boxes: only an operator's move of the whole order shares a number, and all or none ship",
          arguments: TestStore.allCases)
    func oneOrderTwoSellers(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (sellerA, sellerB, buyer) = (try await shop.user(.seller), try await shop.user(.seller), try await shop.user(.buyer))
            let board = try await Self.listing("Board", by: sellerA, in: shop)
            let caps = try await Self.listing("Caps", by: sellerB, in: shop)
            // Seller B cannot borrow seller A's number, which the buyer's order shows.
            let both = try await Self.order(shop, board, caps, by: buyer, to: MarketplaceTests.home)
            let parcelA = try #require(both.shipments.first { $0.sellerID == sellerA.userID })
            let parcelB = try #require(both.shipments.first { $0.sellerID == sellerB.userID })
            _ = try await shop.keycat.orders.ship(shipment: parcelA.id, carrier: "cj", trackingNumber: Self.number, by: sellerA)
            await expectFailure(.duplicate) {
                try await shop.keycat.orders.ship(shipment: parcelB.id, carrier: "cj", trackingNumber: Self.number, by: sellerB)
            }
            // An operator moving a whole order ships its parcels as one box.
            let together = try await Self.order(shop, board, caps, by: buyer)
            let shipped = try await shop.keycat.orders.ship(together.id, carrier: "hanjin", trackingNumber: "4100-2233-4455", by: shop.operatorConsole)
            #expect(shipped.shipments.map(\.trackingNumber) == ["410022334455", "410022334455"] && shipped.status == .shipped)
            // A number another order holds stops the whole order before any parcel of it leaves.
            let held = try await Self.order(shop, board, caps, by: buyer)
            await expectFailure(.duplicate) {
                try await shop.keycat.orders.ship(held.id, carrier: "cj", trackingNumber: Self.number, by: shop.operatorConsole)
            }
            #expect(try await shop.keycat.orders.order(held.id, by: buyer).shipments.allSatisfy { $0.status == .pending })
            try await shop.expectHealthy()
        }
    }

    @Test("a number corrected away is free again; a number a correction gave is held from the correction", arguments: TestStore.allCases)
    func correctedAway(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let board = try await Self.listing("Board", by: seller, in: shop)
            let (first, second) = (try await shop.user(.buyer), try await shop.user(.buyer))
            let mistyped = try await Self.ship(shop, try await Self.order(shop, board, by: first), by: seller)
            let other = try await Self.order(shop, board, by: second)
            await expectFailure(.duplicate) { try await Self.ship(shop, other, by: seller) }
            // Long after it shipped, the first parcel's number is corrected: held from then.
            shop.clock.advance(by: OrderService.trackingNumberMemory - 3_600)
            _ = try await shop.keycat.orders.correctTracking(of: mistyped.shipments[0].id, carrier: "cj", trackingNumber: "4100-2233-4455",
                                                             by: seller)
            #expect(try await Self.ship(shop, other, by: seller).shipments[0].trackingNumber == "553120261123", "the old number is free")
            shop.clock.advance(by: 7_200)
            let third = try await Self.order(shop, board, by: second, to: MarketplaceTests.home)
            await expectFailure(.duplicate) { try await Self.ship(shop, third, number: "4100-2233-4455", by: seller) }
        }
    }

    @Test("a number shipped more than 90 days ago is the carrier's to issue again; longer when untracked parcels wait longer", arguments: TestStore.allCases)
    func recycled(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let board = try await Self.listing("Board", by: seller, in: shop)
            let (first, second) = (try await shop.user(.buyer), try await shop.user(.buyer))
            _ = try await Self.ship(shop, try await Self.order(shop, board, by: first), by: seller)
            let later = try await Self.order(shop, board, by: second)
            shop.clock.advance(by: OrderService.trackingNumberMemory - 60)
            await expectFailure(.duplicate) { try await Self.ship(shop, later, by: seller) }
            shop.clock.advance(by: 120)
            #expect(try await Self.ship(shop, later, by: seller).shipments[0].trackingNumber == "553120261123")
        }
        // A shop whose untracked parcels wait 100 days holds numbers for 128.
        try await TestShop.with(store, configure: { $0.parcelTracker = SimulatedCarriers(); $0.untrackedConfirmationDelay = 100 * 86_400 }) { shop in
            let seller = try await shop.user(.seller)
            let board = try await Self.listing("Board", by: seller, in: shop)
            let (first, second) = (try await shop.user(.buyer), try await shop.user(.buyer))
            _ = try await Self.ship(shop, try await Self.order(shop, board, by: first), by: seller)
            let later = try await Self.order(shop, board, by: second)
            shop.clock.advance(by: 128 * 86_400 - 60)
            await expectFailure(.duplicate) { try await Self.ship(shop, later, by: seller) }
            shop.clock.advance(by: 120)
            #expect(try await Self.ship(shop, later, by: seller).shipments[0].status == .shipped)
        }
    }
}
