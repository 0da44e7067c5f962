import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The SQL of one page of search results read from the postings of one group of the plan (the
/// rarest, ``SearchExecution``): the plan's terms as bound parameters over `search_terms`, the
/// filters over `products`, and the sort key computed per matching listing (docs/search.md
/// "Ranking"). The text is the same on both stores but for the spelling of the smaller of two
/// numbers (``SQLDialect/smaller(_:_:)``).
///
/// **The relevance order.** A relevance key packs, most significant first, the text score
/// (capped at 2047), whether the listing is in stock, its units sold (no more than their value
/// buys at its price) and its bookmarks as powers of two (1, 2–3, 4–7, …, capped at 15, so a
/// listing moves in the order only when one doubles),
/// and its rating in tenths of a star; the largest key comes first, and ties go by id, the
/// largest first.
///
/// **How a page is read.** The candidates are the driving group's postings from `floor` on (one
/// range of the terms' key per term; ``SearchWindow`` says when the floor is above 0). Each other
/// group of one term is a join on `(term, product_id)` — one seek per candidate, rarest first, so
/// a candidate without one costs no more seeks — and a group of several terms (synonyms, a
/// prefix spelt out into several words) the best of its postings, one subquery per candidate.
/// Past the rarest ``maximumJoinedGroups`` groups of one term, each further one is such a
/// subquery too: SQLite joins at most 64 tables, and a query within the limits may have 99
/// groups (`키보드` 22 times, one word, is 65 bigrams, every one required).
/// Then the listing (listed, filters, signals), its search document (units sold, title) and the
/// whole-word bonuses, for the candidates that matched. Only the id and the key of each are
/// sorted; the page's rows are read last. `CROSS JOIN` keeps SQLite reading in that order
/// (Postgres plans it as an inner join), and when a subquery's score is used twice its
/// subquery carries `LIMIT … OFFSET 0`, which neither store flattens, so it runs once.
struct SearchListQuery: Sendable {
    var sql: String
    var arguments: [SQLValue]

    /// How far a key's text score is shifted: the shop's signals fit below it.
    static let textScale: Int64 = 2_097_152
    /// The highest text score a key holds.
    static let maximumTextScore = SearchPlan.maximumTextScore
    /// The most groups of one term a page joins as seeks (beside the candidates' own table);
    /// the rest are a subquery each, which SQLite does not count among a join's 64 tables.
    static let maximumJoinedGroups = 32
    /// A limit no page of candidates reaches: with `OFFSET 0`, a subquery neither store flattens.
    static let fence = "LIMIT 2147483647 OFFSET 0"

    init(sql: String, arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The page's statement for these inputs (``init(plan:terms:order:floor:filter:sort:after:limit:dialect:)``),
    /// built once while it is among the last ``SearchStatementMemo/capacity`` different ones asked for.
    ///
    /// Building a page's text costs about 5 µs, a quarter of a rare word's whole search, and a
    /// shop's searches repeat (a popular query's first page, from every buyer who types it).
    /// The memo is keyed by everything the statement is built from — the plan and the terms it
    /// spelt out (both read from the store, so a synonym or a new word makes another key), the
    /// groups' order, the floor, the filters, the sort, the cursor and the limit — so a hit is
    /// the statement the same inputs would build.
    static func page(plan: SearchPlan, terms: SearchTerms, order: [Int], floor: Int64, filter: ProductFilter, sort: ProductSort,
                     after position: CursorPosition?, limit: Int, dialect: SQLDialect) -> SearchListQuery {
        var filters = filter
        filters.text = nil  // the plan stands for the text; the statement reads only the other filters
        let key = MemoKey(plan: plan, expansions: terms.expansions, order: order, floor: floor, filter: filters, sort: sort,
                          position: position, limit: limit, store: dialect.store)
        return memo.value(for: key) {
            SearchListQuery(plan: plan, terms: terms, order: order, floor: floor, filter: filter, sort: sort,
                            after: position, limit: limit, dialect: dialect)
        }
    }

    private struct MemoKey: Hashable {
        var plan: SearchPlan
        var expansions: [String: [String]]
        var order: [Int]
        var floor: Int64
        var filter: ProductFilter
        var sort: ProductSort
        var position: CursorPosition?
        var limit: Int
        var store: SQLDialect.Store
    }

    private static let memo = SearchStatementMemo<MemoKey, SearchListQuery>()

    /// - Parameters:
    ///   - order: indexes in `plan.groups`, the driving group first (its postings are the
    ///     candidates), then the others, rarest first.
    ///   - floor: the smallest product id a candidate may have (0 for all).
    ///   - position: the last row of the page before, its key without the window's floor.
    init(plan: SearchPlan, terms: SearchTerms, order: [Int], floor: Int64, filter: ProductFilter, sort: ProductSort,
         after position: CursorPosition?, limit: Int, dialect: SQLDialect) {
        let relevance = sort == .relevance
        let driving = plan.groups[order[0]]
        // The candidates, with what every group scores (inner query `s`).
        var scored = Joins(dialect: dialect)
        var selectList: [String]
        var scores: [String]
        let candidateID: String
        if terms.isSingleTerm(driving) {
            let (condition, arguments) = terms.condition(of: driving, on: "c")
            scored.from("search_terms c")
            scored.require(condition + " AND c.product_id >= ?", arguments + [.integer(floor)])
            candidateID = "c.product_id"
            scores = [terms.score(of: driving, on: "c").0]
        } else {
            let (condition, arguments) = terms.condition(of: driving)
            let (score, scoreArguments) = terms.score(of: driving)
            scored.from("""
                (SELECT t.product_id AS id, max(\(score)) AS g FROM search_terms t
                 WHERE (\(condition)) AND t.product_id >= ? GROUP BY t.product_id) c
                """, scoreArguments + arguments + [.integer(floor)])
            candidateID = "c.id"
            scores = ["c.g"]
        }
        selectList = ["\(candidateID) AS id"]
        var selectArguments: [SQLValue] = []
        var several: [String] = []  // columns of `s` that are NULL when their group is missing
        var seeks = 0
        for index in order.dropFirst() {
            let group = plan.groups[index]
            if terms.isSingleTerm(group) && seeks < Self.maximumJoinedGroups {
                seeks += 1
                let alias = "t\(index)"
                let (condition, arguments) = terms.condition(of: group, on: alias)
                scored.seek("search_terms", alias, columns: "\(alias).weight", where: "\(condition) AND \(alias).product_id = \(candidateID)",
                            arguments)
                scores.append(terms.score(of: group, on: alias).0)
            } else {
                let (condition, arguments) = terms.condition(of: group)
                let (score, scoreArguments) = terms.score(of: group)
                let column = "m\(index)"
                several.append(column)
                selectArguments += scoreArguments + arguments
                selectList.append("(SELECT max(\(score)) FROM search_terms t WHERE (\(condition)) AND t.product_id = \(candidateID)) AS \(column)")
            }
        }
        selectList.insert("\(scores.joined(separator: " + ")) AS g", at: 1)
        let (scoredFrom, scoredArguments) = scored.sql
        let inner = "SELECT \(selectList.joined(separator: ", ")) FROM \(scoredFrom)" + (several.isEmpty ? "" : " " + Self.fence)

        // The listings, their keys, the page (outer query).
        var outer = Joins(dialect: dialect)
        outer.from("(\(inner)) s", selectArguments + scoredArguments)
        for column in several { outer.require("s.\(column) IS NOT NULL") }
        outer.seek("products", "p", columns: "*", where: "p.id = s.id")
        outer.require("p.listed = 1")
        let (filterConditions, filterArguments) = Self.filters(filter)
        for (condition, argument) in zip(filterConditions, filterArguments) { outer.require(condition, [argument]) }
        let key: String
        var keyArguments: [SQLValue] = []
        if relevance {
            outer.seek("search_documents", "d", columns: "d.units_sold, d.value_sold, d.title_key", where: "d.product_id = s.id")
            var textScore = ["s.g"] + several.map { "s.\($0)" }
            for (index, bonus) in plan.bonuses.enumerated() {
                let alias = "b\(index)"
                outer.seek("search_terms", alias, columns: "\(alias).weight", where: "\(alias).term = ? AND \(alias).product_id = s.id",
                           [.text(bonus)], optional: true)
                textScore.append("coalesce(\(alias).weight, 0)")
            }
            textScore.append("CASE WHEN d.title_key LIKE ? ESCAPE '\\' THEN \(SearchPlan.phraseBonus) ELSE 0 END")
            keyArguments.append(.text("%" + Self.escapeLike(plan.phrase) + "%"))
            key = "\(dialect.smaller(textScore.joined(separator: " + "), String(Self.maximumTextScore))) * \(Self.textScale)" + Self.signals(dialect)
        } else {
            key = "p." + ProductListQuery.column(for: sort)
        }
        let ascending = sort == .priceAscending
        let direction = ascending ? "ASC" : "DESC"
        // The key is computed once per candidate, in a subquery neither store flattens, and the
        // cursor compares it outside.
        var cursor = ""
        var cursorArguments: [SQLValue] = []
        if let position {
            let beyond = ascending ? ">" : "<"
            cursor = "WHERE x.k \(beyond) ? OR (x.k = ? AND x.id \(beyond) ?)"
            cursorArguments = [.integer(position.sortKey), .integer(position.sortKey), .integer(position.id)]
        }
        let (outerFrom, outerArguments) = outer.sql
        // Arguments bind in the order of their placeholders in the text.
        arguments = keyArguments + outerArguments + cursorArguments + [.int(limit)]
        sql = """
            SELECT \(Self.prefixedColumns), r.k FROM (
                SELECT x.id, x.k FROM (
                    SELECT s.id AS id, \(key) AS k FROM \(outerFrom) \(Self.fence)
                ) x \(cursor)
                ORDER BY 2 \(direction), 1 \(direction) LIMIT ?
            ) r JOIN products p ON p.id = r.id ORDER BY r.k \(direction), r.id \(direction)
            """
    }

    /// A `FROM … WHERE …` whose every row after the first is one seek per row before it, as each
    /// store is told to make it: on SQLite a `CROSS JOIN` (which it keeps in order) with the
    /// seek's condition in the `WHERE`; on Postgres a `LATERAL` subquery that `OFFSET 0` keeps
    /// from being flattened, so that it is an index scan per row whatever the plan's estimates
    /// (a generic plan's estimate of a term's postings is an average, and with it Postgres
    /// would hash whole tables for a rare term).
    struct Joins {
        let dialect: SQLDialect
        private var tables: [String] = []
        private var tableArguments: [SQLValue] = []
        private var conditions: [String] = []
        private var conditionArguments: [SQLValue] = []

        init(dialect: SQLDialect) { self.dialect = dialect }

        /// The first row source.
        mutating func from(_ table: String, _ arguments: [SQLValue] = []) {
            tables.append(table)
            tableArguments += arguments
        }

        /// A condition on the rows so far.
        mutating func require(_ condition: String, _ arguments: [SQLValue] = []) {
            conditions.append(condition)
            conditionArguments += arguments
        }

        /// One row of `table` as `alias` per row so far, found by `condition`; with `optional`,
        /// NULLs when there is none.
        mutating func seek(_ table: String, _ alias: String, columns: String, where condition: String, _ arguments: [SQLValue] = [],
                           optional: Bool = false) {
            if dialect.store == .postgres {
                let subquery = "LATERAL (SELECT \(columns) FROM \(table) \(alias) WHERE \(condition) OFFSET 0) \(alias)"
                tables.append(optional ? "LEFT JOIN \(subquery) ON true" : "CROSS JOIN \(subquery)")
                tableArguments += arguments
            } else if optional {
                tables.append("LEFT JOIN \(table) \(alias) ON \(condition)")
                tableArguments += arguments
            } else {
                tables.append("CROSS JOIN \(table) \(alias)")
                require(condition, arguments)
            }
        }

        /// The `FROM` clause and `WHERE` clause, and their arguments in the order of their
        /// placeholders.
        var sql: (text: String, arguments: [SQLValue]) {
            (tables.joined(separator: " ") + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")),
             tableArguments + conditionArguments)
        }
    }

    /// ``ProductRow/columns``, each of `p`.
    static let prefixedColumns = ProductRow.columns.split(separator: ",")
        .map { "p." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    /// The filters as conditions on `p` (the listing), each with its argument.
    ///
    /// - Parameter priceIndexed: false to keep SQLite from walking the price index for a price
    ///   bound when the rows are read in another index's order (the unary `+`, as
    ///   ``ProductListQuery`` does).
    static func filters(_ filter: ProductFilter, priceIndexed: Bool = true) -> ([String], [SQLValue]) {
        let price = priceIndexed ? "p.price" : "+p.price"
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        func add(_ condition: String, _ value: SQLValue?) {
            guard let value else { return }
            conditions.append(condition)
            arguments.append(value)
        }
        add("p.category = ?", filter.category.map { .text($0.rawValue) })
        add("p.seller_id = ?", filter.sellerID.map { .integer($0.rawValue) })
        add("p.kind = ?", filter.kind.map { .text($0.rawValue) })
        add("\(price) >= ?", filter.minimumPrice.map { .integer($0.won) })
        add("\(price) <= ?", filter.maximumPrice.map { .integer($0.won) })
        add("p.spec_switch_type = ?", filter.switchType.map { .text($0.rawValue) })
        add("p.spec_layout = ?", filter.layout.map { .text($0.rawValue) })
        add("p.spec_connection = ?", filter.connection.map { .text($0.rawValue) })
        add("p.spec_pcb = ?", filter.hotSwap.map { .text(($0 ? KeyboardSpec.PCB.hotSwap : .soldered).rawValue) })
        add("EXISTS (SELECT 1 FROM search_terms tg WHERE tg.term = ? AND tg.product_id = p.id)", filter.tag.map { .text("#" + $0) })
        return (conditions, arguments)
    }

    /// `text` for a `LIKE … ESCAPE '\'` pattern that matches it literally: `\`, `%` and `_`
    /// each behind a backslash. Byte by byte (all three are ASCII), since every search's phrase
    /// bonus passes through here.
    static func escapeLike(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "_") }
        guard text.utf8.contains(where: special) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if special(byte) { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
