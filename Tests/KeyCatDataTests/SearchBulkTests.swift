import KeyCatInfrastructure
import Testing
@testable import KeyCatData

/// The pieces of a bulk load's search entries that are plain values: the postings' key order
/// and the forward terms' text.
@Suite("Search bulk entries")
struct SearchBulkTests {
    /// `listings` listings of up to 70 postings each over `terms` terms, packed as
    /// ``SearchIndex/Bulk`` packs them (rank, id, weight), listing by listing in the order of
    /// `ids`.
    static func postings(ids: [Int64], terms: Int, generator: inout SplitMix64) -> [UInt64] {
        ids.flatMap { id in
            let count = Int.random(in: 1...70, using: &generator)
            let ranks = Set((0..<count).map { _ in UInt64.random(in: 0..<UInt64(terms), using: &generator) })
            return ranks.map { rank in rank << 40 | UInt64(id) << 4 | UInt64.random(in: 1...15, using: &generator) }
        }
    }

    /// Expects `ordered` to be `postings` sorted, naming the first place it is not (the arrays
    /// are too long to print).
    static func expectSorted(_ ordered: [UInt64], _ postings: [UInt64], sourceLocation: SourceLocation = #_sourceLocation) {
        let sorted = postings.sorted()
        #expect(ordered.count == sorted.count, sourceLocation: sourceLocation)
        let wrong = sorted.indices.first { $0 >= ordered.count || ordered[$0] != sorted[$0] }
        #expect(wrong == nil, "posting \(wrong ?? 0) of \(sorted.count) is out of key order", sourceLocation: sourceLocation)
    }

    @Test("postings of listings added in id order are put in key order by one counting pass; any other order is sorted")
    func keyOrder() {
        var generator = SplitMix64(seed: 42)
        let ids = Array(Int64(1)...2_000).map { $0 * 3 }
        let inOrder = Self.postings(ids: ids, terms: 500, generator: &generator)
        // A listing's own postings come in no particular order, as an analysis gives them.
        #expect(inOrder != inOrder.sorted())
        Self.expectSorted(SearchIndex.Bulk.keyOrdered(inOrder, termCount: 500, inIDOrder: true), inOrder)
        let shuffled = Self.postings(ids: ids.shuffled(using: &generator), terms: 500, generator: &generator)
        Self.expectSorted(SearchIndex.Bulk.keyOrdered(shuffled, termCount: 500, inIDOrder: false), shuffled)
        #expect(SearchIndex.Bulk.keyOrdered([], termCount: 0, inIDOrder: true) == [])
    }

    @Test("forward terms read back as written: Hangul, tags, whole words, percentages, every weight")
    func forwardTermsRoundTrip() {
        let terms: [(term: String, weight: Int)] = [
            ("#갈축", 15), ("75%", 1), ("=기계식", 10), ("gateron", 9), ("계식", 12), ("키보", 2), ("ㄱㅊ", 11),
        ]
        let text = SearchIndex.storedTerms(sorted: terms)
        #expect(text == "#갈축 15\n75% 1\n=기계식 10\ngateron 9\n계식 12\n키보 2\nㄱㅊ 11")
        let parsed = SearchIndex.parseTerms(text)
        #expect(parsed.map(\.term) == terms.map(\.term) && parsed.map(\.weight) == terms.map(\.weight))
        #expect(SearchIndex.storedTerms(sorted: []) == "")
        #expect(SearchIndex.termCount(text) == terms.count)
    }
}
