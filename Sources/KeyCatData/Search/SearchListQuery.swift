import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The SQL of one page of search results, the same text on both stores: the plan's groups as
/// bound parameters over `search_terms`, the filters over `products`, and the sort key computed
/// per matching listing (docs/search.md "Ranking").
///
/// The listings of the plan's rarest group are the candidates (one range of the terms' key);
/// every other group is one seek per candidate on `(term, product_id)`, and so is each
/// whole-word bonus. A relevance key packs, most significant first, the text score (capped at
/// 2047), whether the listing is in stock, its units sold and its bookmarks as powers of two
/// (1, 2–3, 4–7, …, capped at 15, so a listing moves in the order only when one doubles), and
/// its rating in tenths of a star; every sort breaks ties by id.
struct SearchListQuery {
    var sql: String
    var arguments: [SQLValue]

    /// How far a key's text score is shifted: the shop's signals fit below it.
    static let textScale: Int64 = 2_097_152
    /// The highest text score a key holds.
    static let maximumTextScore = SearchPlan.maximumTextScore

    /// - Parameters:
    ///   - driving: the index in `plan.groups` of the group whose listings are the candidates.
    init(plan: SearchPlan, driving: Int, filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) {
        let group = plan.groups[driving]
        let (drivingScore, drivingScoreArguments) = Self.score(of: group)
        let (drivingCondition, drivingConditionArguments) = Self.condition(of: group)
        let drivingArguments = drivingScoreArguments + drivingConditionArguments
        let candidates = """
            SELECT t.product_id AS id, max(\(drivingScore)) AS g FROM search_terms t
            WHERE \(drivingCondition) GROUP BY t.product_id
            """
        // The other groups and the bonuses, each a seek per candidate.
        var columns: [String] = []
        var columnArguments: [SQLValue] = []
        for (index, other) in plan.groups.enumerated() where index != driving {
            let (score, scoreArguments) = Self.score(of: other)
            let (condition, conditionArguments) = Self.condition(of: other)
            columns.append("(SELECT max(\(score)) FROM search_terms t WHERE (\(condition)) AND t.product_id = c.id) AS g\(columns.count)")
            columnArguments += scoreArguments + conditionArguments
        }
        let groupColumns = columns.count
        for bonus in plan.bonuses {
            columns.append("(SELECT t.weight FROM search_terms t WHERE t.term = ? AND t.product_id = c.id) AS g\(columns.count)")
            columnArguments.append(.text(bonus))
        }
        let scored = "SELECT c.id, c.g\(columns.map { ", " + $0 }.joined()) FROM (\(candidates)) c"
        var conditions = ["p.listed = 1"]
        conditions += (0..<groupColumns).map { "s.g\($0) IS NOT NULL" }
        let (filterConditions, filterArguments) = Self.filters(filter)
        conditions += filterConditions
        let textScore = (["s.g"] + (0..<groupColumns).map { "s.g\($0)" } + (groupColumns..<columns.count).map { "coalesce(s.g\($0), 0)" }
            + ["CASE WHEN d.title_key LIKE ? ESCAPE '\\' THEN \(SearchPlan.phraseBonus) ELSE 0 END"]).joined(separator: " + ")
        let key: String
        var keyArguments: [SQLValue] = []
        switch sort {
        case .relevance:
            key = """
                (CASE WHEN \(textScore) > \(Self.maximumTextScore) THEN \(Self.maximumTextScore) ELSE \(textScore) END) * \(Self.textScale)
                    + CASE WHEN p.stock > 0 THEN 1048576 ELSE 0 END + \(Self.bucket("d.units_sold")) * 65536
                    + \(Self.bucket("p.bookmark_count")) * 1024 + p.rating_score / 100
                """
            let phrase = SQLValue.text("%" + Self.escapeLike(plan.phrase) + "%")
            keyArguments = [phrase, phrase]
        default:
            key = "p." + ProductListQuery.column(for: sort)
        }
        let prefixed = ProductRow.columns.split(separator: ",").map { "p." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .joined(separator: ", ")
        // Arguments bind in the order of their placeholders in the text: the key (in the outer
        // select list), the per-candidate columns, the candidates, then the filters.
        var arguments = keyArguments + columnArguments + drivingArguments + filterArguments
        let ranked = """
            SELECT \(prefixed), \(key) AS k
            FROM (\(scored)) s JOIN products p ON p.id = s.id JOIN search_documents d ON d.product_id = s.id
            WHERE \(conditions.joined(separator: " AND "))
            """
        let ascending = sort == .priceAscending
        let direction = ascending ? "ASC" : "DESC"
        var sql = "SELECT * FROM (\(ranked)) r"
        if let position {
            let beyond = ascending ? ">" : "<"
            sql += " WHERE r.k \(beyond) ? OR (r.k = ? AND r.id \(beyond) ?)"
            arguments += [.integer(position.sortKey), .integer(position.sortKey), .integer(position.id)]
        }
        sql += " ORDER BY r.k \(direction), r.id \(direction) LIMIT ?"
        arguments.append(.int(limit))
        self.sql = sql
        self.arguments = arguments
    }

    /// A statement counting each group's postings up to `cap`, so that the rarest one drives.
    static func groupSizes(of plan: SearchPlan, cap: Int) -> (sql: String, arguments: [SQLValue]) {
        var arguments: [SQLValue] = []
        let counts = plan.groups.map { group in
            let (condition, conditionArguments) = Self.condition(of: group)
            arguments += conditionArguments + [.int(cap)]
            return "(SELECT count(*) FROM (SELECT 1 FROM search_terms t WHERE \(condition) LIMIT ?) x)"
        }
        return ("SELECT " + counts.joined(separator: ", "), arguments)
    }

    /// A group's condition on `t.term`.
    static func condition(of group: SearchPlan.Group) -> (String, [SQLValue]) {
        var parts: [String] = []
        var arguments: [SQLValue] = []
        let exact = group.exact + group.forgiven
        if !exact.isEmpty {
            parts.append("t.term IN (\(Array(repeating: "?", count: exact.count).joined(separator: ", ")))")
            arguments += exact.map(SQLValue.text)
        }
        for prefix in group.prefixes {
            parts.append("(t.term >= ? AND t.term < ?)")
            arguments += [.text(prefix), .text(prefix + "\u{10FFFF}")]
        }
        // A group without terms (initials that abbreviate nothing) matches nothing.
        return (parts.isEmpty ? "1 = 0" : parts.joined(separator: " OR "), arguments)
    }

    /// A group's score of one of its rows `t`: exact terms (and a prefix met exactly) twice their
    /// weight, the rest once.
    static func score(of group: SearchPlan.Group) -> (String, [SQLValue]) {
        let doubled = group.exact + group.prefixes
        if group.prefixes.isEmpty && group.forgiven.isEmpty { return ("t.weight * 2", []) }
        return ("t.weight * CASE WHEN t.term IN (\(Array(repeating: "?", count: doubled.count).joined(separator: ", "))) THEN 2 ELSE 1 END",
                doubled.map(SQLValue.text))
    }

    /// The filters as conditions on `p` (the listing), each with its argument.
    static func filters(_ filter: ProductFilter) -> ([String], [SQLValue]) {
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
        add("p.price >= ?", filter.minimumPrice.map { .integer($0.won) })
        add("p.price <= ?", filter.maximumPrice.map { .integer($0.won) })
        add("p.spec_switch_type = ?", filter.switchType.map { .text($0.rawValue) })
        add("p.spec_layout = ?", filter.layout.map { .text($0.rawValue) })
        add("p.spec_connection = ?", filter.connection.map { .text($0.rawValue) })
        add("p.spec_pcb = ?", filter.hotSwap.map { .text(($0 ? KeyboardSpec.PCB.hotSwap : .soldered).rawValue) })
        add("EXISTS (SELECT 1 FROM search_terms tg WHERE tg.term = ? AND tg.product_id = p.id)", filter.tag.map { .text("#" + $0) })
        return (conditions, arguments)
    }

    /// A count as its power of two: 0 for 0, 1 for 1, 2 for 2–3, … 15 from 16,384.
    static func bucket(_ column: String) -> String {
        "(CASE " + (1...14).reversed().map { "WHEN \(column) >= \(1 << $0) THEN \($0 + 1) " }.joined() + "WHEN \(column) >= 1 THEN 1 ELSE 0 END)"
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
