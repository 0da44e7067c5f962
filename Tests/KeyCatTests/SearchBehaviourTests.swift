import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// Search as the rest of the product sees it: the stores' ranking against the analyser's
/// reference, cursors under concurrent writes, freshness after every kind of write (on a second
/// server too), and tags.
@Suite("Search behaviour")
struct SearchBehaviourTests {
    /// Listings that all match `기계식 키보드` to different degrees.
    static let titles = [
        "기계식 키보드 (갈축)", "Felt F99 기계식키보드", "키보드 파우치 (기계식 전용)", "기계식 스위치 키보드 세트",
        "저소음 기계식 키보드 화이트", "키캣 캣87 유선 기계식 키보드 (적축)", "Nori 기계식 키보드 75%", "알루미늄 키보드 (기계식)",
    ]

    static func search(_ shop: TestShop, _ text: String, sort: ProductSort? = nil, limit: Int = 100, cursor: String? = nil,
                       filter: (inout ProductFilter) -> Void = { _ in }) async throws -> Page<Product> {
        var productFilter = ProductFilter(text: try SearchQuery(text))
        filter(&productFilter)
        return try await shop.keycat.catalog.list(ProductListRequest(filter: productFilter, sort: sort, limit: try PageLimit(limit), cursor: cursor))
    }

    @Test("each store's relevance order is the analyser's reference order", arguments: TestStore.allCases)
    func orderMatchesReference(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            for (index, title) in Self.titles.enumerated() {
                let product = try await shop.keycat.catalog.create(TestShop.draft(title) { draft in
                    draft.content = index % 2 == 0 ? "기계식 키보드 입문용으로 좋습니다." : "부드러운 타건감."
                    draft.stock = index % 3 == 0 ? 0 : 5
                }, for: seller.userID, by: seller)
                if index % 4 == 1 {
                    let buyer = try await shop.user(.buyer)
                    try await shop.keycat.bookmarks.add(product.id, by: buyer)
                }
            }
            for query in ["기계식 키보드", "기계식키보드", "키보드", "갈축", "felt", "기계식"] {
                let found = try await Self.search(shop, query).items
                let plan = SearchPlan(try SearchQuery(query))
                let listed = try await shop.keycat.catalog.list(ProductListRequest(limit: try PageLimit(100))).items
                let expected = listed.compactMap { product -> (Int64, Int64)? in
                    let terms = SearchAnalyzer.terms(title: product.title, content: product.content, tags: product.tags, spec: product.spec)
                    guard let score = plan.textScore(terms: terms, title: product.title) else { return nil }
                    return (SearchPlan.relevanceKey(textScore: score, product: product, sales: .none), product.id.rawValue)
                }.sorted { $0 > $1 }.map(\.1)
                #expect(found.map(\.id.rawValue) == expected, "\(query)")
                #expect(!found.isEmpty, "\(query)")
            }
        }
    }

    @Test("a relevance walk returns every listing present throughout exactly once while others are listed and deleted",
          arguments: TestStore.allCases)
    func cursorUnderWrites(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            var present: [ProductID] = []
            for index in 0..<24 {
                let product = try await shop.keycat.catalog.create(
                    TestShop.draft(Self.titles[index % Self.titles.count] + " \(index)"), for: seller.userID, by: seller)
                present.append(product.id)
            }
            var doomed = Array(present.suffix(6))
            present.removeLast(6)
            var seen: [ProductID] = []
            var cursor: String?
            var round = 0
            repeat {
                let page = try await Self.search(shop, "기계식 키보드", limit: 4, cursor: cursor)
                seen += page.items.map(\.id)
                cursor = page.nextCursor
                // Between pages: a new listing that ranks anywhere, and one listing deleted.
                _ = try await shop.keycat.catalog.create(TestShop.draft(Self.titles[round % Self.titles.count] + " 새 상품"),
                                                         for: seller.userID, by: seller)
                if let victim = doomed.popLast() { try await shop.keycat.catalog.delete(victim, by: seller) }
                round += 1
            } while cursor != nil && round < 50
            #expect(cursor == nil)
            #expect(Set(seen).count == seen.count, "no listing twice")
            #expect(Set(present).isSubset(of: Set(seen)), "every listing present throughout was returned")
        }
    }

    @Test("every sort works with a text, and so do the filters and the tag", arguments: TestStore.allCases)
    func sortsAndFilters(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            for (index, title) in Self.titles.enumerated() {
                _ = try await shop.keycat.catalog.create(TestShop.draft(title, price: Int64(50_000 + index * 10_000)) { draft in
                    draft.tags = index % 2 == 0 ? ["입문용", "Gift"] : []
                    if index == 2 { draft.category = .accessory }
                }, for: seller.userID, by: seller)
            }
            let cheapest = try await Self.search(shop, "키보드", sort: .priceAscending).items.map(\.pricing.salePrice.won)
            #expect(cheapest == cheapest.sorted() && cheapest.count == Self.titles.count)
            let newest = try await Self.search(shop, "키보드", sort: .newest).items.map(\.id.rawValue)
            #expect(newest == newest.sorted(by: >))
            let accessories = try await Self.search(shop, "키보드") { $0.category = .accessory }.items.map(\.title)
            #expect(accessories == ["키보드 파우치 (기계식 전용)"])
            let tagged = try await Self.search(shop, "키보드") { $0.tag = try! ProductTags.filterValue("#GIFT") }.items
            #expect(tagged.count == 4 && tagged.allSatisfy { $0.tags == ["입문용", "Gift"] })
            let byTag = try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(tag: try ProductTags.filterValue("입문용"))))
            #expect(byTag.items.count == 4)
            // A cursor is bound to its text's words: another text is refused, the same words
            // spelt otherwise (case, punctuation, spacing) resume the same list.
            let first = try await Self.search(shop, "키보드", limit: 2)
            let cursor = try #require(first.nextCursor)
            await expectError(.invalidCursor) { try await Self.search(shop, "기계식", limit: 2, cursor: cursor) }
            let resumed = try await Self.search(shop, "키보드", limit: 2, cursor: cursor).items.map(\.id)
            #expect(try await Self.search(shop, "  키보드!", limit: 2, cursor: cursor).items.map(\.id) == resumed)
            #expect(!resumed.isEmpty && Set(resumed).isDisjoint(with: first.items.map(\.id)))
            await expectError(.validation, field: "sort") {
                try await shop.keycat.catalog.list(ProductListRequest(sort: .relevance))
            }
        }
    }

    @Test("an edit, a stock change, a deletion and a seller's suspension show in search when the write returns",
          arguments: TestStore.allCases)
    func freshness(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let other = try await shop.user(.seller)
            let first = try await shop.keycat.catalog.create(TestShop.draft("바다축 키보드"), for: seller.userID, by: seller)
            let second = try await shop.keycat.catalog.create(TestShop.draft("바다축 키보드 화이트"), for: other.userID, by: other)
            #expect(Set(try await Self.search(shop, "바다축").items.map(\.id)) == [first.id, second.id])
            var changes = ProductChanges(expectedVersion: first.version)
            changes.title = "노을축 키보드"
            changes.tags = ["sunset"]
            let edited = try await shop.keycat.catalog.update(first.id, changes, by: seller)
            #expect(try await Self.search(shop, "바다축").items.map(\.id) == [second.id])
            #expect(try await Self.search(shop, "노을축").items.map(\.id) == [first.id])
            #expect(try await Self.search(shop, "sunset").items.map(\.id) == [first.id])
            // In stock ranks first among equal text.
            _ = try await shop.keycat.catalog.create(TestShop.draft("노을축 키보드"), for: other.userID, by: other)
            var soldOut = ProductChanges(expectedVersion: edited.version)
            soldOut.stock = 0
            _ = try await shop.keycat.catalog.update(first.id, soldOut, by: seller)
            #expect(try await Self.search(shop, "노을축").items.last?.id == first.id)
            _ = try await shop.keycat.accounts.suspend(other.userID, by: shop.operatorConsole)
            #expect(try await Self.search(shop, "키보드").items.map(\.id) == [first.id])
            try await shop.keycat.catalog.delete(first.id, by: seller)
            #expect(try await Self.search(shop, "키보드").items.isEmpty)
            #expect(try await shop.keycat.search.problems() == [])
        }
    }

    @Test("a listing written through one server is found through another at once")
    func secondServer() async throws {
        guard TestStore.allCases.contains(.postgres) else { return }
        try await TestShop.with(.postgres) { shop in
            let second = try await KeyCat.open(shop.keycat.configuration)
            defer { second.close() }
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축"), for: seller.userID, by: seller)
            let found = try await second.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("몽돌"))))
            #expect(found.items.map(\.id) == [product.id])
            try await second.search.addSynonym("몽돌", "mongdol", by: shop.operatorConsole)
            let bySynonym = try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("mongdol"))))
            #expect(bySynonym.items.map(\.id) == [product.id])
        }
    }

    @Test("a suspended seller's words are not suggested, and come back with the reinstatement", arguments: TestStore.allCases)
    func suspendedSellersWords(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("Scamboard 사기 키보드") { $0.tags = ["스캠"] }, for: seller.userID, by: seller)
            func suggested(_ text: String) async throws -> [String] {
                try await shop.keycat.search.suggestions(try SuggestionQuery(text)).map(\.text)
            }
            #expect(try await suggested("scam").contains("Scamboard"))
            _ = try await shop.keycat.accounts.suspend(seller.userID, by: shop.operatorConsole)
            let hidden = (try await suggested("scam"), try await suggested("ㅅㅋ"))
            #expect(hidden.0 == [] && hidden.1 == [])
            #expect(try await shop.keycat.search.problems() == [])
            _ = try await shop.keycat.accounts.reinstate(seller.userID, by: shop.operatorConsole)
            let back = (try await suggested("scam"), try await suggested("ㅅㅋ"))
            #expect(back.0.contains("Scamboard") && back.1.contains("스캠"))
            #expect(try await shop.keycat.search.problems() == [])
        }
    }

    @Test("a relevance search has no cursor but its pages' own")
    func relevanceCursorRefused() async throws {
        try await TestShop.with { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축"), for: seller.userID, by: seller)
            let request = ProductListRequest(filter: ProductFilter(text: try SearchQuery("몽돌")))
            await expectError(.validation, field: "sort") { try shop.keycat.catalog.cursor(resumingAfter: product, in: request) }
        }
    }

    @Test("a description of one 1,000-syllable word, or of a letter under 1,000 marks, is listed and found on both stores",
          arguments: TestStore.allCases)
    func longWords(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let syllables = String(repeating: "가나다라마바사아자차", count: 100)
            let marks = "a" + String(repeating: "\u{093E}", count: 1_000)
            let product = try await shop.keycat.catalog.create(TestShop.draft("긴 설명 키보드") { $0.content = syllables + " " + marks },
                                                               for: seller.userID, by: seller)
            #expect(try await Self.search(shop, "마바사").items.map(\.id) == [product.id])
            #expect(try await shop.keycat.search.problems() == [])
        }
    }

    @Test("a title word ending in a particle-like syllable completes and abbreviates whole; a tag's initials find it",
          arguments: TestStore.allCases)
    func wholeVocabularyWords(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let retro = try await shop.keycat.catalog.create(TestShop.draft("레트로 키캡 세트"), for: seller.userID, by: seller)
            let office = try await shop.keycat.catalog.create(TestShop.draft("조용한 키보드") { $0.tags = ["사무실"] },
                                                              for: seller.userID, by: seller)
            let completions = try await shop.keycat.search.suggestions(try SuggestionQuery("레ㅌ")).map(\.text)
            #expect(completions.contains("레트로") && !completions.contains("레트"), "\(completions)")
            #expect(try await Self.search(shop, "ㄹㅌㄹ").items.map(\.id) == [retro.id])
            #expect(try await Self.search(shop, "ㅅㅁㅅ").items.map(\.id) == [office.id])
        }
    }

    @Test("tags are checked: at most 10, 1–20 letters, digits or _, repeats kept once")
    func tagRules() async throws {
        #expect(try ProductTags.validated(["#갈축", "PBT", "pbt", "저소음_키보드"]) == ["갈축", "PBT", "저소음_키보드"])
        await expectError(.validation, field: "tags") { try ProductTags.validated((1...11).map { "tag\($0)" }) }
        await expectError(.validation, field: "tags") { try ProductTags.validated(["two words"]) }
        await expectError(.validation, field: "tags") { try ProductTags.validated([""]) }
        await expectError(.validation, field: "tags") { try ProductTags.validated([String(repeating: "가", count: 21)]) }
        await expectError(.validation, field: "tags") { try ProductTags.validated(["a" + String(repeating: "\u{093E}", count: 2_000)]) }
        #expect(try ProductTags.validated([String(repeating: "가", count: 20)]).count == 1)
        await expectError(.validation, field: "tag") { try ProductTags.filterValue("a,b") }
        try await TestShop.with { shop in
            let seller = try await shop.user(.seller)
            let before = try await shop.rowCounts()
            await expectError(.validation, field: "tags") {
                try await shop.keycat.catalog.create(TestShop.draft { $0.tags = ["ok", "not ok"] }, for: seller.userID, by: seller)
            }
            #expect(try await shop.rowCounts() == before, "a refused listing writes nothing, index included")
        }
    }
}
