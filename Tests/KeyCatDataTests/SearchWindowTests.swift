import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// A broad search ranks a window of its newest matches (``SearchWindow``), and other sorts walk
/// their index instead (``SearchExecution``): the same on both stores, with windows of a few
/// listings so the walks are short.
@Suite("Search windows")
struct SearchWindowTests {
    /// A fresh store with a seller, its repository with `window`, and a way to list titles.
    struct Shop<Database: SQLDatabase> {
        let database: Database
        let repository: SQLProductRepository<Database>
        var seller: UserID
        var time = Date(timeIntervalSince1970: 1_767_225_600)

        /// Lists `title` (with `content` and `stock`), a second after the one before.
        @discardableResult
        mutating func list(_ title: String, content: String = "", stock: Int = 5, price: Int64 = 50_000,
                           tags: [String] = []) async throws -> Product {
            time.addTimeInterval(1)
            var draft = ProductDraft(
                kind: .commercial, category: .keyboard, title: title, content: content,
                pricing: Pricing(regularPrice: Money(won: price), salePrice: Money(won: price)),
                delivery: Delivery(fee: Money(won: 0), schedule: .standard), stock: stock)
            draft.tags = tags
            let (seller, now) = (self.seller, time)
            return try await database.write { try ProductRow.insert(draft, sellerID: seller, images: [], at: now, on: $0) }
        }

        func delete(_ id: ProductID) async throws {
            try await repository.delete(id, expectedVersion: nil, at: time, audit: nil)
        }

        /// Every page of `text` under `sort`, `pageSize` at a time, as ``CatalogService`` walks
        /// them; `between` runs after each page.
        func walk(_ text: String, sort: ProductSort = .relevance, pageSize: Int, filter: ProductFilter = ProductFilter(),
                  between: (Int) async throws -> Void = { _ in }) async throws -> [Product] {
            var filter = filter
            filter.text = try SearchQuery(text)
            var seen: [Product] = []
            var position: CursorPosition?
            for page in 0..<200 {
                let found = try await repository.search(filter, sort: sort, after: position, limit: pageSize + 1)
                let hits = found.hits
                seen += hits.prefix(pageSize).map(\.product)
                if hits.count > pageSize {
                    let last = hits[pageSize - 1]
                    position = CursorPosition(sortKey: last.key, id: last.product.id.rawValue)
                } else if let walkedTo = found.walkedTo {
                    position = walkedTo
                } else {
                    return seen
                }
                try await between(page)
            }
            Issue.record("the walk did not end")
            return seen
        }

        /// The matches of `text` among `products`, in the relevance order the analyser's
        /// reference gives.
        static func reference(_ text: String, _ products: [Product]) throws -> [ProductID] {
            var plan = SearchPlan(try SearchQuery(text))
            let analysed = products.map { SearchAnalyzer.terms(title: $0.title, content: $0.content, tags: $0.tags, spec: $0.spec) }
            plan.narrowBroadPrefixes(terms: Set(analysed.flatMap(\.keys)), titleWords: SearchPlan.titleWords(of: products))
            return zip(products, analysed).compactMap { product, terms -> (Int64, Int64)? in
                guard let score = plan.textScore(terms: terms, title: product.title) else { return nil }
                return (SearchPlan.relevanceKey(textScore: score, product: product, sales: .none), product.id.rawValue)
            }.sorted { $0 > $1 }.map { ProductID($0.1) }
        }
    }

    /// A fresh store with a seller, whose searches spend `budget` look-ups a page
    /// (``SearchWindow/sizes(of:terms:budget:)``: a window of a third of it for one group and one
    /// whole-word bonus, a fifth for two of each, a sixth for three groups and two bonuses).
    static func make<Database: SQLDatabase>(_ database: Database, budget: Int) async throws -> Shop<Database> {
        try KeyCatSchema.migrator().migrate(database)
        let seller = try await database.write { connection in
            try CatalogSeeder<Database>.ensureSeller(SeedSeller(email: "window@example.com", nick: "창"), at: Date(), on: connection).0
        }
        return Shop(database: database, repository: SQLProductRepository(database: database, searchWindowBudget: budget), seller: seller)
    }

    @Test("a tag's list without a query: a rare tag read from its postings, a common one walked in the sort's index, an unused one empty; every sort, page by page",
          arguments: TestStore.allCases)
    func tagLists(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            // A window of 3 postings: the common tag (6 listings) is walked, the rare one (2) read.
            var shop = try await Self.make(database, budget: 2 * 3)
            var listed: [Product] = []
            for index in 1...12 {
                let tags = (index % 2 == 0 ? ["흔함"] : []) + (index % 5 == 0 ? ["드묾"] : [])
                listed.append(try await shop.list("키보드 \(index)", price: Int64(10_000 + (index * 7_919) % 50_000), tags: tags))
            }
            for sort in ProductSort.browsing {
                for tag in ["흔함", "드묾", "없음"] {
                    var seen: [Product] = []
                    var position: CursorPosition?
                    while true {
                        let found = try await shop.repository.search(ProductFilter(tag: tag), sort: sort, after: position, limit: 3)
                        let page = found.hits.map(\.product)
                        seen += page.prefix(2)
                        if page.count > 2 {
                            position = CursorPosition(sortKey: sort.key(of: page[1]), id: page[1].id.rawValue)
                        } else if let walkedTo = found.walkedTo {
                            position = walkedTo
                        } else {
                            break
                        }
                    }
                    let expected = listed.filter { $0.tags.contains(tag) }
                        .sorted { (sort.key(of: $0), $0.id.rawValue) > (sort.key(of: $1), $1.id.rawValue) }
                    let ordered = sort == .priceAscending
                        ? listed.filter { $0.tags.contains(tag) }.sorted { (sort.key(of: $0), $0.id.rawValue) < (sort.key(of: $1), $1.id.rawValue) }
                        : expected
                    #expect(seen.map(\.id) == ordered.map(\.id), "\(tag), \(sort)")
                }
            }
            // A tag no listing has ends at its count, one statement that reads no listing (walking
            // the sort's index read every listing for it).
            let statements = try await database.read { connection in
                var statements: [String] = []
                let hits = try SearchExecution.hits(tagged: "없음", filter: ProductFilter(), sort: .newest, after: nil, limit: 3,
                                                    windowBudget: 6, on: connection) { sql, _ in statements.append(sql) }
                #expect(hits.hits.isEmpty && hits.walkedTo == nil)
                return statements
            }
            #expect(statements.count == 1 && !statements[0].contains("products"), "\(statements)")
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("two words each common but seldom together: a sort's walk examines a window's worth of listings a page, and the pages hold every match once",
          arguments: TestStore.allCases)
    func boundedWalk(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 2 * 3)
            var both: [Product] = []
            for index in 1...40 {
                let title = index == 7 || index == 31 ? "갈축 적축 키보드 \(index)" : index % 2 == 0 ? "갈축 키보드 \(index)" : "적축 키보드 \(index)"
                let product = try await shop.list(title, price: Int64(10_000 + (index * 7_919) % 50_000))
                if title.hasPrefix("갈축 적축") { both.append(product) }
            }
            var filter = ProductFilter()
            filter.text = try SearchQuery("갈축 적축")
            for sort in ProductSort.browsing {
                // The first page examines a few listings, not the forty: short, and it says where it stopped.
                let first = try await shop.repository.search(filter, sort: sort, after: nil, limit: 3)
                #expect(first.hits.count < 3 && first.walkedTo != nil, "\(sort)")
                let ascending = sort == .priceAscending
                let expected = both.sorted {
                    ascending ? (sort.key(of: $0), $0.id.rawValue) < (sort.key(of: $1), $1.id.rawValue)
                        : (sort.key(of: $0), $0.id.rawValue) > (sort.key(of: $1), $1.id.rawValue)
                }
                #expect(try await shop.walk("갈축 적축", sort: sort, pageSize: 2).map(\.id) == expected.map(\.id), "\(sort)")
            }
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("a withdrawn seller's listings leave the index: a common word's window is not filled with their hidden listings",
          arguments: TestStore.allCases)
    func withdrawnSellerLeavesTheWindow(_ store: TestStore) async throws {
        func check<Database: SQLDatabase>(_ database: Database) async throws {
            var shop = try await Self.make(database, budget: 2 * 3)
            let kept = try await shop.list("갈축 키보드 원조")
            shop.seller = try await database.write { connection in
                try CatalogSeeder<Database>.ensureSeller(SeedSeller(email: "leaver@example.com", nick: "떠남"), at: Date(), on: connection).0
            }
            for index in 1...6 { try await shop.list("갈축 키보드 \(index)") }
            let leaver = shop.seller
            // Until 2026-12-01 the six stayed indexed, unlisted: the word's window held only
            // them, and the search came back empty.
            let at = shop.time.addingTimeInterval(1)
            #expect(try await SQLUserRepository(database: database).withdraw(
                leaver, at: at, audit: AuditEntry(actor: "seller:\(leaver)", action: "user.withdraw", at: at)))
            #expect(try await shop.walk("갈축", pageSize: 5).map(\.id) == [kept.id])
            let left = try await database.read { connection in
                try connection.queryOne("SELECT count(*) FROM search_terms t JOIN products p ON p.id = t.product_id WHERE p.seller_id = ?",
                                        [.integer(leaver.rawValue)]) { $0.int(0) }
            }
            #expect(left == 0)
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("a first page its window leaves short looks once more, eight times as deep: past a suspended seller's listings, and for a selective filter",
          arguments: TestStore.allCases)
    func shortFirstPageLooksDeeper(_ store: TestStore) async throws {
        func check<Database: SQLDatabase>(_ database: Database) async throws {
            // A window of two postings for `갈축`; eight times as deep is sixteen.
            var shop = try await Self.make(database, budget: 2 * 3)
            let kept = try await shop.list("갈축 키보드 원조", price: 9_000)
            let owner = shop.seller
            shop.seller = try await database.write { connection in
                try CatalogSeeder<Database>.ensureSeller(SeedSeller(email: "big@example.com", nick: "큰가게"), at: Date(), on: connection).0
            }
            for index in 1...6 { try await shop.list("갈축 키보드 \(index)") }
            let big = shop.seller
            let at = shop.time.addingTimeInterval(1)
            _ = try await SQLUserRepository(database: database).changeAccess(
                big, .suspend, at: at, audit: AuditEntry(actor: "cli:root", action: "user.suspend", at: at))
            // Until 2026-12-02 the window held only the suspended seller's hidden listings, and
            // the first page came back empty.
            #expect(try await shop.walk("갈축", pageSize: 5).map(\.id) == [kept.id])
            _ = try await SQLUserRepository(database: database).changeAccess(big, .reinstate, at: at, audit: nil)

            // A filter only old listings meet: the six new ones are too dear.
            var cheap = ProductFilter()
            cheap.maximumPrice = Money(won: 10_000)
            #expect(try await shop.walk("갈축", pageSize: 5, filter: cheap).map(\.id) == [kept.id])
            // Looking deeper is bounded: once more than sixteen newer listings stand before it,
            // a first page ends short, as a window does.
            shop.seller = owner
            for index in 7...26 { try await shop.list("갈축 키보드 \(index)") }
            #expect(try await shop.walk("갈축", pageSize: 5, filter: cheap).isEmpty)
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("after a deeper look the group that set the floor drives the next pages too, counted with as much more room",
          arguments: TestStore.allCases)
    func deeperLookKeepsItsDriver(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            // For `갈축 적축`: windows of 6 postings (4 when sparse), 48 (32) when deeper.
            var shop = try await Self.make(database, budget: 6 * 5)
            for index in 0..<40 { try await shop.list("갈축 적축 \(index)", price: 9_000) }
            for index in 0..<60 { try await shop.list("갈축 \(index)") }
            for index in 0..<6 { try await shop.list("갈축 적축 새 \(index)") }
            // The newest window holds only dear listings: the first page looks deeper, where
            // 적축's postings reach further back, and 적축 drives. On the next page both words
            // have more than two windows above the floor: counted with room for two windows only,
            // both stopped at the cap and 갈축, first, drove, its 92 postings above the floor
            // candidates where 적축 has 32.
            var cheap = ProductFilter()
            cheap.maximumPrice = Money(won: 10_000)
            var drivers: [String] = []
            var seen: [ProductID] = []
            var position: CursorPosition?
            for _ in 0..<3 {
                let page = try await database.read { connection in
                    var driver: String?
                    let page = try SearchExecution.hits(text: try SearchQuery("갈축 적축"), filter: cheap, sort: .relevance,
                                                        after: position, limit: 5, windowBudget: 6 * 5, on: connection) { sql, arguments in
                        guard sql.contains("c.product_id >= ?") else { return }
                        for (term, bound) in zip(arguments, arguments.dropFirst()) {
                            if case let .text(word) = term, ["갈축", "적축"].contains(word), case let .integer(floor) = bound, floor > 0 {
                                driver = word
                                break
                            }
                        }
                    }
                    return (page, driver)
                }
                drivers.append(page.1 ?? "none")
                seen += page.0.hits.prefix(4).map(\.product.id)
                guard page.0.hits.count > 4, let last = page.0.hits.prefix(4).last else { break }
                position = CursorPosition(sortKey: last.key, id: last.product.id.rawValue)
            }
            #expect(drivers == ["적축", "적축", "적축"], "\(drivers)")
            #expect(seen.count == 12 && Set(seen).count == 12, "three full pages of cheap listings, none twice")
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("a window counts each group's terms: a prefix spelt out into twelve words costs a candidate twelve look-ups")
    func windowCountsTerms() throws {
        let plan = SearchPlan(try SearchQuery("gater"))
        var terms = SearchTerms()
        // Not spelt out: the word itself, one look-up, and one for the listing.
        #expect(SearchWindow.sizes(of: plan, terms: terms, budget: 6_000).dense == 3_000)
        terms.expansions["gater"] = (1...12).map { "gater\($0)" }
        #expect(SearchWindow.sizes(of: plan, terms: terms, budget: 6_000).dense == 6_000 / 13)
    }

    @Test("a query whose rarest group fits the window is ranked exactly, page after page", arguments: TestStore.allCases)
    func exactWithinWindow(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 10_000)
            var listed: [Product] = []
            for index in 0..<30 {
                let title = index % 3 == 0 ? "갈축 기계식 키보드 \(index)" : "기계식 키보드 \(index)"
                listed.append(try await shop.list(title, content: index % 2 == 0 ? "갈축 스위치" : "", stock: index % 4 == 0 ? 0 : 3))
            }
            for text in ["갈축", "기계식 키보드", "갈축 키보드", "기계식키보드"] {
                let seen = try await shop.walk(text, pageSize: 4).map(\.id)
                #expect(seen == (try Shop<SQLiteDatabase>.reference(text, listed)), "\(text)")
            }
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("a broad query ranks the window of its newest postings, and every page reads the same window", arguments: TestStore.allCases)
    func windowOfNewest(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 8 * 3)
            var listed: [Product] = []
            for index in 0..<30 {
                // Older listings score higher (title and content): the window keeps them out all the same.
                let content = index < 20 ? "갈축" : ""
                listed.append(try await shop.list("갈축 키보드 \(index)", content: content, stock: index % 5 == 0 ? 0 : 2))
            }
            let window = Array(listed.suffix(8))
            let seen = try await shop.walk("갈축", pageSize: 3).map(\.id)
            #expect(seen == (try Shop<SQLiteDatabase>.reference("갈축", window)))
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("within a window, a listing present throughout is returned once while others are listed and deleted",
          arguments: TestStore.allCases)
    func windowUnderWrites(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 10 * 3)
            var listed: [Product] = []
            for index in 0..<30 { listed.append(try await shop.list("갈축 키보드 \(index)", content: index % 3 == 0 ? "갈축" : "")) }
            let window = Array(listed.suffix(10))
            var doomed = [window[1].id, window[4].id, listed[2].id]
            var added: [ProductID] = []
            var mutable = shop
            let seen = try await shop.walk("갈축", pageSize: 2) { page in
                // A new listing that ranks anywhere (above the floor, so in the window), and a deletion.
                added.append(try await mutable.list("갈축 키보드 새 \(page)", content: page % 2 == 0 ? "갈축" : "").id)
                if let victim = doomed.popLast() { try await mutable.delete(victim) }
            }.map(\.id)
            #expect(Set(seen).count == seen.count, "no listing twice")
            let present = Set(window.map(\.id)).subtracting([window[1].id, window[4].id])
            #expect(present.isSubset(of: Set(seen)), "every listing of the window present throughout")
            #expect(!seen.contains { id in listed.prefix(20).contains { $0.id == id } }, "nothing older than the window")
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("the group whose newest postings reach furthest back drives, so the window holds the most matches",
          arguments: TestStore.allCases)
    func furthestReachingGroupDrives(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 6 * 5)
            var both: [Product] = []
            for index in 0..<12 { both.append(try await shop.list("갈축 적축 \(index)")) }
            for index in 0..<12 { try await shop.list("갈축 \(index)") }
            // 갈축's six newest postings have no 적축; 적축's six newest all have 갈축.
            let seen = try await shop.walk("갈축 적축", pageSize: 4).map(\.id)
            #expect(seen == (try Shop<SQLiteDatabase>.reference("갈축 적축", Array(both.suffix(6)))))
            // The next page is driven by the same group, 적축: counted from the floor, it has the
            // fewest postings there. (Counted from the start, both stopped at the cap and 갈축,
            // first, drove: every one of its postings above the floor a candidate.) The driving
            // group's term is the one the page statement bounds by the floor (`c.product_id >= ?`).
            var drivers: [String] = []
            var position: CursorPosition?
            for _ in 0..<2 {
                let page = try await database.read { connection in
                    var driver: String?
                    let page = try SearchExecution.hits(text: try SearchQuery("갈축 적축"), filter: ProductFilter(), sort: .relevance,
                                                        after: position, limit: 5, windowBudget: 6 * 5, on: connection) { sql, arguments in
                        guard sql.contains("c.product_id >= ?") else { return }
                        for (term, bound) in zip(arguments, arguments.dropFirst()) {
                            if case let .text(word) = term, ["갈축", "적축"].contains(word), case let .integer(floor) = bound, floor > 0 {
                                driver = word
                                break
                            }
                        }
                    }
                    return (page, driver)
                }
                if let driver = page.1 { drivers.append(driver) }
                guard let last = page.0.hits.prefix(4).last else { break }
                position = CursorPosition(sortKey: last.key, id: last.product.id.rawValue)
            }
            #expect(drivers == ["적축", "적축"], "\(drivers)")
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("other sorts read no window: a broad query walks the sort's index, exactly", arguments: TestStore.allCases)
    func otherSortsAreExact(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 5 * 6)
            var listed: [Product] = []
            for index in 0..<24 {
                let title = index % 6 == 5 ? "적축 마우스 \(index)" : "갈축 키보드 \(index)"
                listed.append(try await shop.list(title, price: Int64(10_000 + (index * 7_919) % 13 * 1_000)))
            }
            let matching = listed.filter { $0.title.hasPrefix("갈축") }
            let cheapest = try await shop.walk("갈축 키보드", sort: .priceAscending, pageSize: 4)
            #expect(cheapest.map(\.id) == matching.sorted { ($0.pricing.salePrice.won, $0.id.rawValue) < ($1.pricing.salePrice.won, $1.id.rawValue) }.map(\.id))
            let newest = try await shop.walk("갈축", sort: .newest, pageSize: 5)
            #expect(newest.map(\.id) == matching.map(\.id).reversed())
            // A rare query under another sort reads its postings: the same answer.
            let rare = try await shop.walk("적축", sort: .priceDescending, pageSize: 2)
            #expect(Set(rare.map(\.id)) == Set(listed.filter { $0.title.hasPrefix("적축") }.map(\.id)) && rare.count == 4)
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("a Latin prefix is spelt out into the index's words; past 64 of them it is a whole word", arguments: TestStore.allCases)
    func prefixes(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            var shop = try await Self.make(database, budget: 10_000)
            var listed: [Product] = []
            for index in 1...70 { listed.append(try await shop.list("Keyboard K\(index) 키보드", stock: index % 7)) }
            listed.append(try await shop.list("Gateron Yellow 스위치"))
            listed.append(try await shop.list("Gaterade 음료수"))
            // `k` begins 71 words (k1…k70, keyboard): it is the word `k` alone, which no title has,
            // in the store as in the reference.
            for text in ["k1", "k", "gater", "gateron", "k7 키보드"] {
                let seen = try await shop.walk(text, pageSize: 9).map(\.id)
                #expect(seen == (try Shop<SQLiteDatabase>.reference(text, listed)), "\(text)")
            }
            #expect(try await shop.walk("k", pageSize: 9).isEmpty)
            listed.append(try await shop.list("K 키보드 파우치"))
            #expect(try await shop.walk("k", pageSize: 9).map(\.id) == [listed[listed.count - 1].id])
            #expect(try Shop<SQLiteDatabase>.reference("k", listed) == [listed[listed.count - 1].id])
        }
        try await store.withDatabases { try await check($0[0]) }
    }

    @Test("a first page of words each spelt out into 64 terms reads every group's floors, in statements SQLite takes",
          arguments: TestStore.allCases)
    func floorsOfManyTerms(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            // A budget so small that every group is broad, and the floors are read for all ten.
            var shop = try await Self.make(database, budget: 1)
            let prefixes = (0..<10).map { "q" + String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
            let letters = "abcdefgh".map(String.init)
            // 64 words under each prefix (qaaa … qahh): each prefix is spelt out, 640 terms in all.
            let words = prefixes.flatMap { prefix in letters.flatMap { first in letters.map { prefix + first + $0 } } }
            var listed = [try await shop.list("모든 단어", content: words.joined(separator: " "))]
            listed.append(try await shop.list("일부 단어", content: words.prefix(64).joined(separator: " ")))
            for text in [prefixes.prefix(8).joined(separator: " "), prefixes.joined(separator: " ")] {
                let seen = try await shop.walk(text, pageSize: 5).map(\.id)
                #expect(seen == [listed[0].id], "\(text)")
            }
        }
        try await store.withDatabases { try await check($0[0]) }
    }
}
