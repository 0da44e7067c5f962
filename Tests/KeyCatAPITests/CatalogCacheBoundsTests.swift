import Foundation
import KeyCat
@testable import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The catalog read cache cannot be filled by strangers: an answer is filed under the request as
/// the route parsed it, a query parameter no route declares is a 400, and the table is bounded
/// by its entries and by the bytes of their keys, headers and bodies, dropping the least recently
/// used.
@Suite("Catalog read cache: keys from declared parameters, bounded in entries and bytes")
struct CatalogCacheBoundsTests {
    @Test("a parameter the route does not declare, or one given twice, is a 400 naming it and files nothing", arguments: [
        ("/products?zzz=1", "zzz"),
        ("/products?limit=5&cachebuster=8f3a", "cachebuster"),
        ("/products?Limit=5", "Limit"),
        ("/products?limit=5&limit=6", "limit"),
        ("/products?=5", "query"),
        ("/products?flag", "flag"),
        ("/products/1?x=1", "x"),
    ])
    func undeclaredParameter(_ target: String, _ field: String) async throws {
        try await APITestServer.with { server in
            try await server.catalogCacheReady()
            _ = try await server.product()
            let answer = try await server.send("GET", target)
            #expect(answer.status == 400 && answer.code == "validation" && answer.field == field, "\(target): \(answer)")
            #expect(server.api.catalogCache.count == 0, "\(target) filed an answer")
        }
    }

    @Test("a thousand strangers' parameters leave the cache as one honest request left it")
    func strangersFillNothing() async throws {
        try await APITestServer.with { server in
            try await server.catalogCacheReady()
            _ = try await server.product()
            #expect(try await server.send("GET", "/products").status == 200)
            for round in 0..<1_000 {
                let answer = try await server.send("GET", "/products?r\(round)=\(round)")
                try #require(answer.status == 400, "\(answer)")
            }
            #expect(server.api.catalogCache.count <= 1)
        }
    }

    @Test("one request spelled in any order, with its defaults or with leading zeros, is one entry")
    func spellingsShareAnEntry() async throws {
        try await APITestServer.with { server in
            try await server.catalogCacheReady()
            let id = try await server.product()
            let spellings = ["/products", "/products?sort=newest&limit=20", "/products?limit=20&sort=newest", "/products?limit=020",
                             "/products?sort=newest"]
            var bodies: Set<[UInt8]> = []
            for target in spellings {
                let answer = try await server.send("GET", target)
                try #require(answer.status == 200, "\(target): \(answer)")
                bodies.insert(answer.response.body)
            }
            #expect(bodies.count == 1)
            #expect(server.api.catalogCache.keysByRecency == [.page(ProductListRequest())])
            for target in ["/products/\(id)", "/products/\(id)"] { #expect(try await server.send("GET", target).status == 200) }
            #expect(server.api.catalogCache.keysByRecency == [.product(ProductID(rawValue: id)), .page(ProductListRequest())])
            let filtered = try await server.send("GET", "/products?hot_swap=true&seller_id=0\(id)&sort=price_asc")
            #expect(filtered.status == 200)
            let again = try await server.send("GET", "/products?sort=price_asc&seller_id=\(id)&hot_swap=true")
            #expect(again.status == 200 && again.response.body == filtered.response.body)
            #expect(server.api.catalogCache.count == 3)
        }
    }

    /// A 200 answer of `bodyBytes` bytes with one header of `headerBytes` bytes (name and value).
    static func answer(bodyBytes: Int, headerBytes: Int = 0) -> APIResponse {
        var headers = APIHeaders()
        if headerBytes > 0 { headers["X-Padding"] = String(repeating: "h", count: headerBytes - "X-Padding".utf8.count) }
        return APIResponse(status: 200, headers: headers, body: Array(repeating: 0x61, count: bodyBytes))
    }

    static func key(_ id: Int) -> CatalogReadKey { .product(ProductID(rawValue: Int64(id))) }

    @Test("past its entry limit, the least recently used answer goes, and a read keeps an answer in")
    func entryLimit() {
        let cache = CatalogCache(byteBudget: 1 << 20, entryLimit: 3)
        for id in 1...3 { cache.store(Self.answer(bodyBytes: 10), for: Self.key(id), version: 1, expiresAt: nil) }
        #expect(cache.answer(for: Self.key(1), version: 1, now: Date()) != nil)
        cache.store(Self.answer(bodyBytes: 10), for: Self.key(4), version: 1, expiresAt: nil)
        #expect(cache.count == 3)
        #expect(cache.keysByRecency == [Self.key(4), Self.key(1), Self.key(3)], "2 was the least recently used")
        #expect(cache.answer(for: Self.key(2), version: 1, now: Date()) == nil)
        for id in 5...100 { cache.store(Self.answer(bodyBytes: 10), for: Self.key(id), version: 1, expiresAt: nil) }
        #expect(cache.count == 3 && cache.usage.evictions == 97)
    }

    @Test("the byte budget counts each answer's key and headers as well as its body")
    func budgetCountsKeysAndHeaders() {
        let key = Self.key(1)
        let small = Self.answer(bodyBytes: 10, headerBytes: 1_000)
        let cost = CatalogCache.cost(of: small, for: key)
        #expect(cost == key.byteCount + 10 + 1_000)
        // Room for two answers by their bodies, one by everything they keep.
        let cache = CatalogCache(byteBudget: cost + cost / 2, entryLimit: 100)
        cache.store(small, for: Self.key(1), version: 1, expiresAt: nil)
        cache.store(small, for: Self.key(2), version: 1, expiresAt: nil)
        #expect(cache.keysByRecency == [Self.key(2)])
        #expect(cache.usage.bytes == cost && cache.usage.bytes <= cache.byteBudget)
        // A cursor is part of the key and counted with it.
        let cursor = String(repeating: "c", count: 500)
        let page = CatalogReadKey.page(ProductListRequest(cursor: cursor))
        #expect(page.byteCount == CatalogReadKey.page(ProductListRequest()).byteCount + 500)
    }

    @Test("an answer over the whole budget is not kept and pushes nothing out")
    func oversizedAnswer() {
        let cache = CatalogCache(byteBudget: 4_096, entryLimit: 10)
        cache.store(Self.answer(bodyBytes: 100), for: Self.key(1), version: 1, expiresAt: nil)
        cache.store(Self.answer(bodyBytes: 5_000), for: Self.key(2), version: 1, expiresAt: nil)
        #expect(cache.keysByRecency == [Self.key(1)])
    }

    @Test("an answer past its discount's end is dropped when asked for, freeing its room")
    func expiredAnswerGoes() {
        let cache = CatalogCache(byteBudget: 4_096, entryLimit: 10)
        let now = Date()
        cache.store(Self.answer(bodyBytes: 100), for: Self.key(1), version: 1, expiresAt: now.addingTimeInterval(60))
        #expect(cache.answer(for: Self.key(1), version: 1, now: now) != nil)
        #expect(cache.answer(for: Self.key(1), version: 1, now: now.addingTimeInterval(60)) == nil)
        #expect(cache.count == 0 && cache.usage.bytes == 0)
    }

    @Test("a newer version starts the table over; an answer read under an older one is not kept")
    func versions() {
        let cache = CatalogCache(byteBudget: 4_096, entryLimit: 10)
        cache.store(Self.answer(bodyBytes: 10), for: Self.key(1), version: 2, expiresAt: nil)
        cache.store(Self.answer(bodyBytes: 10), for: Self.key(2), version: 1, expiresAt: nil)
        #expect(cache.keysByRecency == [Self.key(1)])
        cache.store(Self.answer(bodyBytes: 10), for: Self.key(2), version: 3, expiresAt: nil)
        #expect(cache.keysByRecency == [Self.key(2)])
        #expect(cache.answer(for: Self.key(2), version: 2, now: Date()) == nil)
    }
}
