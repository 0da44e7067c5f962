import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// As-you-type suggestions (docs/search.md "Suggestions"), on both stores: a partial Latin word,
/// a partial Hangul syllable sequence or initials complete to the words, tags and titles of live
/// listings, the more listings first.
@Suite("Search suggestions")
struct SearchSuggestionTests {
    static let listings: [(title: String, tags: [String])] = [
        ("Gateron 황축 스위치 35개", ["스위치"]),
        ("Hanul H61 미니 블루투스 키보드 (갈축)", ["갈축", "미니"]),
        ("저소음 기계식 키보드 K200", []),
        ("기계식 키보드 B75", []),
        ("가로수 키캡 세트", []),
    ]

    /// What typing `text` suggests, as (text, kind) pairs.
    static func suggest(_ shop: TestShop, _ text: String, limit: Int = 10) async throws -> [String] {
        try await shop.keycat.search.suggestions(try SuggestionQuery(text, limit: limit)).map { "\($0.text) (\($0.kind.rawValue))" }
    }

    @Test("a partial Latin word completes, case-insensitively; words before titles", arguments: TestStore.allCases)
    func latin(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            try await Self.stock(shop)
            #expect(try await Self.suggest(shop, "gat") == ["Gateron (word)", "Gateron 황축 스위치 35개 (title)"])
            #expect(try await Self.suggest(shop, "GATER") == ["Gateron (word)", "Gateron 황축 스위치 35개 (title)"])
            #expect(try await Self.suggest(shop, "h6") == ["H61 (word)"])
            #expect(try await Self.suggest(shop, "hanul h") == ["Hanul H61 미니 블루투스 키보드 (갈축) (title)"])
        }
    }

    @Test("a partial Hangul syllable sequence completes: 기계ㅅ → 기계식, 갈 → 갈축 and 가로수", arguments: TestStore.allCases)
    func hangul(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            try await Self.stock(shop)
            #expect(try await Self.suggest(shop, "기계ㅅ") == ["기계식 (word)", "기계식 키보드 B75 (title)"])
            #expect(try await Self.suggest(shop, "기계") == ["기계식 (word)", "기계식 키보드 B75 (title)"])
            #expect(try await Self.suggest(shop, "갈") == ["갈축 (tag)", "가로수 (word)", "가로수 키캡 세트 (title)"])
            #expect(try await Self.suggest(shop, "키").first == "키보드 (word)", "in three listings, before 키캡 in one")
            #expect(try await Self.suggest(shop, "스") == ["스위치 (tag)"], "a word that is also a tag, once")
        }
    }

    @Test("initials complete the words they abbreviate: ㄱㅊ → 갈축, ㅈㅅㅇ → 저소음", arguments: TestStore.allCases)
    func initials(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            try await Self.stock(shop)
            #expect(try await Self.suggest(shop, "ㄱㅊ") == ["갈축 (tag)"])
            #expect(try await Self.suggest(shop, "ㅈㅅㅇ") == ["저소음 (word)"])
            #expect(try await Self.suggest(shop, "ㅋㅂ") == ["키보드 (word)"])
            #expect(try await Self.suggest(shop, "ㄱ", limit: 2).count == 2)
            #expect(try await Self.suggest(shop, "ㅎㅎㅎ") == [])
        }
    }

    @Test("a deleted listing's words, tags and title are no longer suggested", arguments: TestStore.allCases)
    func deleted(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            try await Self.stock(shop)
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft("Zealios 스위치 V2") { $0.tags = ["질리오스"] },
                                                               for: seller.userID, by: seller)
            #expect(try await Self.suggest(shop, "zeal") == ["Zealios (word)", "Zealios 스위치 V2 (title)"])
            #expect(try await Self.suggest(shop, "ㅈㄹㅇㅅ") == ["질리오스 (tag)"])
            #expect(try await Self.suggest(shop, "스") == ["스위치 (word)"], "now in two listings' titles, and one's tags")
            try await shop.keycat.catalog.delete(product.id, by: seller)
            #expect(try await Self.suggest(shop, "zeal") == [])
            #expect(try await Self.suggest(shop, "ㅈㄹㅇㅅ") == [])
            #expect(try await Self.suggest(shop, "스") == ["스위치 (tag)"])
        }
    }

    @Test("an empty or over-long text is a validation error on q; a limit outside 1–10 on limit")
    func validation() async {
        await expectError(.validation, field: "q") { try SuggestionQuery("") }
        await expectError(.validation, field: "q") { try SuggestionQuery(" \n ") }
        await expectError(.validation, field: "q") { try SuggestionQuery(String(repeating: "키", count: 101)) }
        await expectError(.validation, field: "limit") { try SuggestionQuery("키", limit: 0) }
        await expectError(.validation, field: "limit") { try SuggestionQuery("키", limit: 11) }
        #expect(throws: Never.self) { try SuggestionQuery(String(repeating: "키", count: 100), limit: 10) }
    }

    static func stock(_ shop: TestShop) async throws {
        let seller = try await shop.user(.seller)
        for listing in listings {
            _ = try await shop.keycat.catalog.create(TestShop.draft(listing.title) { $0.tags = listing.tags }, for: seller.userID, by: seller)
        }
    }
}
