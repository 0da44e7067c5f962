import Testing
@testable import KeyCatData

/// A page after a cursor is read in two statements (``ProductListQuery``): a listing whose sort
/// key changes between them comes back from both, and the page must show it once.
@Suite("A page read in two statements shows each listing once")
struct ProductListMergeTests {
    struct Row: Identifiable, Equatable {
        let id: Int
        let from: String
    }

    static func rows(_ ties: [Int], _ rest: [Int]) -> [Row] {
        ties.map { Row(id: $0, from: "ties") } + rest.map { Row(id: $0, from: "rest") }
    }

    @Test("a listing read by both statements is kept where the ties found it")
    func repeated() {
        var rows = Self.rows([7, 9], [4, 9, 3])
        ProductListQuery.dropRepeats(from: &rows, tiedCount: 2)
        #expect(rows == Self.rows([7, 9], [4, 3]))
    }

    @Test("without a repeat the page is untouched", arguments: [
        (ties: [Int](), rest: [5, 4, 3]),
        (ties: [8, 9], rest: [Int]()),
        (ties: [8, 9], rest: [5, 4, 3]),
    ])
    func untouched(ties: [Int], rest: [Int]) {
        var rows = Self.rows(ties, rest)
        ProductListQuery.dropRepeats(from: &rows, tiedCount: ties.count)
        #expect(rows == Self.rows(ties, rest))
    }
}
