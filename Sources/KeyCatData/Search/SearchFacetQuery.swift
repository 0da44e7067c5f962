import KeyCatDomain
import KeyCatInfrastructure

/// The SQL of a facet count (docs/search.md "Facets"), the same text on both stores: the
/// listings of one **source** (a group of the query's plan, the tag, the seller, or the whole
/// catalog), at most `limit` of them, each checked against the rest of the query and the
/// filters no facet counts, then counted per combination of the faceted attributes
/// (``FacetTally``).
///
/// Every statement reads a bounded number of index entries and rows, however broad the query:
/// a source is read as ranges of an index, each cut at the limit (`UNION ALL` of ranges rather
/// than `OR`, so that Postgres scans each range in order instead of building a bitmap of all),
/// and every other requirement is one seek per candidate.
enum SearchFacetQuery {
    /// Where the candidates come from.
    enum Source {
        /// The listings with one of a group's terms: its postings in `search_terms`.
        case postings(SearchPlan.Group)
        /// A seller's listed listings.
        case seller(UserID)
        /// Every listed listing, newest first.
        case catalog
    }

    /// A statement counting each source's entries, each up to `cap`: the smallest drives.
    static func sizes(of sources: [Source], cap: Int) -> (sql: String, arguments: [SQLValue]) {
        var arguments: [SQLValue] = []
        let counts = sources.map { source in
            let (sql, sourceArguments) = entries(of: source, limit: cap)
            arguments += sourceArguments
            return "(SELECT count(*) FROM (\(sql)) x)"
        }
        return ("SELECT " + counts.joined(separator: ", "), arguments)
    }

    /// The tally's statement: one row per combination of category, kind, switch type, layout,
    /// connection, price band (its index in ``PriceBand/all``) and whether the price is within
    /// the filter's bounds (1 or 0), with its count.
    ///
    /// - Parameters:
    ///   - others: the plan's groups (and the tag's) that do not drive: each must match.
    ///   - sellerChecked: whether the seller filter, when set, is checked per candidate (false
    ///     when the seller is the source).
    static func tally(source: Source, others: [SearchPlan.Group], filter: ProductFilter, sellerChecked: Bool,
                      limit: Int) -> (sql: String, arguments: [SQLValue]) {
        var (candidates, arguments) = entries(of: source, limit: limit)
        if case .postings = source {
            // A listing may have several of a group's terms: once each.
            candidates = "SELECT DISTINCT e.id FROM (\(candidates)) e"
        }
        var conditions = ["p.listed = 1"]
        var conditionArguments: [SQLValue] = []
        for group in others {
            let (condition, groupArguments) = SearchListQuery.condition(of: group)
            conditions.append("EXISTS (SELECT 1 FROM search_terms t WHERE (\(condition)) AND t.product_id = p.id)")
            conditionArguments += groupArguments
        }
        // Only the filters no facet counts narrow the candidates here; the tag is a group.
        var unfaceted = ProductFilter(hotSwap: filter.hotSwap)
        if sellerChecked { unfaceted.sellerID = filter.sellerID }
        let (filterConditions, filterArguments) = SearchListQuery.filters(unfaceted)
        conditions += filterConditions
        conditionArguments += filterArguments

        let band = "CASE " + PriceBand.all.indices.dropFirst().reversed()
            .map { "WHEN p.price >= \(PriceBand.all[$0].minimum.won) THEN \($0) " }.joined() + "ELSE 0 END"
        var bounds: [String] = []
        var boundArguments: [SQLValue] = []
        if let minimum = filter.minimumPrice { bounds.append("p.price >= ?"); boundArguments.append(.integer(minimum.won)) }
        if let maximum = filter.maximumPrice { bounds.append("p.price <= ?"); boundArguments.append(.integer(maximum.won)) }
        let within = bounds.isEmpty ? "1" : "CASE WHEN \(bounds.joined(separator: " AND ")) THEN 1 ELSE 0 END"

        // Arguments bind in the order of their placeholders: the select list's, the
        // candidates', then the conditions'.
        arguments = boundArguments + arguments + conditionArguments
        let sql = """
            SELECT p.category, p.kind, p.spec_switch_type, p.spec_layout, p.spec_connection, \(band), \(within), count(*)
            FROM (\(candidates)) c JOIN products p ON p.id = c.id
            WHERE \(conditions.joined(separator: " AND "))
            GROUP BY 1, 2, 3, 4, 5, 6, 7
            """
        return (sql, arguments)
    }

    /// Up to `limit` entries of a source as a column `id` (a listing's id; for postings, a
    /// listing may come once per term it has).
    static func entries(of source: Source, limit: Int) -> (sql: String, arguments: [SQLValue]) {
        switch source {
        case let .postings(group):
            var ranges: [(String, [SQLValue])] = []
            let exact = group.exact + group.forgiven
            if !exact.isEmpty {
                ranges.append(("t.term IN (\(Array(repeating: "?", count: exact.count).joined(separator: ", ")))",
                               exact.map(SQLValue.text)))
            }
            for prefix in group.prefixes {
                ranges.append(("t.term >= ? AND t.term < ?", [.text(prefix), .text(prefix + "\u{10FFFF}")]))
            }
            // A group without terms matches nothing.
            guard !ranges.isEmpty else { return ("SELECT 0 AS id WHERE 1 = 0", []) }
            var arguments: [SQLValue] = []
            let arms = ranges.enumerated().map { index, range in
                arguments += range.1 + [.int(limit)]
                return "SELECT r\(index).id FROM (SELECT t.product_id AS id FROM search_terms t WHERE \(range.0) LIMIT ?) r\(index)"
            }
            guard arms.count > 1 else {
                return ("SELECT t.product_id AS id FROM search_terms t WHERE \(ranges[0].0) LIMIT ?", arguments)
            }
            return (arms.joined(separator: " UNION ALL ") + " LIMIT ?", arguments + [.int(limit)])
        case let .seller(id):
            return ("SELECT s.id FROM products s WHERE s.seller_id = ? AND s.listed = 1 LIMIT ?", [.integer(id.rawValue), .int(limit)])
        case .catalog:
            return ("SELECT s.id FROM products s WHERE s.listed = 1 ORDER BY s.id DESC LIMIT ?", [.int(limit)])
        }
    }
}
