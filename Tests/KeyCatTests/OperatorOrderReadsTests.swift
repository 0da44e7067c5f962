import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// An order holds its buyer's name, phone and address: an operator's reads of orders are
/// recorded as accounts' are (`personal_data.read`), the buyer's and the seller's own are not.
@Suite("Operators' reads of orders", .serialized)
struct OperatorOrderReadsTests {
    @Test("an operator's read of an order, a page of orders and a seller's desk are recorded by whom and whose; the buyer's and seller's are not",
          arguments: TestStore.allCases)
    func recorded(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let admin = try await shop.user(.admin)
            let board = try await keycat.catalog.create(TestShop.draft("보드", price: 100_000) { $0.stock = 5 }, for: seller.userID, by: seller)
            let home = try DeliveryAddress.validated(recipient: "김민아", phone: "01012345678", postcode: "06236",
                                                     roadAddress: "서울특별시 강남구 테헤란로 152", detail: "12층", request: "")
            let placed = try await keycat.checkout.checkout(
                CheckoutRequest(.items([CheckoutItem(productID: board.id, quantity: 1)]), destination: .inline(home)), by: buyer)
            let order = try await keycat.checkout.confirm(placed.id, impUID: try shop.pay(placed).impUID, by: buyer)
            func reads() async throws -> [AuditEntry] {
                try await keycat.auditLog.recent(limit: 100).filter { $0.action == "personal_data.read" }.reversed()
            }

            // The buyer's own reads and the seller's desk record nothing.
            _ = try await keycat.orders.order(order.id, by: buyer)
            _ = try await keycat.orders.list(by: buyer)
            _ = try await keycat.orders.sellerOrders(by: seller)
            // Nor does what hangs off an order, which shows none of the address.
            _ = try await keycat.orders.refunds(of: order.id, by: admin)
            _ = try await keycat.orders.payments(of: order.id, by: admin)
            #expect(try await reads().isEmpty)

            _ = try await keycat.orders.order(order.id, by: admin)
            _ = try await keycat.orders.list(by: shop.operatorConsole)
            _ = try await keycat.orders.sellerOrders(of: seller.userID, by: admin)
            let recorded = try await reads()
            #expect(recorded.map(\.target) == ["order:\(order.id)", "orders", "orders"], "\(recorded)")
            #expect(recorded.map(\.detail) == ["order", "list: \(order.id)", "seller \(seller.userID)'s desk: \(order.id)"])
            #expect(recorded.map(\.actor) == [admin.auditActor, shop.operatorConsole.auditActor, admin.auditActor])
            #expect(!recorded.contains { $0.detail.contains("김민아") || $0.detail.contains("010") })
        }
    }
}
