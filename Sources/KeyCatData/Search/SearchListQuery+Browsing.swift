import KeyCatDomain
import KeyCatInfrastructure

extension SearchListQuery {
    /// A page of a broad query under a sort other than relevance: the listings walked in that
    /// sort's index, as ``ProductListQuery`` walks them, each kept when it has every group (one
    /// seek per group on `(term, product_id)`). Exact, and quick while the query matches many
    /// listings — exactly when reading its postings would not be (``SearchExecution`` picks it
    /// when the rarest group has as many postings as the query's window, ``SearchWindow``).
    ///
    /// After a cursor the page is read in two statements, the ties of the cursor's key and then
    /// the keys beyond it, for the reason ``ProductListQuery`` gives.
    static func browsing(plan: SearchPlan, terms: SearchTerms, filter: ProductFilter, sort: ProductSort,
                         after position: CursorPosition?, limit: Int) -> (ties: SearchListQuery?, rest: SearchListQuery) {
        let column = "p." + ProductListQuery.column(for: sort)
        var conditions = ["p.listed = 1"]
        var arguments: [SQLValue] = []
        let (filterConditions, filterArguments) = filters(filter, priceIndexed: sort == .priceAscending || sort == .priceDescending)
        conditions += filterConditions
        arguments += filterArguments
        for group in plan.groups {
            let (condition, conditionArguments) = terms.condition(of: group)
            conditions.append("EXISTS (SELECT 1 FROM search_terms t WHERE (\(condition)) AND t.product_id = p.id)")
            arguments += conditionArguments
        }
        let ascending = sort == .priceAscending
        let direction = ascending ? "ASC" : "DESC"
        let beyond = ascending ? ">" : "<"
        let select = "SELECT \(prefixedColumns), \(column) FROM products p WHERE \(conditions.joined(separator: " AND "))"
        guard let position else {
            return (nil, SearchListQuery(sql: "\(select) ORDER BY \(column) \(direction), p.id \(direction) LIMIT ?",
                                         arguments: arguments + [.int(limit)]))
        }
        return (SearchListQuery(sql: "\(select) AND \(column) = ? AND p.id \(beyond) ? ORDER BY p.id \(direction) LIMIT ?",
                                arguments: arguments + [.integer(position.sortKey), .integer(position.id), .int(limit)]),
                SearchListQuery(sql: "\(select) AND \(column) \(beyond) ? ORDER BY \(column) \(direction), p.id \(direction) LIMIT ?",
                                arguments: arguments + [.integer(position.sortKey), .int(limit)]))
    }
}
