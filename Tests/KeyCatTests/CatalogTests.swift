import Foundation
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCat

@Suite("Catalog: listings and who may change them")
struct CatalogTests {
    @Test("a seller lists a product and anyone reads it back with every field", arguments: TestStore.allCases)
    func createAndRead(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let created = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: seller)
            let read = try await shop.keycat.catalog.product(created.id)
            #expect(read == created)
            #expect(read.spec.layout == .seventyFivePercent && read.spec.pcb == .hotSwap)
            #expect(read.sellingPrice(at: shop.clock.now()) == Money(won: 129_000))
            #expect(read.version == 1)
        }
    }

    @Test("a buyer may not list, and a seller may not list for another seller", arguments: TestStore.allCases)
    func createAuthorization(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let buyer = try await shop.user(.buyer)
            let seller = try await shop.user(.seller)
            let other = try await shop.user(.seller)
            await #expect(throws: KeyCatError(.forbidden, "only approved sellers may list products")) {
                try await shop.keycat.catalog.create(TestShop.draft(), for: buyer.userID, by: buyer)
            }
            await #expect(throws: KeyCatError.self) {
                try await shop.keycat.catalog.create(TestShop.draft(), for: other.userID, by: seller)
            }
            // An admin lists for a seller, but not for a buyer.
            await #expect(throws: KeyCatError.self) {
                try await shop.keycat.catalog.create(TestShop.draft(), for: buyer.userID, by: shop.operatorConsole)
            }
            let listed = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: shop.operatorConsole)
            #expect(listed.sellerID == seller.userID)
        }
    }

    @Test("only its seller or an admin changes or deletes a listing; anyone else is not the owner", arguments: TestStore.allCases)
    func changeAuthorization(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let other = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: seller)
            var changes = ProductChanges(expectedVersion: 1)
            changes.stock = 3
            for intruder in [other, buyer] {
                await expectError(.notOwner) { try await shop.keycat.catalog.update(product.id, changes, by: intruder) }
                await expectError(.notOwner) { try await shop.keycat.catalog.delete(product.id, by: intruder) }
            }
            let updated = try await shop.keycat.catalog.update(product.id, changes, by: seller)
            #expect(updated.stock == 3 && updated.version == 2)
            var adminChanges = ProductChanges(expectedVersion: 2)
            adminChanges.price = Money(won: 99_000)
            await #expect(try shop.keycat.catalog.update(product.id, adminChanges, by: shop.operatorConsole).pricing.salePrice == Money(won: 99_000))
            try await shop.keycat.catalog.delete(product.id, by: shop.operatorConsole)
            await #expect(throws: KeyCatError.self) { try await shop.keycat.catalog.product(product.id) }
            let audit = try await shop.keycat.auditLog.recent(limit: 10).map(\.action)
            #expect(audit.starts(with: ["product.delete", "product.update"]))
        }
    }

    @Test("a listing paid for keeps its category and kind: its seller lists other goods anew; an operator may correct them",
          arguments: TestStore.allCases)
    func soldListingKeepsItsGoods(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let puller = try await shop.keycat.catalog.create(TestShop.draft("키캡 리무버") { $0.category = .accessory }, for: seller.userID, by: seller)
            // Before anyone paid, a seller may still put it right.
            var fixed = ProductChanges(expectedVersion: 1)
            fixed.kind = .secondhand
            _ = try await shop.keycat.catalog.update(puller.id, fixed, by: seller)
            _ = try await shop.paidOrder(puller, by: buyer)
            let paid = try await shop.keycat.catalog.product(puller.id)
            // Then the listing, its sale and whatever reviews follow are about a keycap remover.
            var keyboard = ProductChanges(expectedVersion: paid.version)
            keyboard.title = "커스텀 75% 알루미늄 키보드"
            keyboard.category = .keyboard
            keyboard.price = Money(won: 129_000)
            let refused = await expectFailure(.illegalTransition) { try await shop.keycat.catalog.update(puller.id, keyboard, by: seller) }
            #expect(refused?.context["field"] == "category")
            var kind = ProductChanges(expectedVersion: paid.version)
            kind.kind = .commercial
            let kindRefused = await expectFailure(.illegalTransition) { try await shop.keycat.catalog.update(puller.id, kind, by: seller) }
            #expect(kindRefused?.context["field"] == "kind")
            let unchanged = try await shop.keycat.catalog.product(puller.id)
            #expect(unchanged.version == paid.version && unchanged.category == .accessory && unchanged.title == "키캡 리무버")
            // Its other fields stay the seller's to edit, and an operator may correct its category.
            var retitled = ProductChanges(expectedVersion: paid.version)
            retitled.title = "키캡 리무버 (와이어)"
            _ = try await shop.keycat.catalog.update(puller.id, retitled, by: seller)
            var corrected = ProductChanges(expectedVersion: paid.version + 1)
            corrected.category = .keycap
            await #expect(try shop.keycat.catalog.update(puller.id, corrected, by: shop.operatorConsole).category == .keycap)
        }
    }

    @Test("a delete of the version read is refused once a change landed since, in the delete's own write", arguments: TestStore.allCases)
    func deleteOfAStaleVersion(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: seller)
            var change = ProductChanges(expectedVersion: 1)
            change.price = Money(won: 99_000)
            _ = try await shop.keycat.catalog.update(product.id, change, by: seller)
            await expectError(.versionConflict) { try await shop.keycat.catalog.delete(product.id, expectedVersion: 1, by: seller) }
            await #expect(try shop.keycat.catalog.product(product.id).version == 2)
            try await shop.keycat.catalog.delete(product.id, expectedVersion: 2, by: seller)
            await expectError(.notFound) { try await shop.keycat.catalog.delete(product.id, expectedVersion: 3, by: seller) }
        }
    }

    @Test("an update carrying a stale version is a conflict and changes nothing", arguments: TestStore.allCases)
    func staleVersion(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: seller)
            var first = ProductChanges(expectedVersion: 1)
            first.stock = 5
            _ = try await shop.keycat.catalog.update(product.id, first, by: seller)
            var stale = ProductChanges(expectedVersion: 1)
            stale.stock = 50
            await expectError(.versionConflict) { try await shop.keycat.catalog.update(product.id, stale, by: seller) }
            await #expect(try shop.keycat.catalog.product(product.id).stock == 5)
        }
    }

    /// One broken rule per case, with the field its error must name.
    enum BrokenRule: String, CaseIterable, Sendable {
        case blankTitle, longTitle, longContent, zeroPrice, regularBelowPrice, negativeCoupon,
             couponAtPrice, discountInThePast, discountBeyondAMonth, negativeFee, feeAboveTheBound, negativeStock

        var field: String {
            switch self {
            case .blankTitle, .longTitle: "title"
            case .longContent: "content"
            case .zeroPrice: "price"
            case .regularBelowPrice: "regular_price"
            case .negativeCoupon, .couponAtPrice: "coupon_price"
            case .discountInThePast, .discountBeyondAMonth: "discount_ends_at"
            case .negativeFee, .feeAboveTheBound: "delivery_fee"
            case .negativeStock: "stock"
            }
        }

        func apply(to draft: inout ProductDraft, now: Date) {
            switch self {
            case .blankTitle: draft.title = "   "
            case .longTitle: draft.title = String(repeating: "키", count: 101)
            case .longContent: draft.content = String(repeating: "a", count: 2_001)
            case .zeroPrice: draft.pricing.salePrice = .zero
            case .regularBelowPrice: draft.pricing.regularPrice = Money(won: 1_000)
            case .negativeCoupon: draft.pricing.couponPrice = Money(won: -1)
            case .couponAtPrice: draft.pricing.couponPrice = draft.pricing.salePrice
            case .discountInThePast: draft.pricing.discountEndsAt = now.addingTimeInterval(-1)
            case .discountBeyondAMonth: draft.pricing.discountEndsAt = now.addingTimeInterval(32 * 86_400)
            case .negativeFee: draft.delivery.fee = Money(won: -1)
            // ₩50,000 by default: a price cannot hide in the fee.
            case .feeAboveTheBound: draft.delivery.fee = Money(won: 50_001)
            case .negativeStock: draft.stock = -1
            }
        }
    }

    @Test("each broken rule is a validation error naming its field, and nothing is stored",
          arguments: TestStore.allCases, BrokenRule.allCases)
    func validation(_ store: TestStore, rule: BrokenRule) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let draft = TestShop.draft { rule.apply(to: &$0, now: shop.clock.now()) }
            await expectError(.validation, field: rule.field) {
                try await shop.keycat.catalog.create(draft, for: seller.userID, by: seller)
            }
            await #expect(try shop.keycat.catalog.list(ProductListRequest()).items.isEmpty)
        }
    }

    @Test("after the discount ends the product sells, and sorts, at its regular price", arguments: TestStore.allCases)
    func discountLapses(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let discounted = try await shop.keycat.catalog.create(TestShop.draft("할인 키보드", price: 100_000) {
                $0.pricing.regularPrice = Money(won: 200_000)
                $0.pricing.discountEndsAt = shop.clock.now().addingTimeInterval(86_400)
            }, for: seller.userID, by: seller)
            let steady = try await shop.keycat.catalog.create(TestShop.draft("정가 키보드", price: 150_000) {
                $0.pricing.regularPrice = Money(won: 150_000)
            }, for: seller.userID, by: seller)
            let cheapestFirst = { () async throws -> [ProductID] in
                try await shop.keycat.catalog.list(ProductListRequest(sort: .priceAscending)).items.map(\.id)
            }
            #expect(try await cheapestFirst() == [discounted.id, steady.id])
            shop.clock.advance(by: 2 * 86_400)
            await #expect(try shop.keycat.catalog.product(discounted.id).sellingPrice(at: shop.clock.now()) == Money(won: 200_000))
            #expect(try await cheapestFirst() == [steady.id, discounted.id])
            let swept = try await shop.keycat.catalog.product(discounted.id)
            #expect(swept.pricing.salePrice == Money(won: 200_000) && swept.pricing.discountEndsAt == nil)
        }
    }
}

@Suite("Catalog and withdrawn sellers")
struct WithdrawnSellerTests {
    @Test("a withdrawn seller's listings leave every list and their detail, and they can list no more", arguments: TestStore.allCases)
    func withdrawHidesListings(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let staying = try await shop.user(.seller)
            let gone = try await shop.keycat.catalog.create(TestShop.draft("떠나는 상품"), for: seller.userID, by: seller)
            let kept = try await shop.keycat.catalog.create(TestShop.draft("남는 상품"), for: staying.userID, by: staying)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller)
            for sort in ProductSort.browsing {
                await #expect(try shop.keycat.catalog.list(ProductListRequest(sort: sort)).items.map(\.id) == [kept.id])
            }
            await #expect(try shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(sellerID: seller.userID))).items.isEmpty)
            await expectError(.notFound) { try await shop.keycat.catalog.product(gone.id) }
            // Deleted, not only unlisted: withdrawal is for good, and its search entries and
            // (after the retention) its images go as any deleted listing's.
            await expectError(.notFound) { try await shop.keycat.catalog.product(gone.id, includingUnlisted: true) }
            #expect(try await shop.integer("SELECT count(*) FROM search_terms WHERE product_id = \(gone.id.rawValue)") == 0)
            let withdrawn = try await shop.keycat.eventLog.settled(after: .start)
                .filter { $0.type == .productWithdrawn && $0.aggregate.id == gone.id.rawValue }
            #expect(withdrawn.map { $0.data["cause"] } == ["account_withdrawn"])
            try await shop.expectHealthy()
            await expectError(.notFound) { try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: shop.operatorConsole) }
        }
    }

    @Test("a suspended seller's listings leave lists, filters and detail, show unavailable in carts and cannot be bought, until reinstated",
          arguments: TestStore.allCases)
    func suspensionHidesListings(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let staying = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            let suspended = try await shop.keycat.catalog.create(TestShop.draft("정지될 상품"), for: seller.userID, by: seller)
            let deleted = try await shop.keycat.catalog.create(TestShop.draft("지운 상품"), for: seller.userID, by: seller)
            let kept = try await shop.keycat.catalog.create(TestShop.draft("남는 상품"), for: staying.userID, by: staying)
            try await shop.keycat.catalog.delete(deleted.id, by: seller)
            try await shop.keycat.cart.add(suspended.id, by: buyer)
            _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole)

            for sort in ProductSort.browsing {
                await #expect(try shop.keycat.catalog.list(ProductListRequest(sort: sort)).items.map(\.id) == [kept.id])
            }
            await #expect(try shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(sellerID: seller.userID))).items.isEmpty)
            await #expect(try shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(category: .keyboard))).items.map(\.id) == [kept.id])
            await expectError(.notFound) { try await shop.keycat.catalog.product(suspended.id) }
            let line = try #require(try await shop.keycat.cart.cart(of: buyer).lines.first)
            #expect(!line.isAvailable && line.stock == 0)
            await expectError(.notFound) { try await shop.keycat.cart.add(suspended.id, by: buyer) }
            do {
                _ = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: suspended.id, quantity: 1)])), by: buyer)
                Issue.record("a suspended seller's listing was sold")
            } catch let error as KeyCatError {
                #expect(error.code == .notFound && error.context["reason"] == "unlisted", "\(error)")
            }

            _ = try await shop.keycat.accounts.reinstate(seller.userID, by: shop.operatorConsole)
            await #expect(try shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(sellerID: seller.userID))).items.map(\.id)
                          == [suspended.id])
            await expectError(.notFound) { try await shop.keycat.catalog.product(deleted.id) }
            await #expect(try shop.keycat.cart.cart(of: buyer).lines.first?.isAvailable == true)
            let order = try await shop.keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: suspended.id, quantity: 1)])), by: buyer)
            #expect(order.lines.map(\.productID) == [suspended.id])
        }
    }

    @Test("a seller made a buyer takes their listings out with them, and back when made a seller again, unless suspended meanwhile",
          arguments: TestStore.allCases)
    func demotionHidesListings(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            let listing = try await shop.keycat.catalog.create(TestShop.draft("강등될 상품"), for: seller.userID, by: seller)
            let mine = ProductListRequest(filter: ProductFilter(sellerID: seller.userID))

            _ = try await shop.keycat.accounts.setRole(seller.userID, to: .buyer, by: shop.operatorConsole)
            await #expect(try shop.keycat.catalog.list(mine).items.isEmpty)
            await expectError(.notFound) { try await shop.keycat.catalog.product(listing.id) }
            await #expect(try shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("강등")))).items.isEmpty)
            // Nobody lists for them now, an operator included.
            await expectError(.notFound) { try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: shop.operatorConsole) }

            _ = try await shop.keycat.accounts.setRole(seller.userID, to: .seller, by: shop.operatorConsole)
            await #expect(try shop.keycat.catalog.list(mine).items.map(\.id) == [listing.id])

            // Suspended, then made a buyer and a seller again: out until reinstated.
            _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole)
            await expectError(.notFound) { try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, by: shop.operatorConsole) }
            _ = try await shop.keycat.accounts.setRole(seller.userID, to: .buyer, by: shop.operatorConsole)
            _ = try await shop.keycat.accounts.setRole(seller.userID, to: .seller, by: shop.operatorConsole)
            await #expect(try shop.keycat.catalog.list(mine).items.isEmpty)
            _ = try await shop.keycat.accounts.reinstate(seller.userID, by: shop.operatorConsole)
            await #expect(try shop.keycat.catalog.list(mine).items.map(\.id) == [listing.id])

            // Made a buyer, suspended and reinstated, in either order: reinstated a buyer, they
            // bring no listing back (nobody would ship what was bought of them).
            for suspendFirst in [false, true] {
                if suspendFirst { _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole) }
                _ = try await shop.keycat.accounts.setRole(seller.userID, to: .buyer, by: shop.operatorConsole)
                if !suspendFirst { _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole) }
                _ = try await shop.keycat.accounts.reinstate(seller.userID, by: shop.operatorConsole)
                await #expect(try shop.keycat.catalog.list(mine).items.isEmpty)
                await expectError(.notFound) { try await shop.keycat.catalog.product(listing.id) }
                try await shop.expectHealthy()
                _ = try await shop.keycat.accounts.setRole(seller.userID, to: .seller, by: shop.operatorConsole)
                await #expect(try shop.keycat.catalog.list(mine).items.map(\.id) == [listing.id])
            }
            try await shop.expectHealthy()
        }
    }

    @Test("a listing's write checks its seller in its own statement: one suspended after the use case looked is refused, nothing written",
          arguments: TestStore.allCases)
    func insertChecksTheSeller(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let seller = try await shop.user(.seller)
            _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole)
            let before = try await shop.integer("SELECT count(*) FROM products")
            // The repository itself, as a create whose look at the seller came before the suspension.
            let draft = try TestShop.draft("늦은 상품").validated(at: shop.clock.now())
            await expectError(.notFound) {
                try await Self.insert(draft, for: seller.userID, at: shop.clock.now(), on: shop.keycat.store.database)
            }
            await #expect(try shop.integer("SELECT count(*) FROM products") == before)
        }
    }

    /// A listing written by the repository alone, as a create whose look at its seller is past.
    private static func insert(_ draft: ProductDraft, for seller: UserID, at now: Date, on database: some SQLDatabase) async throws {
        _ = try await SQLProductRepository(database: database).insert(draft, sellerID: seller, images: [], at: now, audit: nil)
    }

    @Test("a synthetic catalog big enough to rebuild the list indexes loads, lists in every sort, is searchable and keeps every index",
          arguments: TestStore.allCases)
    func syntheticCatalog(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let indexes = try Self.productIndexes(shop)
            // The rebuilding path from 5,000 listings rather than 50,000: at 50,000 the Postgres
            // load is one transaction of a minute and more, and every event reader on the
            // server (the other tests' webhook deliveries) waits for it to end.
            var batches: [(loaded: Int, indexes: [String])] = []
            let summary = try await shop.keycat.seedSynthetic(count: 6_000, seed: 7, by: shop.operatorConsole, rebuildThreshold: 5_000) {
                do {
                    batches.append(($0, try Self.productIndexes(shop)))
                } catch {
                    Issue.record(error, "the indexes could not be read after \($0) listings")
                }
            }
            #expect(summary.productsCreated == 6_000 && summary.sellersCreated == 50)
            if store == .postgres {
                #expect(batches.map(\.loaded) == [6_000])  // one transaction, from the drop to the rebuild
            } else {
                #expect(batches.map(\.loaded) == [5_000, 6_000])
                #expect(batches.allSatisfy { $0.indexes.count < indexes.count }, "the indexes are dropped while it loads")
            }
            #expect(try Self.productIndexes(shop) == indexes)
            for sort in ProductSort.browsing {
                let page = try await shop.keycat.catalog.list(ProductListRequest(sort: sort, limit: try PageLimit(20)))
                #expect(page.items.count == 20 && page.nextCursor != nil, "\(sort)")
            }
            let cheapest = try await shop.keycat.catalog.list(ProductListRequest(sort: .priceAscending)).items.map(\.pricing.salePrice)
            #expect(cheapest == cheapest.sorted())
            await #expect(try shop.keycat.checkHealth().isHealthy)
            // Search found them all, as indexing them one by one would have (written in bulk).
            await #expect(try shop.keycat.search.problems() == [])
            // The load wrote its postings and documents with foreign keys unchecked (SQLite's
            // switched off, Postgres's dropped and added back, checked in one pass), and every
            // write after it is checked again.
            await #expect(throws: (any Error).self) {
                try await shop.execute("INSERT INTO search_terms (term, product_id, weight) VALUES ('x', 999999999, 1)")
            }
            await #expect(throws: (any Error).self) {
                try await shop.execute("""
                    INSERT INTO search_documents (product_id, analyzer_version, title_key, words, terms)
                    VALUES (999999999, 1, 'x', '', '')
                    """)
            }
            // Their primary keys are whole again (Postgres's dropped and built after the rows): a
            // posting or a document written twice is refused.
            for table in ["search_terms", "search_documents"] {
                await #expect(throws: (any Error).self, "\(table)") {
                    try await shop.execute("INSERT INTO \(table) SELECT * FROM \(table) LIMIT 1")
                }
            }
            let found = try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("기계식 키보드"))))
            #expect(found.items.count == 20 && found.nextCursor != nil)
            if store == .postgres {
                // The load gathered the statistics Postgres plans searches from itself (a manual
                // `ANALYZE`, not autovacuum's, which may come minutes later). The server's
                // activity statistics can trail the commit by a moment.
                let analysed = """
                    SELECT count(*) FROM pg_stat_user_tables WHERE schemaname = current_schema() AND last_analyze IS NOT NULL
                    AND relname IN ('products', 'search_terms', 'search_documents', 'search_words')
                    """
                let deadline = Date().addingTimeInterval(30)
                while try Self.count(shop, analysed) < 4 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
                #expect(try Self.count(shop, analysed) == 4)
            }
            // Every listing with stock has its one `listed` movement of that stock, at its own
            // time (Postgres writes them in bulk, SQLite one by one), and ids follow time.
            let stocked = try Self.count(shop, "SELECT count(*) FROM products WHERE stock <> 0")
            #expect(stocked > 0)
            #expect(try Self.count(shop, "SELECT count(*) FROM stock_movements WHERE kind = 'listed'") == stocked)
            #expect(try Self.count(shop, """
                SELECT count(*) FROM products p JOIN stock_movements m ON m.product_id = p.id
                WHERE m.kind = 'listed' AND m.change = p.stock AND m.created_at = p.created_at AND m.actor = 'system'
                """) == stocked)
            #expect(try Self.count(shop, """
                SELECT count(*) FROM products a JOIN products b ON b.id = a.id + 1 WHERE b.created_at <= a.created_at
                """) == 0)
        }
    }

    @Test("an import that makes a tenth of the catalog or more gathers Postgres's statistics before it commits",
          arguments: TestStore.allCases)
    func importGathersStatistics(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop throws in
            let demo = try CatalogFile.decode(Data(CatalogFile.demoJSON.utf8))
            let summary = try await shop.keycat.importCatalog(demo, by: shop.operatorConsole)
            #expect(summary.productsCreated == demo.products.count && summary.productsCreated >= 50)
            guard store == .postgres else { return }
            // A manual `ANALYZE` of each table a search is planned from (autovacuum's are counted
            // apart), seen once the server's activity statistics catch up with the commit.
            let analysed = """
                SELECT count(*) FROM pg_stat_user_tables WHERE schemaname = current_schema() AND analyze_count > 0
                AND relname IN ('products', 'search_terms', 'search_documents', 'search_words')
                """
            let deadline = Date().addingTimeInterval(30)
            while try Self.count(shop, analysed) < 4 && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try Self.count(shop, analysed) == 4)
            // The same file again creates nothing, so it gathers nothing.
            let before = try Self.count(shop, "SELECT sum(analyze_count) FROM pg_stat_user_tables WHERE schemaname = current_schema()")
            #expect(try await shop.keycat.importCatalog(demo, by: shop.operatorConsole).productsCreated == 0)
            try await Task.sleep(for: .milliseconds(700))
            #expect(try Self.count(shop, "SELECT sum(analyze_count) FROM pg_stat_user_tables WHERE schemaname = current_schema()") == before)
        }
    }

    /// The integer `sql` answers, asked of the store directly.
    static func count(_ shop: TestShop, _ sql: String) throws -> Int64 {
        if let url = shop.keycat.configuration.store.postgres?.url {
            return try PostgresConnection(url: url).queryOne(sql, []) { $0.int64(0) } ?? -1
        }
        let connection = try SQLiteConnection(path: shop.keycat.configuration.databasePath, configuration: SQLiteConfiguration(), readOnly: true)
        return try connection.queryOne(sql, []) { $0.int64(0) } ?? -1
    }

    /// The names of `products`' indexes, from the store's own catalog.
    static func productIndexes(_ shop: TestShop) throws -> [String] {
        if let url = shop.keycat.configuration.store.postgres?.url {
            let connection = try PostgresConnection(url: url)
            return try connection.query(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'products' ORDER BY 1", []
            ) { $0.string(0) }
        }
        let connection = try SQLiteConnection(path: shop.keycat.configuration.databasePath, configuration: SQLiteConfiguration(), readOnly: true)
        return try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' ORDER BY 1", []) { $0.string(0) }
    }
}
