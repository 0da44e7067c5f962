import Foundation
import KeyCat
import Synchronization
@testable import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The catalog's reads carry a strong ETag, answer a matching `If-None-Match` with 304, and are
/// served from memory only while the catalog version stands: after a write returns, no read on
/// its server shows the price or stock from before it, and another process's or server's write is
/// seen as soon as it is known (on SQLite at once, on Postgres when its notification arrives).
@Suite("Catalog reads: ETag, 304 and a cache that never serves a stale price or stock")
struct CatalogReadCacheTests {
    @Test("a product and a page carry a strong ETag and Cache-Control; If-None-Match that names it is a 304 without a body",
          arguments: TestStore.allCases)
    func conditionalReads(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let id = try await server.product()
            for target in ["/products/\(id)", "/products?limit=5&sort=newest"] {
                let first = try await server.send("GET", target)
                let tag = try #require(first.response.headers["ETag"], "\(target)")
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
                #expect(first.response.headers["Cache-Control"] == "public, no-cache")
                for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                    let again = try await server.send("GET", target, headers: ["If-None-Match": header])
                    #expect(again.status == 304 && again.response.body.isEmpty, "\(target) with \(header): \(again)")
                    #expect(again.response.headers["ETag"] == tag)
                }
                let other = try await server.send("GET", target, headers: ["If-None-Match": "\"not-this-one\""])
                #expect(other.status == 200 && other.response.body == first.response.body)
            }
        }
    }

    @Test("a read after a price change, an order or a delete shows it, on a warm cache", arguments: TestStore.allCases)
    func writesAreSeen(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "cacheseller")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(price: 50_000, stock: 10),
                                                token: seller.token)
            let id = try #require(created.int("id"))
            let buyer = try await server.signedIn(.buyer, "cachebuyer")
            let page = "/products?seller_id=\(seller.id)"
            try await server.catalogCacheReady()
            func shown() async throws -> (detail: Answer, page: Answer) {
                (try await server.send("GET", "/products/\(id)"), try await server.send("GET", page))
            }
            var (detail, list) = try await shown()
            (detail, list) = try await shown()  // the second is served from memory
            #expect(detail["price"] as? Int == 50_000 && list.items.first?["price"] as? Int == 50_000)
            #expect(server.api.catalogCache.count >= 2)
            // A write that leaves the catalog alone: SQLite's version moves with any commit. (That
            // such a write leaves Postgres's version alone is pinned in
            // PostgresNotificationCounterTests; here, under a loaded CI run, something else moved
            // it once in the window, so it is not asserted at this level.)
            let warm = try await server.keycat.catalogVersion()
            let carted = try await server.send("POST", "/cart/items", json: ["product_id": id, "quantity": 1], token: buyer.token)
            try #require(carted.status == 200, "\(carted)")
            if store == .sqlite { #expect(try await server.keycat.catalogVersion() != warm) }

            let tag = try #require(detail.response.headers["ETag"])
            let patched = try await server.send("PATCH", "/products/\(id)", json: ["price": 45_000, "version": 1], token: seller.token)
            try #require(patched.status == 200, "\(patched)")
            (detail, list) = try await shown()
            #expect(detail["price"] as? Int == 45_000 && list.items.first?["price"] as? Int == 45_000, "\(detail)")
            let revalidated = try await server.send("GET", "/products/\(id)", headers: ["If-None-Match": tag])
            #expect(revalidated.status == 200, "the old tag no longer matches: \(revalidated)")

            let order = try await server.send("POST", "/checkout", json: ["items": [["product_id": id, "quantity": 3]]], token: buyer.token)
            try #require(order.status == 201, "\(order)")
            (detail, list) = try await shown()
            #expect(detail["stock"] as? Int == 7 && list.items.first?["stock"] as? Int == 7, "\(detail)")

            let deleted = try await server.send("DELETE", "/products/\(id)", token: seller.token)
            try #require(deleted.status == 204, "\(deleted)")
            (detail, list) = try await shown()
            #expect(detail.status == 404 && list.items.isEmpty, "\(detail)")
        }
    }

    @Test("a seller's suspension takes their listing out of warm answers, and reinstatement brings it back", arguments: TestStore.allCases)
    func suspensionIsSeen(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "suspendedseller")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(), token: seller.token)
            let id = try #require(created.int("id"))
            try await server.catalogCacheReady()
            func shown() async throws -> (detail: Answer, page: Answer) {
                (try await server.send("GET", "/products/\(id)"), try await server.send("GET", "/products?seller_id=\(seller.id)"))
            }
            _ = try await shown()
            var (detail, list) = try await shown()  // served from memory
            #expect(detail.status == 200 && list.items.count == 1)

            let operatorConsole = Principal.operatorConsole("tester")
            _ = try await server.keycat.accounts.suspend(UserID(seller.id), by: operatorConsole)
            (detail, list) = try await shown()
            #expect(detail.status == 404 && list.items.isEmpty, "\(detail) \(list)")
            let everything = try await server.send("GET", "/products?limit=50")
            #expect(everything.items.isEmpty, "\(everything)")

            _ = try await server.keycat.accounts.reinstate(UserID(seller.id), by: operatorConsole)
            (detail, list) = try await shown()
            #expect(detail.status == 200 && list.items.count == 1, "\(detail) \(list)")
        }
    }

    @Test("a write by another process on the file, or another server on the database, is seen once known",
          arguments: TestStore.allCases)
    func anotherProcessesWrite(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let id = try await server.product(price: 50_000, stock: 10)
            try await server.catalogCacheReady()
            #expect(try await server.send("GET", "/products/\(id)")["stock"] as? Int == 10)
            #expect(try await server.send("GET", "/products/\(id)")["stock"] as? Int == 10)
            #expect(server.api.catalogCache.count >= 1, "the answer is kept")
            let before = try await server.keycat.catalogVersion()
            // A second KeyCat on the store, as keycat-admin or another server would open it.
            var configuration = server.keycat.configuration
            configuration.clock = server.clock
            let other = try await KeyCat.open(configuration)
            defer { other.close() }
            _ = try await other.catalog.adjustStock(ProductID(rawValue: id), by: StockAdjustment(change: 5, reason: "restock from the warehouse"),
                                                    by: .operatorConsole("tests"))
            // Known when SQLite's file is next asked (within a millisecond), or when the trigger's
            // notification reaches this server's Postgres listener.
            let deadline = Date().addingTimeInterval(30)
            while try await server.keycat.catalogVersion() == before {
                try #require(Date() < deadline, "the restock still unknown after 30 seconds")
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(try await server.send("GET", "/products/\(id)")["stock"] as? Int == 15)
        }
    }

    @Test("an answer showing a sale price expires when the discount ends, with no write", arguments: TestStore.allCases)
    func discountBoundary(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            try await server.catalogCacheReady()
            let seller = try await server.signedIn(.seller, "saleseller")
            var product = APITestServer.productJSON(price: 40_000, stock: 5)
            let ends = server.clock.now().addingTimeInterval(3_600)
            product["discount_ends_at"] = ISO8601DateFormatter().string(from: ends)
            let created = try await server.send("POST", "/products", json: product, token: seller.token)
            let id = try #require(created.int("id"), "\(created)")
            for _ in 0..<2 { #expect(try await server.send("GET", "/products/\(id)")["price"] as? Int == 40_000) }
            #expect(server.api.catalogCache.count >= 1, "the sale price is kept")
            server.clock.advance(by: 3_601)
            let after = try await server.send("GET", "/products/\(id)")
            #expect(after["price"] as? Int == 50_000, "the regular price once the discount ended: \(after)")
        }
    }

    @Test("readers racing a writer never see a price from before a write that returned", arguments: TestStore.allCases)
    func noStaleReadUnderLoad(store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            try await server.catalogCacheReady()
            let seller = try await server.signedIn(.seller, "raceseller")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(price: 10_000, stock: 5),
                                                token: seller.token)
            let id = try #require(created.int("id"))
            let stop = Stopper()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while !stop.isStopped {
                            _ = try await server.send("GET", "/products/\(id)")
                            _ = try await server.send("GET", "/products?seller_id=\(seller.id)")
                            // A read served from memory never suspends, and these clients have no
                            // network to wait on: give the writer its turn, as a socket would.
                            await Task.yield()
                        }
                    }
                }
                for round in 1...60 {
                    let price = 10_000 + round * 10
                    let patched = try await server.send("PATCH", "/products/\(id)", json: ["price": price, "version": round],
                                                        token: seller.token)
                    try #require(patched.status == 200, "\(patched)")
                    let detail = try await server.send("GET", "/products/\(id)")
                    let list = try await server.send("GET", "/products?seller_id=\(seller.id)")
                    #expect(detail["price"] as? Int == price, "round \(round): \(detail)")
                    #expect(list.items.first?["price"] as? Int == price, "round \(round): \(list)")
                }
                stop.stop()
                try await group.waitForAll()
            }
        }
    }
}

/// A flag the racing readers poll.
final class Stopper: Sendable {
    private let flag = Mutex(false)
    var isStopped: Bool { flag.withLock { $0 } }
    func stop() { flag.withLock { $0 = true } }
}

/// ``CatalogCache/sharedRead(for:version:_:)`` on its own, with a read held open until the test
/// lets it finish: requests that miss together share one read, a new version starts another, a
/// failure reaches every waiter and is not kept, and a waiter that goes away stops nobody else.
@Suite("Catalog cache: one read for the requests that miss together")
struct CatalogSharedReadTests {
    /// A read that counts its calls and answers only when the gate opens.
    final class HeldRead: Sendable {
        private let state = Mutex<(calls: Int, open: Bool)>((0, false))
        var calls: Int { state.withLock { $0.calls } }
        func open() { state.withLock { $0.open = true } }

        func read(_ status: Int = 200, failing: Bool = false) async throws(KeyCatError) -> (response: APIResponse, expiresAt: Date?) {
            state.withLock { $0.calls += 1 }
            while !state.withLock({ $0.open }) {
                // A read run in a cancelled request's task would stop here.
                if Task.isCancelled { throw KeyCatError(.storage, "cancelled") }
                try? await Task.sleep(for: .milliseconds(1))
            }
            if failing { throw KeyCatError(.storage, "the store is gone") }
            return (APIResponse(status: status, body: Array("answer".utf8)), nil)
        }
    }

    static let key = CatalogReadKey.page(ProductListRequest())

    /// Waits (at most 5 minutes, a bound for a hung test) until `cache` counts `joined` waiters.
    private func waitForJoined(_ cache: CatalogCache, _ joined: Int) async throws {
        let deadline = Date().addingTimeInterval(300)
        while cache.sharedReads.joined < joined {
            try #require(Date() < deadline, "only \(cache.sharedReads.joined) of \(joined) joined in 5 minutes")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test("ten requests missing one answer at once cause one read, and all get its answer, kept")
    func oneReadForMany() async throws {
        let cache = CatalogCache()
        let held = HeldRead()
        try await withThrowingTaskGroup(of: APIResponse.self) { group in
            for _ in 0..<10 {
                group.addTask { try await cache.sharedRead(for: .product(ProductID(rawValue: 1)), version: 7) { () async throws(KeyCatError) in try await held.read() } }
            }
            try await waitForJoined(cache, 9)
            held.open()
            let answers = try await group.reduce(into: []) { $0.append($1) }
            #expect(answers.count == 10 && answers.allSatisfy { $0.status == 200 && $0.body == Array("answer".utf8) })
        }
        #expect(held.calls == 1 && cache.sharedReads.started == 1)
        #expect(cache.answer(for: .product(ProductID(rawValue: 1)), version: 7, now: Date()) != nil, "the 200 answer is kept")
        // Another version is another read.
        _ = try await cache.sharedRead(for: .product(ProductID(rawValue: 1)), version: 8) { () async throws(KeyCatError) in try await held.read() }
        #expect(held.calls == 2)
    }

    @Test("a failed read reaches every waiter, is not kept, and the next miss reads again")
    func failureIsShared() async throws {
        let cache = CatalogCache()
        let held = HeldRead()
        try await withThrowingTaskGroup(of: KeyCatError.Code?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do throws(KeyCatError) {
                        _ = try await cache.sharedRead(for: Self.key, version: 1) { () async throws(KeyCatError) in try await held.read(failing: true) }
                        return nil
                    } catch {
                        return error.code
                    }
                }
            }
            try await waitForJoined(cache, 3)
            held.open()
            let codes = try await group.reduce(into: []) { $0.append($1) }
            #expect(codes == Array(repeating: .storage, count: 4))
        }
        #expect(cache.answer(for: Self.key, version: 1, now: Date()) == nil)
        let again = try await cache.sharedRead(for: Self.key, version: 1) { () async throws(KeyCatError) in try await held.read() }
        #expect(again.status == 200 && held.calls == 2)
    }

    @Test("a waiter cancelled by its client does not cancel the read the others wait for")
    func cancelledWaiter() async throws {
        let cache = CatalogCache()
        let held = HeldRead()
        // The first request starts the read; the second joins it; then the first's client goes away.
        let first = Task { try await cache.sharedRead(for: Self.key, version: 1) { () async throws(KeyCatError) in try await held.read() } }
        let deadline = Date().addingTimeInterval(300)
        while held.calls == 0 {
            try #require(Date() < deadline)
            try await Task.sleep(for: .milliseconds(1))
        }
        let second = Task { try await cache.sharedRead(for: Self.key, version: 1) { () async throws(KeyCatError) in try await held.read() } }
        try await waitForJoined(cache, 1)
        first.cancel()
        held.open()
        #expect(try await second.value.status == 200)
        #expect(held.calls == 1)
        _ = try? await first.value
    }
}
