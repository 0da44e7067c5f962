import KeyCatDomain
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// A search's page and floors statements are kept once built (``SearchListQuery/page(plan:terms:order:floor:filter:sort:after:limit:dialect:)``,
/// ``SearchWindow/floors(of:terms:sizes:)``): a kept one must be what its inputs would build,
/// so each input that changes the statement must change the key.
@Suite("Search statement memos")
struct SearchStatementMemoTests {
    struct Inputs {
        var text = "적축 키보드"
        var synonyms: [String: [String]] = [:]
        var expansions: [String: [String]] = [:]
        var order = [0, 1]
        var floor: Int64 = 0
        var filter = ProductFilter()
        var sort = ProductSort.relevance
        var position: CursorPosition?
        var limit = 21
        var dialect = SQLDialect.sqlite

        func plan() throws -> SearchPlan { SearchPlan(try SearchQuery(text), synonyms: synonyms) }

        func memoized() throws -> SearchListQuery {
            SearchListQuery.page(plan: try plan(), terms: SearchTerms(expansions: expansions), order: order, floor: floor, filter: filter,
                                 sort: sort, after: position, limit: limit, dialect: dialect)
        }

        func built() throws -> SearchListQuery {
            SearchListQuery(plan: try plan(), terms: SearchTerms(expansions: expansions), order: order, floor: floor, filter: filter,
                            sort: sort, after: position, limit: limit, dialect: dialect)
        }
    }

    /// Each variation of the first inputs, asked for after them, gets its own statement.
    @Test("a kept page statement is the one its inputs build", arguments: [
        "floor", "position", "limit", "filter", "sort", "order", "synonym", "text", "dialect",
    ])
    func page(changing input: String) throws {
        let first = Inputs()
        var second = first
        switch input {
        case "floor": second.floor = 1_234
        case "position": second.position = CursorPosition(sortKey: 99, id: 7)
        case "limit": second.limit = 41
        case "filter": second.filter.maximumPrice = Money(won: 150_000)
        case "sort": second.sort = .newest
        case "order": second.order = [1, 0]
        case "synonym": second.synonyms = ["적축": ["linear"]]
        case "text": second.text = "갈축 키보드"
        default: second.dialect = .postgres
        }
        for inputs in [first, second, first, second] {
            let (kept, built) = (try inputs.memoized(), try inputs.built())
            #expect(kept.sql == built.sql)
            #expect(kept.arguments == built.arguments)
        }
        let (a, b) = (try first.memoized(), try second.memoized())
        #expect(a.sql != b.sql || a.arguments != b.arguments, "the variation must change the statement, or the test shows nothing")
    }

    @Test("the floors statement keeps its text per shape and its arguments per query")
    func floors() throws {
        let sizes = (dense: 2_000, sparse: 1_200)
        let one = SearchPlan(try SearchQuery("갈축")).groups
        let other = SearchPlan(try SearchQuery("적축")).groups
        let ranged = SearchPlan(try SearchQuery("gat")).groups
        let (a, b) = (SearchWindow.floors(of: one, terms: SearchTerms(), sizes: sizes)[0],
                      SearchWindow.floors(of: other, terms: SearchTerms(), sizes: sizes)[0])
        #expect(a.sql == b.sql)
        #expect(a.arguments != b.arguments)
        #expect(a.arguments.contains(.text("갈축")) || a.arguments.contains(where: { if case let .text(t) = $0 { t.contains("갈축") } else { false } }))
        let spelt = SearchWindow.floors(of: ranged, terms: SearchTerms(expansions: ["gat": ["gateron", "gate"]]), sizes: sizes)[0]
        // A prefix not spelt out (past 64 words) is the whole word: one arm, as one term is.
        let word = SearchWindow.floors(of: ranged, terms: SearchTerms(), sizes: sizes)[0]
        #expect(spelt.sql != word.sql)
        #expect(spelt.sql.components(separatedBy: "UNION ALL").count == 2)
        #expect(word.sql == a.sql && !word.sql.contains(">="))
        // Each term's argument stands before each of its three look-ups, then the offsets.
        let (dense, sparse) = (SQLValue.integer(1_999), SQLValue.integer(1_199))
        let gat = SQLValue.text("gat")
        #expect(word.arguments == [gat, gat, dense, gat, sparse])
        let (gateron, gate) = (SQLValue.text("gateron"), SQLValue.text("gate"))
        #expect(spelt.arguments == [gateron, gateron, dense, gateron, sparse, gate, gate, dense, gate, sparse])
        #expect(a.sql.components(separatedBy: "?").count - 1 == a.arguments.count)
        // Past ``SearchWindow/maximumArms`` terms, the arms go on in another statement.
        let many = SearchTerms(expansions: ["gat": (0..<(SearchWindow.maximumArms + 3)).map { "gat\($0)" }])
        let split = SearchWindow.floors(of: ranged, terms: many, sizes: sizes)
        #expect(split.map { $0.sql.components(separatedBy: "UNION ALL").count } == [SearchWindow.maximumArms, 3])
        #expect(split.allSatisfy { $0.sql.components(separatedBy: "?").count - 1 == $0.arguments.count })
    }

    @Test("a sorted array loses its repeats, and keeps everything else in order")
    func adjacentRepeats() {
        for (input, kept) in [([], []), (["a"], ["a"]), (["a", "a"], ["a"]), (["a", "a", "b", "c", "c", "c"], ["a", "b", "c"]),
                              (["갈축", "갈축", "키보드"], ["갈축", "키보드"]), (["a", "b"], ["a", "b"])] as [([String], [String])] {
            var array = input
            array.removeAdjacentRepeats()
            #expect(array == kept, "\(input)")
            var shuffled = input.reversed() + input
            shuffled.sortDroppingRepeats()
            #expect(shuffled == kept, "\(input)")
        }
    }
}
