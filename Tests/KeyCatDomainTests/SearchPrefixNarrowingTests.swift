import KeyCatDomain
import Testing

@Suite("What a prefix with more than 64 words under it matches")
struct SearchPrefixNarrowingTests {
    @Test("one or two characters: the whole word alone")
    func shortPrefix() {
        #expect(SearchPlan.narrowed("sa", titleWords: [(word: "sakura", listings: 9)]) == ["sa"])
        #expect(SearchPlan.narrowed("m", titleWords: [(word: "mx", listings: 9)]) == ["m"])
    }

    @Test("longer: the word itself, then the commonest title words under it, ties by their bytes")
    func commonestFirst() {
        let words: [(word: String, listings: Int)] = [
            ("gatera", 1), ("gateron", 5), ("gater", 9), ("gatez", 0), ("other", 9), ("gaterb", 1), ("gatek", 2),
        ]
        #expect(SearchPlan.narrowed("gater", titleWords: words) == ["gater", "gateron", "gatera", "gaterb"])
    }

    @Test("at most 64 words in all, the rarest left out")
    func bounded() {
        let words = (0..<100).map { (word: "gater\($0)", listings: $0 + 1) }
        let narrowed = SearchPlan.narrowed("gater", titleWords: words)
        #expect(narrowed.count == SearchPlan.maximumPrefixWords)
        #expect(narrowed.first == "gater" && narrowed[1] == "gater99" && narrowed.last == "gater37")
    }
}
