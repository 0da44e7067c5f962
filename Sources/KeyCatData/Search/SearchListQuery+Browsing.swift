import KeyCatDomain
import KeyCatInfrastructure

extension SearchListQuery {
    /// One statement of a walk, and the statement that finds where it stops when it examines
    /// all it may: the last of the listings it examines, in the sort's order.
    struct Walked {
        var page: SearchListQuery
        var lastExamined: SearchListQuery
    }

    /// A page of a broad query under a sort other than relevance: the listings walked in that
    /// sort's index, as ``ProductListQuery`` walks them, each kept when it has every group (one
    /// seek per group on `(term, product_id)`). Exact, and quick while the query matches many
    /// listings — exactly when reading its postings would not be (``SearchExecution`` picks it
    /// when the rarest group has as many postings as the query's window, ``SearchWindow``).
    ///
    /// Each statement examines at most `examining` listings: the walk reads them in a subquery
    /// with that limit, in the sort's order, and keeps the first of those with every group, in
    /// that order again (Postgres may join the groups out of order). So a page of a broad query
    /// under another sort spends at most the window's look-ups, as a relevance page does.
    /// ``Walked/lastExamined`` is the `examining`-th listing, or none when fewer remain.
    ///
    /// After a cursor the page is read in two statements, the ties of the cursor's key and then
    /// the keys beyond it, for the reason ``ProductListQuery`` gives.
    static func browsing(plan: SearchPlan, terms: SearchTerms, filter: ProductFilter, sort: ProductSort,
                         after position: CursorPosition?, limit: Int, examining: Int) -> (ties: Walked?, rest: Walked) {
        let column = "p." + ProductListQuery.column(for: sort)
        var conditions = ["p.listed = 1"]
        var arguments: [SQLValue] = []
        let (filterConditions, filterArguments) = filters(filter, priceIndexed: sort == .priceAscending || sort == .priceDescending)
        conditions += filterConditions
        arguments += filterArguments
        var groups: [String] = []
        var groupArguments: [SQLValue] = []
        for group in plan.groups {
            let (condition, conditionArguments) = terms.condition(of: group)
            groups.append("EXISTS (SELECT 1 FROM search_terms t WHERE (\(condition)) AND t.product_id = p.id)")
            groupArguments += conditionArguments
        }
        let ascending = sort == .priceAscending
        let direction = ascending ? "ASC" : "DESC"
        let beyond = ascending ? ">" : "<"
        func walked(_ extra: String, _ extraArguments: [SQLValue], order: String) -> Walked {
            let examined = "FROM products p WHERE \(conditions.joined(separator: " AND "))\(extra) ORDER BY \(order)"
            let page = """
                SELECT \(prefixedColumns), p.k FROM (SELECT \(prefixedColumns), \(column) AS k \(examined) LIMIT \(examining)) p
                WHERE \(groups.joined(separator: " AND ")) ORDER BY \(order.replacingOccurrences(of: column, with: "p.k")) LIMIT ?
                """
            return Walked(page: SearchListQuery(sql: page, arguments: arguments + extraArguments + groupArguments + [.int(limit)]),
                          lastExamined: SearchListQuery(sql: "SELECT \(column), p.id \(examined) LIMIT 1 OFFSET \(examining - 1)",
                                                        arguments: arguments + extraArguments))
        }
        guard let position else {
            return (nil, walked("", [], order: "\(column) \(direction), p.id \(direction)"))
        }
        return (walked(" AND \(column) = ? AND p.id \(beyond) ?", [.integer(position.sortKey), .integer(position.id)],
                       order: "p.id \(direction)"),
                walked(" AND \(column) \(beyond) ?", [.integer(position.sortKey)], order: "\(column) \(direction), p.id \(direction)"))
    }
}
