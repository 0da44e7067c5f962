import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// What an operator's refund in full does to stock: the units of parcels that never left come
/// back whatever `restock` says; those of a parcel that left only with it.
@Suite("Refunds in full and stock", .serialized)
struct RefundStockTests {
    @Test("a refund in full without restock gives back the units of the parcel it cancels before it left, not of the one that left",
          arguments: TestStore.allCases)
    func unsentUnitsComeBack(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let sent = try await shop.product(stock: 5, price: 50_000)
            let unsent = try await shop.product(stock: 5, price: 30_000)
            let buyer = try await shop.user(.buyer)
            let placed = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: sent.id, quantity: 2), CheckoutItem(productID: unsent.id, quantity: 3),
            ])), by: buyer)
            let order = try await shop.keycat.checkout.confirm(placed.id, impUID: try shop.pay(placed).impUID, by: buyer)
            let parcel = try #require(order.shipments.first { $0.sellerID == sent.sellerID })
            _ = try await shop.keycat.orders.ship(shipment: parcel.id, carrier: "cj", trackingNumber: "553120261123",
                                                  by: Principal(userID: sent.sellerID, role: .seller))

            let refunded = try await shop.keycat.orders.refund(order.id, RefundRequest(reason: "가게 사정"), by: shop.operatorConsole)
            #expect(refunded.status == .refunded && refunded.refundedAmount == order.amount)
            #expect(refunded.shipments.first { $0.sellerID == unsent.sellerID }?.status == .cancelled)
            // The unsent parcel's 3 units are back on the shelf; the 2 with the carrier are not.
            await #expect(try shop.stock(of: unsent.id) == 5)
            await #expect(try shop.stock(of: sent.id) == 3)
            try await shop.expectHealthy()
        }
    }
}
