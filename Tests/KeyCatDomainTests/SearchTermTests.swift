import Foundation
import Testing
@testable import KeyCatDomain

/// Terms and vocabulary keys handled as the stores hold them, by their UTF-8 bytes
/// (``SearchTerm``), and what the analyser gathers with them.
@Suite("Search terms as bytes")
struct SearchTermTests {
    static let nfd = "\u{1100}\u{1161}\u{11AF}"  // 갈 spelled as jamo

    @Test("a term is equal, hashed and ordered by its bytes")
    func bytes() {
        #expect(SearchTerm("갈축") == SearchTerm("갈" + "축"))
        #expect(Set([SearchTerm("갈축"), SearchTerm("갈" + "축"), SearchTerm("적축")]).count == 2)
        // Swift calls the two spellings of 갈 equal; the stores, comparing bytes, do not.
        #expect(Self.nfd == "갈")
        #expect(SearchTerm(Self.nfd) != SearchTerm("갈"))
        #expect(SearchTerm(Self.nfd) < SearchTerm("갈"))  // E1 84 80 … before EA B0 88
        #expect(SearchTerm("gat") < SearchTerm("gateron"))
        #expect(SearchTerm("Z") < SearchTerm("a"))
        #expect(!(SearchTerm("갈축") < SearchTerm("갈축")))
    }

    @Test("for text in NFC the byte order is Swift's order")
    func nfcOrder() {
        let words = ["키보드", "=키보드", "#한글각인", "gateron", "Gateron", "75%", "75", "갈", "갈축", "ㄱㅊ", "k200", "기계", "식키", "축"]
        #expect(words.sorted { SearchTerm($0) < SearchTerm($1) } == words.sorted())
        #expect(words.sorted { SearchTerm($0) < SearchTerm($1) } == words.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test("a listing's terms come in byte order, once each, with the fields they occur in")
    func sortedTerms() {
        let sorted = SearchAnalyzer.sortedTerms(title: "갈축 K200", content: "축이 좋은 키보드를", tags: ["저소음"], spec: KeyboardSpec())
        // Single syllables from the title and tag only; 이좋 and 은키 across the content's
        // spaces; 축이 → =축, 좋은 → =좋 and 키보드를 → =키보드 without their particles.
        #expect(sorted.map(\.term) == [
            "#저소음", "=갈축", "=저소음", "=좋", "=좋은", "=축", "=축이", "=키보드", "=키보드를",
            "k200", "갈", "갈축", "드를", "보드", "소", "소음", "은키", "음", "이좋", "저", "저소", "좋은", "축", "축이", "키보",
        ])
        let weights = Dictionary(uniqueKeysWithValues: sorted)
        #expect(weights["갈축"] == SearchAnalyzer.Field.title.rawValue)
        #expect(weights["=축"] == SearchAnalyzer.Field.content.rawValue)
        let both = SearchAnalyzer.sortedTerms(title: "갈축", content: "갈축", tags: [], spec: KeyboardSpec())
        #expect(both.first { $0.term == "갈축" }?.weight == SearchAnalyzer.Field.title.rawValue | SearchAnalyzer.Field.content.rawValue)
        #expect(weights["#저소음"] == SearchAnalyzer.Field.tag.rawValue)
        #expect(weights["=키보드"] == SearchAnalyzer.Field.content.rawValue)
        #expect(weights == SearchAnalyzer.terms(title: "갈축 K200", content: "축이 좋은 키보드를", tags: ["저소음"], spec: KeyboardSpec()))
    }

    @Test("a listing's vocabulary: each key and kind once, as first written, in byte order")
    func vocabulary() {
        let entries = SearchAnalyzer.vocabulary(title: "Gateron 키보드 gateron 축", tags: ["PBT", "한글각인"])
        #expect(entries.map { "\($0.kind.rawValue):\($0.display)" } == [
            "word:Gateron",                          // gateron, the first spelling kept
            "title:Gateron 키보드 gateron 축",         // gateron 키보드 gateron 축
            "tag:PBT",                               // pbt
            "word:키보드",                            // 키보드 (축 is one syllable: no entry)
            "tag:한글각인",
        ])
        let same = SearchAnalyzer.vocabulary(title: "키보드", tags: [])
        #expect(same.map { "\($0.kind.rawValue):\($0.key)" } == ["title:키보드", "word:키보드"])
        // Tags that differ only in case are one entry (a listing's tags never do: ProductTags).
        let tags = SearchAnalyzer.vocabulary(title: "키보드", tags: ["PBT", "pbt"])
        #expect(tags.filter { $0.kind == .tag }.map(\.display) == ["PBT"])
    }
}
