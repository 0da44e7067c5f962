import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// docs/search.md "Limits": a query of 1–100 characters and at most 10 words is answered, and
/// answered alike by both stores, however its text is made up; only those limits are 400s.
@Suite("Search within the limits")
struct SearchLimitsTests {
    static func search(_ shop: TestShop, _ text: String, sort: ProductSort? = nil) async throws -> [ProductID] {
        let request = ProductListRequest(filter: ProductFilter(text: try SearchQuery(text)), sort: sort, limit: try PageLimit(100))
        return try await shop.keycat.catalog.list(request).items.map(\.id)
    }

    @Test("one 66-syllable word, and ten words of nine syllables, are answered with every bigram required",
          arguments: TestStore.allCases)
    func manyBigrams(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            // 키보드 키캡 holds 키보, 보드 and the bigram across its space, 드키: every bigram of 키보드키보드….
            let every = try await shop.keycat.catalog.create(TestShop.draft("키보드 키캡 세트"), for: seller.userID, by: seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("키보드 파우치"), for: seller.userID, by: seller)
            let longWord = String(repeating: "키보드", count: 22)
            let tenWords = Array(repeating: String(repeating: "키보드", count: 3), count: 10).joined(separator: " ")
            #expect(longWord.count == 66 && tenWords.count == 99)
            for text in [longWord, tenWords] {
                #expect(try await Self.search(shop, text) == [every.id], "\(text.count) characters")
                #expect(try await Self.search(shop, text, sort: .priceAscending) == [every.id], "\(text.count) characters")
                let facets = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery(text)))
                #expect(facets.total == 1)
            }
        }
    }

    @Test("a word has at most 20 synonyms: the 21st is limit_reached and changes nothing; a pair already there is no new one",
          arguments: TestStore.allCases)
    func synonymsPerWord(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            for index in 0..<SynonymPair.maximumPerWord {
                try await shop.keycat.search.addSynonym("keeb", "board\(index)", by: shop.operatorConsole)
            }
            await expectError(.limitReached) { try await shop.keycat.search.addSynonym("keeb", "boardx", by: shop.operatorConsole) }
            // Counted from either side: the other word's list is full too.
            await expectError(.limitReached) { try await shop.keycat.search.addSynonym("boardx", "keeb", by: shop.operatorConsole) }
            #expect(try await !shop.keycat.search.addSynonym("keeb", "board3", by: shop.operatorConsole))
            #expect(try await shop.keycat.search.synonyms().count == SynonymPair.maximumPerWord)
            try await shop.keycat.search.removeSynonym("keeb", "board3", by: shop.operatorConsole)
            #expect(try await shop.keycat.search.addSynonym("keeb", "boardx", by: shop.operatorConsole))
        }
    }

    @Test("a typo is forgiven in a Latin word of 5–20 code points: a letter under hundreds of marks is not one",
          arguments: TestStore.allCases)
    func typoByScalars(_ store: TestStore) async throws {
        #expect(try SearchQuery("keychorn").typoCandidates == ["keychorn"])
        let marked = "abcde" + String(repeating: "\u{0345}", count: 460)
        #expect(marked.count == 5)
        #expect(try SearchQuery(marked).typoCandidates == [])
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let keychron = try await shop.keycat.catalog.create(TestShop.draft("Keychron K2 키보드"), for: seller.userID, by: seller)
            #expect(try await Self.search(shop, "keychorn") == [keychron.id])
            for count in [460, 920] {
                let text = "abcde" + String(repeating: "\u{0345}", count: count)
                #expect(try await Self.search(shop, text) == [], "\(count) marks")
                let facets = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery(text)))
                #expect(facets.total == 0, "\(count) marks")
            }
        }
    }

    @Test("a prefix under which the index has more than 64 words matches only as a whole word, in pages and facets alike; a word given twice asks once",
          arguments: TestStore.allCases)
    func broadPrefixIsAWord(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let codes = (1...70).map { String(format: "zq%02d", $0) }.joined(separator: " ")
            let many = try await shop.keycat.catalog.create(TestShop.draft("알파 키보드") { $0.content = codes }, for: seller.userID, by: seller)
            let word = try await shop.keycat.catalog.create(TestShop.draft("ZQ 키보드"), for: seller.userID, by: seller)
            // Spelt out, it would be 71 words each checked per candidate; read as a range, every
            // candidate read all their postings. It is the word `zq` alone.
            for text in ["zq", "zq zq zq zq zq zq zq zq zq zq", "키보드 zq"] {
                #expect(try await Self.search(shop, text) == [word.id], "\(text)")
                #expect(try await Self.search(shop, text, sort: .newest) == [word.id], "\(text)")
                let facets = try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery(text)))
                #expect(facets.total == 1, "\(text)")
            }
            // `search explain` scores as the store ranks: `zq` the word, not every `zq…`.
            let explained = try await shop.keycat.search.explain(ProductListRequest(filter: ProductFilter(text: try SearchQuery("zq"))))
            #expect(explained.map(\.product.id) == [word.id] && explained[0].textScore > 0, "\(explained)")
            // A longer prefix under which there are few words is spelt out as before.
            #expect(try await Self.search(shop, "zq0") == [many.id])
            #expect(try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery("키보드 zq0"))).total == 1)
        }
    }

    @Test("a broad prefix of three letters or more keeps its commonest title words: made-up words piled into a description do not hide Gateron",
          arguments: TestStore.allCases)
    func broadPrefixNarrowed(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let gateron = try await shop.keycat.catalog.create(TestShop.draft("Gateron 황축 키보드"), for: seller.userID, by: seller)
            let pro = try await shop.keycat.catalog.create(TestShop.draft("Gateron Pro 적축 스위치"), for: seller.userID, by: seller)
            let gaterix = try await shop.keycat.catalog.create(TestShop.draft("Gaterix 키캡"), for: seller.userID, by: seller)
            // A rival puts 70 made-up words under `gater` into one description. Until 2026-12-02
            // that made `gater` the whole word alone, and it found nothing.
            let rival = try await shop.user(.seller)
            let junk = (1...70).map { String(format: "gatera%02d", $0) }.joined(separator: " ")
            let piled = try await shop.keycat.catalog.create(TestShop.draft("알파 키보드") { $0.content = junk }, for: rival.userID, by: rival)
            #expect(Set(try await Self.search(shop, "gater")) == [gateron.id, pro.id, gaterix.id])
            #expect(try await Self.search(shop, "gater 스위치") == [pro.id])
            #expect(try await shop.keycat.search.facets(filter: ProductFilter(text: try SearchQuery("gater"))).total == 3)
            let explained = try await shop.keycat.search.explain(ProductListRequest(filter: ProductFilter(text: try SearchQuery("gater"))))
            #expect(Set(explained.map(\.product.id)) == [gateron.id, pro.id, gaterix.id] && explained.allSatisfy { $0.textScore > 0 })
            // A made-up word typed whole is still found, and a longer prefix with few words under
            // it is spelt out as before.
            #expect(try await Self.search(shop, "gatera07") == [piled.id])
            #expect(try await Self.search(shop, "gatera0") == [piled.id])
        }
    }

    @Test("whether a typo is forgiven tells nothing of hidden listings: only listed ones' words count as known", arguments: TestStore.allCases)
    func typoKnownFromListedOnly(_ store: TestStore) async throws {
        #expect(try SearchQuery("alpha bravo charl delta").typoCandidates == ["alpha", "bravo"])
        #expect(try SearchQuery("alpha alpha bravo").typoCandidates == ["alpha", "bravo"])
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let listed = try await shop.keycat.catalog.create(TestShop.draft("Gateron 황축 키보드"), for: seller.userID, by: seller)
            let hiding = try await shop.user(.seller)
            let hidden = try await shop.keycat.catalog.create(TestShop.draft("숨은 키보드") { $0.content = "gateronx 스위치" }, for: hiding.userID, by: hiding)
            #expect(try await Self.search(shop, "gateronx") == [hidden.id], "a listed listing has the word")
            _ = try await shop.keycat.accounts.suspend(hiding.userID, by: shop.operatorConsole)
            // The suspended seller's word is no longer known: the typo is forgiven, as for any
            // word no listed listing has.
            #expect(try await Self.search(shop, "gateronx") == [listed.id])
        }
    }

    @Test("a control character in a suggestion's text breaks words, as the list's analyser does", arguments: TestStore.allCases)
    func suggestionControlCharacters(_ store: TestStore) async throws {
        await expectError(.validation, field: "q") { try SuggestionQuery("\u{0}") }
        await expectError(.validation, field: "q") { try SuggestionQuery(" \u{0}\u{1F} ") }
        await expectError(.validation, field: "q") { try SearchQuery("\u{0}") }
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            _ = try await shop.keycat.catalog.create(TestShop.draft("Gateron 황축 스위치"), for: seller.userID, by: seller)
            let typed = try await shop.keycat.search.suggestions(try SuggestionQuery("gat\u{0}")).map(\.text)
            #expect(typed == (try await shop.keycat.search.suggestions(try SuggestionQuery("gat")).map(\.text)))
            #expect(typed.contains("Gateron"))
            #expect(try await Self.search(shop, "gat\u{0}") == (try await Self.search(shop, "gat")))
        }
    }
}
