import Foundation
import Testing
@testable import KeyCatDomain

/// The store-independent rules of facets and suggestions: the price bands, a facet's own filter,
/// the keys typing completes on, and the suggestions' order.
@Suite("Facets and suggestions: the rules")
struct SearchBrowsingRulesTests {
    @Test("the price bands cover every price once, each a min/max pair", arguments: [
        (0, "0-49999"), (49_999, "0-49999"), (50_000, "50000-99999"), (199_999, "100000-199999"),
        (200_000, "200000-299999"), (300_000, "300000-"), (9_000_000, "300000-"),
    ])
    func bands(price: Int64, band: String) {
        #expect(PriceBand.containing(Money(won: price)).name == band)
        let found = PriceBand.containing(Money(won: price))
        #expect(found.minimum.won <= price && found.maximum.map { price <= $0.won } ?? true)
    }

    static func cell(_ category: ProductCategory, _ switchType: KeyboardSpec.SwitchType?, price: Int64,
                     within: Bool = true) -> FacetTally.Cell {
        FacetTally.Cell(category: category, kind: .commercial, switchType: switchType, layout: nil, connection: nil,
                        priceBand: PriceBand.containing(Money(won: price)), withinPriceBounds: within)
    }

    @Test("each facet counts under every filter but its own")
    func ownFilter() {
        let tally = FacetTally(counts: [
            Self.cell(.keyboard, .linear, price: 120_000): 3,
            Self.cell(.keyboard, .tactile, price: 80_000, within: false): 2,
            Self.cell(.keycap, nil, price: 30_000): 4,
            Self.cell(.switch, .linear, price: 5_000, within: false): 7,
        ], isCapped: true)
        let facets = ProductFacets(tally: tally, filter: ProductFilter(category: .keyboard, switchType: .linear))
        func count<Value>(_ list: [ProductFacets.Count<Value>], _ value: Value) -> Int { list.first { $0.value == value }?.count ?? -1 }
        #expect(facets.total == 3 && facets.isApproximate)
        // Category: linear and within the price bounds, every category.
        #expect(count(facets.categories, .keyboard) == 3 && count(facets.categories, .switch) == 0)
        // Switch type: keyboards within the bounds, every switch type.
        #expect(count(facets.switchTypes, .linear) == 3 && count(facets.switchTypes, .tactile) == 0)
        // Price: linear keyboards at any price.
        #expect(facets.priceBands.map(\.count) == [0, 0, 3, 0, 0])
        #expect(facets.layouts.allSatisfy { $0.count == 0 }, "a listing without a layout is in no layout")
        #expect(facets.kinds.map(\.value) == ProductKind.allCases)
    }

    /// Whether `key` starts `spelling`, scalar by scalar, as the stores compare (a `String`'s own
    /// `hasPrefix` compares whole characters, and a lone jamo is not the syllable it begins).
    static func completes(_ key: String, _ word: String) -> Bool {
        SearchAnalyzer.VocabularyEntry(kind: .word, display: word, key: word).spelling.unicodeScalars.starts(with: key.unicodeScalars)
    }

    @Test("typing completes on its jamo spelling, a reopened final, and initials")
    func keys() throws {
        let partial = try SuggestionQuery("  기계ㅅ ")
        #expect(partial.text == "기계ㅅ" && partial.initials == nil)
        #expect(partial.spellings == [Hangul.spelling("기계ㅅ")])
        #expect(Self.completes(partial.spellings[0], "기계식") && !Self.completes(partial.spellings[0], "기계"))
        let final = try SuggestionQuery("갈")
        #expect(final.spellings.count == 2)
        #expect(Self.completes(final.spellings[0], "갈축") && Self.completes(final.spellings[1], "가로"))
        #expect(try SuggestionQuery("ㄱㅊ").initials == "ㄱㅊ")
        #expect(try SuggestionQuery("GATER").spellings == ["gater"])
    }

    @Test("suggestions: words and tags before titles, the more listings first, a tag before a word, once each")
    func ranking() {
        let ranked = SearchSuggestion.ranked([
            SearchSuggestion(text: "기계식 키보드 B75", kind: .title, listings: 9),
            SearchSuggestion(text: "기계식", kind: .word, listings: 2),
            SearchSuggestion(text: "기계식", kind: .tag, listings: 1),
            SearchSuggestion(text: "기계", kind: .tag, listings: 2),
            SearchSuggestion(text: "기계식 키보드 B75", kind: .title, listings: 9),
            SearchSuggestion(text: "기계공학", kind: .word, listings: 5),
        ], limit: 10)
        #expect(ranked.map { "\($0.text)/\($0.kind.rawValue)" } == ["기계공학/word", "기계/tag", "기계식/word", "기계식 키보드 B75/title"])
        #expect(SearchSuggestion.ranked(ranked, limit: 2).count == 2)
        // Kept once by their normalised text, whatever the case; one candidate or none as given.
        let gateron = SearchSuggestion(text: "Gateron", kind: .word, listings: 3)
        #expect(SearchSuggestion.ranked([SearchSuggestion(text: "GATERON", kind: .tag, listings: 3), gateron], limit: 10)
                    .map(\.text) == ["GATERON"])
        #expect(SearchSuggestion.ranked([gateron], limit: 1) == [gateron])
        #expect(SearchSuggestion.ranked([], limit: 10).isEmpty)
    }
}
