import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// The operators' order queue filtered by seller and by placing window, alone and with the
/// status, paged by cursor: the same answers from every store.
@Suite("Orders filtered by seller and placing time, on every store")
struct OrderFilterContractTests {
    /// Nine orders an hour apart from ``start``: order `i` holds seller A's lines when `i % 3`
    /// is 0 or 2, seller B's when it is 1 or 2; odd ones are cancelled.
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("by seller: every order holding their parcel, newest first, across pages of two", arguments: Backend.allCases)
    func bySeller(_ backend: Backend) async throws {
        try await withOrders(backend) { shop in
            let expected = shop.placed.filter { $0.sellers.contains(shop.sellerB) }.map(\.id).reversed()
            let ofB = try await shop.walk(OrderFilter(sellerID: shop.sellerB), pageSize: 2)
            #expect(ofB == Array(expected))
            let first = try await shop.service.list(OrderFilter(sellerID: shop.sellerA), limit: PageLimit(2), by: shop.admin)
            #expect(first.items.map(\.id) == [8, 6].map(shop.id))
            // A seller's orders come whole: the other seller's lines too.
            #expect(first.items[0].lines.count == 2)
        }
    }

    @Test("by placing window: [from, before), to the millisecond, across pages", arguments: Backend.allCases)
    func byWindow(_ backend: Backend) async throws {
        try await withOrders(backend) { shop in
            let filter = OrderFilter(placedFrom: hours(2), placedBefore: hours(6))
            let inWindow = try await shop.walk(filter, pageSize: 3)
            #expect(inWindow == [5, 4, 3, 2].map(shop.id))
            // The bounds are instants: one millisecond either side moves an order in or out.
            let edges = OrderFilter(placedFrom: hours(2).addingTimeInterval(0.001), placedBefore: hours(6).addingTimeInterval(0.001))
            let shifted = try await shop.walk(edges, pageSize: 10)
            #expect(shifted == [6, 5, 4, 3].map(shop.id))
            let beforeFirstHour = try await shop.walk(OrderFilter(placedBefore: hours(1)), pageSize: 10)
            #expect(beforeFirstHour == [shop.id(0)])
            let fromSeventhHour = try await shop.walk(OrderFilter(placedFrom: hours(7)), pageSize: 10)
            #expect(fromSeventhHour == [8, 7].map(shop.id))
        }
    }

    @Test("seller, window and status together, and with the buyer", arguments: Backend.allCases)
    func combined(_ backend: Backend) async throws {
        try await withOrders(backend) { shop in
            let cancelledOfB = OrderFilter(status: .cancelled, sellerID: shop.sellerB, placedFrom: hours(1), placedBefore: hours(8))
            let cancelledOfBFound = try await shop.walk(cancelledOfB, pageSize: 1)
            #expect(cancelledOfBFound == [7, 5, 1].map(shop.id))
            let awaitingOfA = OrderFilter(status: .awaitingPayment, buyerID: shop.buyer, sellerID: shop.sellerA, placedFrom: hours(3))
            let awaitingOfAFound = try await shop.walk(awaitingOfA, pageSize: 2)
            #expect(awaitingOfAFound == [8, 6].map(shop.id))
            #expect(try await shop.walk(OrderFilter(buyerID: UserID(999_999), sellerID: shop.sellerA), pageSize: 5).isEmpty)
        }
    }

    @Test("an unknown seller, or a window with no orders, is an empty last page", arguments: Backend.allCases)
    func empty(_ backend: Backend) async throws {
        try await withOrders(backend) { shop in
            for filter in [OrderFilter(sellerID: UserID(999_999)), OrderFilter(placedFrom: hours(100)),
                           OrderFilter(sellerID: shop.sellerA, placedBefore: hours(-1))] {
                let page = try await shop.service.list(filter, by: shop.admin)
                #expect(page.items.isEmpty && page.nextCursor == nil)
            }
        }
    }

    @Test("a cursor is refused under any other seller, window or status", arguments: Backend.allCases)
    func cursorBoundToFilter(_ backend: Backend) async throws {
        try await withOrders(backend) { shop in
            let filter = OrderFilter(sellerID: shop.sellerA, placedFrom: hours(0), placedBefore: hours(9))
            let page = try await shop.service.list(filter, limit: PageLimit(1), by: shop.admin)
            let cursor = try #require(page.nextCursor)
            var others: [OrderFilter] = [OrderFilter(), OrderFilter(sellerID: shop.sellerB)]
            var later = filter
            later.placedFrom = hours(1)
            var shorter = filter
            shorter.placedBefore = hours(8)
            var paid = filter
            paid.status = .paid
            others += [later, shorter, paid]
            for other in others {
                let error = await keycatError { try await shop.service.list(other, cursor: cursor, by: shop.admin) }
                #expect(error?.code == .invalidCursor, "\(other)")
            }
            // The same filter takes it.
            _ = try await shop.service.list(filter, limit: PageLimit(1), cursor: cursor, by: shop.admin)
        }
    }

    @Test("a window that is empty or backwards is refused, naming placed_from", arguments: [0.0, -1, -3_600])
    func badWindow(_ length: Double) async throws {
        try await withOrders(.inMemory) { shop in
            let filter = OrderFilter(placedFrom: hours(2), placedBefore: hours(2).addingTimeInterval(length))
            let error = await keycatError { try await shop.service.list(filter, by: shop.admin) }
            #expect(error?.code == .validation && error?.context["field"] == "placed_from")
        }
    }
}

/// Nine placed orders on one store, the order service over them, and who is who.
struct FilteredOrders: Sendable {
    struct Placed: Sendable {
        var id: OrderID
        var sellers: Set<UserID>
    }

    let service: OrderService
    let placed: [Placed]
    let sellerA: UserID
    let sellerB: UserID
    let buyer: UserID
    let admin = Principal.operatorConsole("tester")

    /// The id of the `index`th order placed.
    func id(_ index: Int) -> OrderID { placed[index].id }

    /// Every order `filter` lists, walking pages of `pageSize`.
    func walk(_ filter: OrderFilter, pageSize: Int) async throws -> [OrderID] {
        var seen: [OrderID] = []
        var cursor: String?
        repeat {
            let page = try await service.list(filter, limit: PageLimit(pageSize), cursor: cursor, by: admin)
            seen += page.items.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        return seen
    }
}

/// Places the nine orders of ``OrderFilterContractTests`` on `backend` and runs `body`.
func withOrders(_ backend: Backend, _ body: (FilteredOrders) async throws -> Void) async throws {
    switch backend {
    case .inMemory:
        let orders = InMemoryOrderRepository()
        let products = (ProductID(1), ProductID(2))
        orders.setStock(100, of: products.0)
        orders.setStock(100, of: products.1)
        try await body(place(on: orders, sellers: (UserID(1), UserID(3)), buyer: UserID(2), products: products))
    case .sqlite:
        try await withTestDatabase { try await body(try await placeStored(on: $0)) }
    case .postgres:
        try await withPostgresTestDatabase { try await body(try await placeStored(on: $0)) }
    }
}

/// The sellers, buyer and products the orders need as rows, then the orders.
private func placeStored<Database: SQLDatabase>(on database: Database) async throws -> FilteredOrders {
    let clock = TestClock()
    let (first, buyer) = try await CommerceHarness.stock(database, units: 100, clock: clock)
    let secondSeller = try await database.write { connection in
        try #require(try connection.queryOne("""
            INSERT INTO users (email, nick, password_hash, role, created_at, updated_at)
            VALUES ('second@example.com', 'second', '!', 'seller', 0, 0) RETURNING id
            """, []) { UserID($0.int64(0)) })
    }
    let second = try await SQLProductRepository(database: database).insert(
        CommerceHarness.draft(100), sellerID: secondSeller, images: [], at: clock.now(), audit: nil)
    return try await place(on: SQLOrderRepository(database: database), sellers: (first.sellerID, secondSeller),
                           buyer: buyer.userID, products: (first.id, second.id))
}

private func place(on orders: some OrderRepository, sellers: (UserID, UserID), buyer: UserID,
                   products: (ProductID, ProductID)) async throws -> FilteredOrders {
    func line(_ product: ProductID, _ seller: UserID) -> OrderLine {
        OrderLine(productID: product, title: "Gateron Oil King", unitPrice: Money(won: 600), quantity: 1,
                  deliveryFee: Money(won: 3_000), sellerID: seller)
    }
    var placed: [FilteredOrders.Placed] = []
    for index in 0..<9 {
        var lines: [OrderLine] = []
        if index % 3 != 1 { lines.append(line(products.0, sellers.0)) }
        if index % 3 != 0 { lines.append(line(products.1, sellers.1)) }
        let at = hours(index)
        let order = try await orders.create(NewOrder(
            merchantUID: "kc_filter_\(index)", buyerID: buyer, lines: lines, itemsTotal: Money(won: 600 * Int64(lines.count)),
            deliveryTotal: Money(won: 3_000 * Int64(lines.count)), amount: Money(won: 3_600 * Int64(lines.count)),
            expiresAt: at.addingTimeInterval(900)), at: at)
        if index % 2 == 1 {
            _ = try await orders.apply(OrderTransition(orderID: order.id, from: .awaitingPayment, to: .cancelled), at: at)
        }
        placed.append(FilteredOrders.Placed(id: order.id, sellers: Set(lines.compactMap(\.sellerID))))
    }
    let service = OrderService(orders: orders, gateway: FakeGateway(), idempotency: InMemoryIdempotencyStore(),
                               cursors: HMACPageCursorCodec(key: [UInt8](repeating: 9, count: 32)), clock: TestClock())
    return FilteredOrders(service: service, placed: placed, sellerA: sellers.0, sellerB: sellers.1, buyer: buyer)
}

/// `count` hours after ``OrderFilterContractTests/start``: when order `count` was placed.
private func hours(_ count: Int) -> Date { OrderFilterContractTests.start.addingTimeInterval(Double(count) * 3_600) }
