import KeyCatDomain
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

    /// The postings ``SearchIndex/Bulk/inKeyOrder(_:termCount:inIDOrder:sliceSize:_:)`` hands
    /// over, joined, and each slice's size.
    static func keyOrdered(_ postings: [UInt64], termCount: Int, inIDOrder: Bool, sliceSize: Int) -> (postings: [UInt64], slices: [Int]) {
        var postings = postings
        var ordered: [UInt64] = []
        var slices: [Int] = []
        SearchIndex.Bulk.inKeyOrder(&postings, termCount: termCount, inIDOrder: inIDOrder, sliceSize: sliceSize) { slice in
            ordered += slice
            slices.append(slice.count)
        }
        return (ordered, slices)
    }

    /// Expects each slice to hold whole terms, and to be at most `sliceSize` postings unless it
    /// holds one term.
    static func expectWholeTerms(_ ordered: [UInt64], _ slices: [Int], sliceSize: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(slices.allSatisfy { $0 > 0 } && slices.reduce(0, +) == ordered.count, sourceLocation: sourceLocation)
        var offset = 0
        for size in slices where size > 0 && offset + size <= ordered.count {
            let first = ordered[offset] >> 40, last = ordered[offset + size - 1] >> 40
            #expect(size <= sliceSize || first == last, "slice of \(size) postings", sourceLocation: sourceLocation)
            #expect(offset == 0 || ordered[offset - 1] >> 40 != first, "a term split between two slices", sourceLocation: sourceLocation)
            offset += size
        }
    }

    @Test("postings of listings added in id order are put in key order by counting passes, a slice of whole terms at a time; any other order is sorted",
          arguments: [1 << 23, 1_000, 1])
    func keyOrder(sliceSize: Int) {
        var generator = SplitMix64(seed: 42)
        let ids = Array(Int64(1)...2_000).map { $0 * 3 }
        let inOrder = Self.postings(ids: ids, terms: 500, generator: &generator)
        // A listing's own postings come in no particular order, as an analysis gives them.
        #expect(inOrder != inOrder.sorted())
        let (ordered, slices) = Self.keyOrdered(inOrder, termCount: 500, inIDOrder: true, sliceSize: sliceSize)
        Self.expectSorted(ordered, inOrder)
        // Each slice is whole terms: over the size only when one term alone is.
        Self.expectWholeTerms(ordered, slices, sliceSize: sliceSize)
        let terms = Set(inOrder.map { $0 >> 40 }).count
        // One slice when all fit, a term each when no two fit together.
        if sliceSize >= inOrder.count { #expect(slices.count == 1) }
        if sliceSize == 1 { #expect(slices.count == terms) }
        let shuffled = Self.postings(ids: ids.shuffled(using: &generator), terms: 500, generator: &generator)
        let sorted = Self.keyOrdered(shuffled, termCount: 500, inIDOrder: false, sliceSize: sliceSize)
        Self.expectSorted(sorted.postings, shuffled)
        Self.expectWholeTerms(sorted.postings, sorted.slices, sliceSize: sliceSize)
        #expect(Self.keyOrdered([], termCount: 0, inIDOrder: true, sliceSize: sliceSize).postings == [])
    }

    @Test("told how many listings are coming, a bulk gives their postings room once the first thousand show their size")
    func postingsRoom() throws {
        let entry = SearchIndex.Entry(title: "Hanul H61 미니 블루투스 키보드 (갈축)", content: "조용한 저소음 적축 키보드입니다",
                                      tags: ["갈축", "미니배열"], spec: KeyboardSpec())
        var bulk = SearchIndex.Bulk()
        bulk.expectedListings = 50_000
        for id in 1...1_000 { bulk.add(ProductID(Int64(id)), entry) }
        let perListing = entry.terms.count
        #expect(bulk.postings.count == 1_000 * perListing)
        #expect(bulk.postings.capacity >= 50_000 * perListing && bulk.postings.capacity < 2 * 50_000 * perListing)
        // Not told, it grows as arrays do.
        var untold = SearchIndex.Bulk()
        for id in 1...1_000 { untold.add(ProductID(Int64(id)), entry) }
        #expect(untold.postings.capacity < 50_000 * perListing)
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
