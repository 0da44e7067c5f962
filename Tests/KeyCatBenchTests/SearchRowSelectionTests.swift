import Testing
@testable import keycat_bench

/// `KEYCAT_BENCH_SEARCH_ROWS` picks the rows a profiling run times.
struct SearchRowSelectionTests {
    @Test("unset or empty selects every row; an entry selects the rows containing it; =name only that row; a list any of them")
    func selection() {
        let rare = "rare model code: Q737"
        let rarer = "2 syllables, rarer: 은축"
        #expect(SearchRowSelection(nil).selects(rare) && SearchRowSelection(nil).selects(rarer))
        #expect(SearchRowSelection("").selects(rare) && SearchRowSelection("|").selects(rarer))
        #expect(SearchRowSelection("rare").selects(rare) && SearchRowSelection("rare").selects(rarer))
        #expect(SearchRowSelection("=\(rare)").selects(rare) && SearchRowSelection("=\(rarer)").selects(rarer))
        #expect(!SearchRowSelection("=\(rare)").selects(rarer))
        #expect(!SearchRowSelection("=rare").selects(rare))
        let list = SearchRowSelection("은축|=\(rare)")
        #expect(list.selects(rare) && list.selects(rarer) && !list.selects("2 syllables, common: 갈축"))
        #expect(!SearchRowSelection("nothing").selects(rare))
    }
}
