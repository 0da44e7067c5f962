import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// Keeping the index whole: listings from before search (or an older analyser) indexed when a
/// store opens for writes, on several servers at once; units sold carried through; a rebuild
/// that repairs what `db check` finds and tells every server.
@Suite("Search upkeep: catch-up, rebuild and db check")
struct SearchUpkeepTests {
    /// Leaves the shop as a database migrated to step 24 holds it: its listings, none of their
    /// search rows; the next open for writes indexes them again.
    static func forgetIndex(_ shop: TestShop) async throws {
        try await shop.execute("""
            DELETE FROM search_terms; DELETE FROM search_documents; DELETE FROM search_words;
            DELETE FROM settings WHERE key = 'search.analyzer_version'
            """)
    }

    @Test("listings written before search (or by an older analyser) are indexed when the store next opens for writes",
          arguments: TestStore.allCases)
    func catchUp(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축"), for: seller.userID, by: seller)
            try await Self.forgetIndex(shop)
            #expect(try await SearchBehaviourTests.search(shop, "몽돌").items.isEmpty)
            #expect(try await shop.keycat.search.problems().contains { $0.contains("product \(product.id)") })
            let reopened = try await KeyCat.open(shop.keycat.configuration)
            defer { reopened.close() }
            let found = try await reopened.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("몽돌"))))
            #expect(found.items.map(\.id) == [product.id])
            #expect(try await reopened.search.problems() == [])
        }
    }

    @Test("servers opening together on a Postgres database from before search all open, and the listings are indexed once")
    func catchUpOnSeveralServers() async throws {
        guard TestStore.allCases.contains(.postgres) else { return }
        try await TestShop.with(.postgres) { shop in
            _ = try await shop.keycat.seedSynthetic(count: 2_000, seed: 7, by: shop.operatorConsole)
            try await Self.forgetIndex(shop)
            // Four servers start at once, each catching up when it opens for writes.
            let configuration = shop.keycat.configuration
            let opened = await withTaskGroup(of: Result<KeyCat, any Error>.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do { return .success(try await KeyCat.open(configuration)) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            defer { for case .success(let server) in opened { server.close() } }
            for result in opened { _ = try result.get() }
            // Whichever did the work, every listing is indexed once, with its words counted once.
            let caughtUp = try await KeyCat.open(configuration)
            defer { caughtUp.close() }
            #expect(try await caughtUp.search.problems() == [])
            #expect(try await shop.integer("SELECT count(*) FROM search_documents") == 2_000)
        }
    }

    @Test("units sold on paid orders rank a listing above its equals, and survive indexing it again from before search",
          arguments: TestStore.allCases)
    func unitsSold(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let older = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드"), for: seller.userID, by: seller)
            let newer = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드"), for: seller.userID, by: seller)
            // Equal text and signals: the larger id first.
            #expect(try await SearchBehaviourTests.search(shop, "물결축").items.map(\.id) == [newer.id, older.id])
            _ = try await shop.paidOrder(older, by: buyer)
            #expect(try await SearchBehaviourTests.search(shop, "물결축").items.map(\.id) == [older.id, newer.id])
            // A listing created now has its document, and has sold nothing.
            let latest = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드"), for: seller.userID, by: seller)
            #expect(try await shop.integer("SELECT count(*) FROM search_documents WHERE product_id = \(latest.id) AND units_sold = 0") == 1)
            #expect(try await SearchBehaviourTests.search(shop, "물결축").items.map(\.id) == [older.id, latest.id, newer.id])
            // Indexed again from nothing (a database from before search), the sale is read from the orders.
            try await Self.forgetIndex(shop)
            let reopened = try await KeyCat.open(shop.keycat.configuration)
            defer { reopened.close() }
            #expect(try await shop.integer("SELECT units_sold FROM search_documents WHERE product_id = \(older.id)") == 1)
            let found = try await reopened.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("물결축"))))
            #expect(found.items.map(\.id) == [older.id, latest.id, newer.id])
            #expect(try await reopened.search.problems() == [])
        }
    }

    @Test("a sale the buyer cancels or that is refunded does not count as sold: buying and cancelling ranks nothing higher",
          arguments: TestStore.allCases)
    func cancelledSalesDoNotCount(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let gamed = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드") { $0.stock = 50 }, for: seller.userID, by: seller)
            let honest = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드") { $0.stock = 50 }, for: seller.userID, by: seller)
            func sold(_ product: Product) async throws -> Int {
                try await shop.integer("SELECT units_sold FROM search_documents WHERE product_id = \(product.id)")
            }
            // Bought and cancelled before it left, three times over.
            for _ in 0..<3 {
                let order = try await shop.paidOrder(gamed, quantity: 9, by: buyer)
                _ = try await shop.keycat.orders.cancel(order.id, reason: "changed my mind", by: buyer)
            }
            await #expect(try sold(gamed) == 0)
            // A real sale of one unit, and one of two whose line its seller refunded.
            _ = try await shop.paidOrder(honest, by: buyer)
            let refunded = try await shop.paidOrder(honest, quantity: 2, by: buyer)
            _ = try await shop.keycat.orders.refundLines(of: try #require(refunded.shipments.first).id,
                                                         LineRefundRequest(reason: "damaged", restock: true), by: seller)
            await #expect(try sold(honest) == 1)
            // Three units whose seller gives back all but a won of them (a refund by amount, the
            // order only partly refunded) sold nothing; two whose buyer was given 1,000 won did.
            let another = try await shop.user(.buyer)  // the first has used their checkouts of the minute
            let givenBack = try await shop.paidOrder(gamed, quantity: 3, by: another)
            _ = try await shop.keycat.orders.refundLines(of: try #require(givenBack.shipments.first).id,
                                                         LineRefundRequest(amount: Money(won: 3 * 129_000 - 1), reason: "보상"), by: seller)
            await #expect(try sold(gamed) == 0)
            let compensated = try await shop.paidOrder(honest, quantity: 2, by: another)
            _ = try await shop.keycat.orders.refundLines(of: try #require(compensated.shipments.first).id,
                                                         LineRefundRequest(amount: Money(won: 1_000), reason: "보상"), by: seller)
            await #expect(try sold(honest) == 3)
            #expect(try await SearchBehaviourTests.search(shop, "물결축").items.map(\.id) == [honest.id, gamed.id])
            #expect(try await shop.keycat.search.problems() == [])
            try await shop.expectHealthy()
        }
    }

    @Test("units sold cheaply count only as many as their value buys at today's price: ₩100 sales and a price rise buy no rank",
          arguments: TestStore.allCases)
    func cheapSalesThenPriceRise(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let honest = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드") { $0.stock = 50 }, for: seller.userID, by: seller)
            let gamed = try await shop.keycat.catalog.create(TestShop.draft("물결축 키보드", price: 100) { $0.stock = 90 },
                                                             for: seller.userID, by: seller)
            _ = try await shop.paidOrder(honest, quantity: 2, by: buyer)
            _ = try await shop.paidOrder(gamed, quantity: 64, by: buyer)
            // At ₩100 the 64 units are the listing's real sales, and rank it first.
            #expect(try await SearchBehaviourTests.search(shop, "물결축").items.map(\.id) == [gamed.id, honest.id])
            // Then its seller asks the real price: ₩6,400 of sales buy no unit of ₩129,000.
            var rise = ProductChanges(expectedVersion: try await shop.keycat.catalog.product(gamed.id).version)
            rise.regularPrice = Money(won: 149_000)
            rise.price = Money(won: 129_000)
            _ = try await shop.keycat.catalog.update(gamed.id, rise, by: seller)
            #expect(try await SearchBehaviourTests.search(shop, "물결축").items.map(\.id) == [honest.id, gamed.id])
            let explained = try await shop.keycat.search.explain(
                ProductListRequest(filter: ProductFilter(text: try SearchQuery("물결축"))))
            #expect(explained.map(\.product.id) == [honest.id, gamed.id])
            #expect(explained.map(\.sales) == [StandingSales(units: 2, value: Money(won: 258_000)),
                                                StandingSales(units: 64, value: Money(won: 6_400))])
            #expect(explained.map(\.rankedUnits) == [2, 0])
            // A discount of half: the honest listing's two units at ₩129,000 buy four at ₩64,500,
            // but it never counts more units than it sold.
            var discount = ProductChanges(expectedVersion: try await shop.keycat.catalog.product(honest.id).version)
            discount.price = Money(won: 64_500)
            _ = try await shop.keycat.catalog.update(honest.id, discount, by: seller)
            #expect(try await shop.keycat.search.explain(ProductListRequest(filter: ProductFilter(text: try SearchQuery("물결축"))))
                .map(\.rankedUnits) == [2, 0])
            #expect(try await shop.keycat.search.problems() == [])
            try await shop.expectHealthy()
            // A database from before migration 44 kept units only: opening it counts their value.
            try await shop.execute("""
                ALTER TABLE search_documents DROP COLUMN value_sold;
                ALTER TABLE business_registry DROP COLUMN representative_name; ALTER TABLE business_registry DROP COLUMN opening_date;
                DELETE FROM schema_migrations WHERE version >= 44
                """)
            let migrated = try await KeyCat.open(shop.keycat.configuration)
            defer { migrated.close() }
            #expect(try await shop.integer("SELECT value_sold FROM search_documents WHERE product_id = \(gamed.id)") == 6_400)
            #expect(try await migrated.search.problems() == [])
            #expect(try await migrated.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("물결축"))))
                .items.map(\.id) == [honest.id, gamed.id])
        }
    }

    @Test("a suspended seller's listings indexed while unlisted (a catch-up) have their words suggested once the seller is reinstated",
          arguments: TestStore.allCases)
    func unlistedCaughtUp(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("Scamboard 사기 키보드") { $0.tags = ["스캠"] }, for: seller.userID, by: seller)
            _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole)
            // Until 2026-11-30 a listing indexed while unlisted made no rows for its words, and
            // the reinstatement, which counts them up row by row, found none to count.
            try await Self.forgetIndex(shop)
            let reopened = try await KeyCat.open(shop.keycat.configuration)
            defer { reopened.close() }
            #expect(try await reopened.search.suggestions(try SuggestionQuery("scam")).isEmpty)
            #expect(try await reopened.search.problems() == [])
            _ = try await reopened.accounts.reinstate(seller.userID, by: shop.operatorConsole)
            #expect(try await reopened.search.suggestions(try SuggestionQuery("scam")).map(\.text).contains("Scamboard"))
            #expect(try await reopened.search.problems() == [])
        }
    }

    @Test("a word that begins with a combining mark is counted down when its listing goes; a tag may not begin with one",
          arguments: TestStore.allCases)
    func wordStartingWithAMark(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            // U+0345 is a combining mark that Unicode also calls alphabetic, so it starts a word;
            // "kind:" and it make one Character, and until 2026-12-01 a split by characters found
            // no colon: the word was never counted down and db check named it for ever.
            let product = try await shop.keycat.catalog.create(TestShop.draft("Markboard \u{0345}xq 키보드"), for: seller.userID, by: seller)
            try await shop.keycat.catalog.delete(product.id, by: seller)
            #expect(try await shop.keycat.search.problems() == [])
            try await shop.expectHealthy()
            await #expect(throws: KeyCatError.self) {
                _ = try await shop.keycat.catalog.create(TestShop.draft("Markboard") { $0.tags = ["\u{0345}x"] }, for: seller.userID, by: seller)
            }
        }
    }

    @Test("reindex repairs what db check finds: a stray term, a count, a listing deleted behind the index's back, units sold",
          arguments: TestStore.allCases)
    func reindexRepairs(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let kept = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축") { $0.tags = ["갈축"] }, for: seller.userID, by: seller)
            let gone = try await shop.keycat.catalog.create(TestShop.draft("노을 리니어"), for: seller.userID, by: seller)
            _ = try await shop.paidOrder(kept, quantity: 2, by: buyer)
            try await shop.execute("""
                UPDATE search_words SET products = products + 5 WHERE word = '갈축' AND kind = 'tag';
                INSERT INTO search_terms (term, product_id, weight) VALUES ('stray', \(kept.id), 1);
                UPDATE products SET deleted_at = 1, listed = 0 WHERE id = \(gone.id);
                UPDATE search_documents SET units_sold = 0, value_sold = 0 WHERE product_id = \(kept.id)
                """)
            let problems = try await shop.keycat.search.problems()
            #expect(problems.count >= 4)
            #expect(problems.contains("product \(kept.id): search counts 0 units sold for ₩0, its standing sales 2 for ₩258,000 (run 'keycat-admin search reindex')"))
            let reindexed = try await shop.keycat.search.reindex(by: shop.operatorConsole)
            #expect(reindexed == 1)
            #expect(try await shop.keycat.search.problems() == [])
            #expect(try await shop.integer("SELECT count(*) FROM search_terms WHERE product_id = \(gone.id)") == 0)
            #expect(try await shop.integer("SELECT units_sold FROM search_documents WHERE product_id = \(kept.id)") == 2)
        }
    }

    @Test("a rebuild's last step corrects counts from a snapshot without losing the writes made before its repair, nor repairing twice",
          arguments: TestStore.allCases)
    func countsMendedBesideWrites(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let count = "SELECT coalesce(sum(products), 0) FROM search_words WHERE word = '갈축' AND kind = 'tag'"
            let first = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축") { $0.tags = ["갈축"] }, for: seller.userID, by: seller)
            // Too high, and another listing takes the word between the survey and the repair.
            try await shop.execute("UPDATE search_words SET products = products + 5 WHERE word = '갈축' AND kind = 'tag'")
            #expect(try await shop.mendSearch {
                await #expect(throws: Never.self) {
                    _ = try await shop.keycat.catalog.create(TestShop.draft("노을 리니어") { $0.tags = ["갈축"] }, for: seller.userID, by: seller)
                }
            })
            #expect(try await shop.integer(count) == 2)
            // Too low, and a listing lets the word go in between: its withdrawal cannot lower a
            // count already at zero, so the first repair leaves one too many; the next survey mends it.
            try await shop.execute("UPDATE search_words SET products = 0 WHERE word = '갈축' AND kind = 'tag'")
            #expect(try await shop.mendSearch {
                await #expect(throws: Never.self) { try await shop.keycat.catalog.delete(first.id, by: seller) }
            })
            #expect(try await shop.integer(count) == 1)
            // Two rebuilds' last steps at once: the second's repair finds the count moved and leaves it.
            try await shop.execute("UPDATE search_words SET products = products + 3 WHERE word = '갈축' AND kind = 'tag'")
            #expect(try await shop.mendSearch { await #expect(throws: Never.self) { try await shop.mendSearch() } })
            #expect(try await shop.integer(count) == 1)
            #expect(try await shop.keycat.search.problems() == [])
        }
    }

    @Test("on Postgres a reindex moves the catalog version, so no server keeps an answer from before it")
    func reindexMovesTheCatalogVersion() async throws {
        guard TestStore.allCases.contains(.postgres) else { return }
        try await TestShop.with(.postgres) { shop in
            let seller = try await shop.user(.seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축"), for: seller.userID, by: seller)
            let deadline = Date().addingTimeInterval(30)
            while try await shop.keycat.catalogVersion() == nil {
                try #require(Date() < deadline)
                try await Task.sleep(for: .milliseconds(10))
            }
            let before = try await shop.keycat.catalogVersion()
            _ = try await shop.keycat.search.reindex(by: shop.operatorConsole)
            #expect(try await shop.keycat.catalogVersion() != before)
        }
    }
}
