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
/// (capped at 2047), whether the listing is in stock, its units sold and its bookmarks as powers
/// of two (1, 2–3, 4–7, …, capped at 15, so a listing moves in the order only when one doubles),
/// and its rating in tenths of a star; the largest key comes first, and ties go by id, the
/// largest first.
///
/// **How a page is read.** The candidates are the driving group's postings from `floor` on (one
/// range of the terms' key per term; ``SearchWindow`` says when the floor is above 0). Each other
/// group of one term is a join on `(term, product_id)` — one seek per candidate, rarest first, so
/// a candidate without one costs no more seeks — and a group of several terms (synonyms, a
/// prefix spelt out into several words) the best of its postings, one subquery per candidate.
/// Then the listing (listed, filters, signals), its search document (units sold, title) and the
/// whole-word bonuses, for the candidates that matched. Only the id and the key of each are
/// sorted; the page's rows are read last. `CROSS JOIN` keeps SQLite reading in that order
/// (Postgres plans it as an inner join), and when a subquery's score is used twice its
/// subquery carries `LIMIT … OFFSET 0`, which neither store flattens, so it runs once.
struct SearchListQuery {
    var sql: String
    var arguments: [SQLValue]

    /// How far a key's text score is shifted: the shop's signals fit below it.
    static let textScale: Int64 = 2_097_152
    /// The highest text score a key holds.
    static let maximumTextScore = SearchPlan.maximumTextScore
    /// A limit no page of candidates reaches: with `OFFSET 0`, a subquery neither store flattens.
    static let fence = "LIMIT 2147483647 OFFSET 0"

    init(sql: String, arguments: [SQLValue]) {
        self.sql = sql
        self.arguments = arguments
    }

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
        var selectList: [String] = []
        var selectArguments: [SQLValue] = []
        var from: String
        var fromArguments: [SQLValue] = []
        var conditions: [String] = []
        var conditionArguments: [SQLValue] = []
        var scores: [String]
        if terms.isSingleTerm(driving) {
            let (condition, arguments) = terms.condition(of: driving, on: "c")
            from = "search_terms c"
            conditions = [condition, "c.product_id >= ?"]
            conditionArguments = arguments + [.integer(floor)]
            selectList = ["c.product_id AS id"]
            scores = [terms.score(of: driving, on: "c").0]
        } else {
            let (condition, arguments) = terms.condition(of: driving)
            let (score, scoreArguments) = terms.score(of: driving)
            from = """
                (SELECT t.product_id AS id, max(\(score)) AS g FROM search_terms t
                 WHERE (\(condition)) AND t.product_id >= ? GROUP BY t.product_id) c
                """
            fromArguments = scoreArguments + arguments + [.integer(floor)]
            selectList = ["c.id AS id"]
            scores = ["c.g"]
        }
        let candidateID = terms.isSingleTerm(driving) ? "c.product_id" : "c.id"
        var several: [String] = []  // columns of `s` that are NULL when their group is missing
        for index in order.dropFirst() {
            let group = plan.groups[index]
            if terms.isSingleTerm(group) {
                let alias = "t\(index)"
                let (condition, arguments) = terms.condition(of: group, on: alias)
                from += " CROSS JOIN search_terms \(alias)"
                conditions.append("\(condition) AND \(alias).product_id = \(candidateID)")
                conditionArguments += arguments
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
        let scored = "SELECT \(selectList.joined(separator: ", ")) FROM \(from)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + (several.isEmpty ? "" : " " + Self.fence)

        // The listings, their keys, the page (outer query).
        var joins = "(\(scored)) s CROSS JOIN products p"
        var joinArguments: [SQLValue] = []
        var outerConditions = several.map { "s.\($0) IS NOT NULL" } + ["p.id = s.id", "p.listed = 1"]
        let (filterConditions, filterArguments) = Self.filters(filter)
        outerConditions += filterConditions
        let key: String
        var keyArguments: [SQLValue] = []
        if relevance {
            joins += " CROSS JOIN search_documents d"
            outerConditions.insert("d.product_id = s.id", at: several.count + 2)
            var textScore = ["s.g"] + several.map { "s.\($0)" }
            for (index, bonus) in plan.bonuses.enumerated() {
                joins += " LEFT JOIN search_terms b\(index) ON b\(index).term = ? AND b\(index).product_id = s.id"
                joinArguments.append(.text(bonus))
                textScore.append("coalesce(b\(index).weight, 0)")
            }
            textScore.append("CASE WHEN d.title_key LIKE ? ESCAPE '\\' THEN \(SearchPlan.phraseBonus) ELSE 0 END")
            keyArguments.append(.text("%" + Self.escapeLike(plan.phrase) + "%"))
            key = """
                \(dialect.smaller(textScore.joined(separator: " + "), String(Self.maximumTextScore))) * \(Self.textScale) \
                + CASE WHEN p.stock > 0 THEN 1048576 ELSE 0 END + \(Self.bucket("d.units_sold")) * 65536 \
                + \(Self.bucket("p.bookmark_count")) * 1024 + p.rating_score / 100
                """
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
        // Arguments bind in the order of their placeholders in the text.
        arguments = keyArguments + selectArguments + fromArguments + conditionArguments + joinArguments + filterArguments
            + cursorArguments + [.int(limit)]
        sql = """
            SELECT \(Self.prefixedColumns), r.k FROM (
                SELECT x.id, x.k FROM (
                    SELECT s.id AS id, \(key) AS k FROM \(joins)
                    WHERE \(outerConditions.joined(separator: " AND ")) \(Self.fence)
                ) x \(cursor)
                ORDER BY 2 \(direction), 1 \(direction) LIMIT ?
            ) r JOIN products p ON p.id = r.id ORDER BY r.k \(direction), r.id \(direction)
            """
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

    /// A count as its power of two: 0 for 0, 1 for 1, 2 for 2–3, … 15 from 16,384; small counts,
    /// the most common, are decided by the first comparisons.
    static func bucket(_ column: String) -> String {
        "(CASE WHEN \(column) < 1 THEN 0 " + (1...14).map { "WHEN \(column) < \(1 << $0) THEN \($0) " }.joined() + "ELSE 15 END)"
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
