import KeyCatDomain
import KeyCatInfrastructure

/// The SQL of a facet count (docs/search.md "Facets"), the same text on both stores: the
/// listings of one **source** (a group of the query's plan, the tag, the seller, or the whole
/// catalog), at most `limit` of them, each checked against the rest of the query and the
/// filters no facet counts, then counted per combination of the faceted attributes
/// (``FacetTally``).
///
/// Every statement reads a bounded number of index entries and rows, however broad the query:
/// a source is read as ranges of an index, each cut at the limit (`UNION ALL` of a term's
/// postings rather than `OR`, so that Postgres scans each in order instead of building a bitmap of all),
/// and every other requirement is one seek per candidate. The counts are grouped by one text
/// key (``Key``) rather than seven columns: one comparison per row in the grouping sort.
enum SearchFacetQuery {
    /// Where the candidates come from.
    enum Source {
        /// The listings with one of a group's terms (``SearchTerms/listed(_:)``): their postings
        /// in `search_terms`.
        case postings([String])
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

    /// The tally's statement: one row per combination of the faceted attributes, as a key
    /// (``Key``), with its count.
    ///
    /// A source of postings is a list of ids, each joined to its row in `products` (a lookup
    /// per candidate; Postgres may scan the table instead while it is small enough for that to
    /// cost less); a source of listings has the rows themselves.
    ///
    /// - Parameters:
    ///   - others: the plan's groups (and the tag's) that do not drive: each must match.
    ///   - sellerChecked: whether the seller filter, when set, is checked per candidate (false
    ///     when the seller is the source).
    static func tally(source: Source, others: [[String]], filter: ProductFilter, sellerChecked: Bool,
                      limit: Int) -> (sql: String, arguments: [SQLValue]) {
        var conditions = ["p.listed = 1"]
        var conditionArguments: [SQLValue] = []
        for terms in others {
            // A scalar subquery rather than EXISTS, so that it stays a seek per term and candidate
            // where Postgres could turn EXISTS into a join over all the group's postings.
            let (condition, termArguments) = SearchTerms.condition(matching: terms)
            conditions.append("(SELECT 1 FROM search_terms t WHERE \(condition) AND t.product_id = p.id LIMIT 1) = 1")
            conditionArguments += termArguments
        }
        // Only the filters no facet counts narrow the candidates here; the tag is a group.
        var unfaceted = ProductFilter(hotSwap: filter.hotSwap)
        if sellerChecked { unfaceted.sellerID = filter.sellerID }
        let (filterConditions, filterArguments) = SearchListQuery.filters(unfaceted)
        conditions += filterConditions
        conditionArguments += filterArguments
        let (key, keyArguments) = Key.sql(bounds: filter)

        let listings: String
        let candidateArguments: [SQLValue]
        var count = "count(*)"
        switch source {
        case let .postings(terms):
            let (candidates, arguments) = entries(of: source, limit: limit)
            listings = "(\(candidates)) c JOIN products p ON p.id = c.id"
            candidateArguments = arguments
            // A listing may have several of a group's terms: counted once. (One term's postings
            // name each listing once, and skipping it saves a sort.)
            if terms.count > 1 { count = "count(DISTINCT p.id)" }
        case .seller, .catalog:
            let (candidates, arguments) = entries(of: source, limit: limit, columns: Self.listingColumns)
            listings = "(\(candidates)) p"
            candidateArguments = arguments
        }
        // Arguments bind in the order of their placeholders: the key's, the candidates', the conditions'.
        return ("""
            SELECT \(key), \(count) FROM \(listings)
            WHERE \(conditions.joined(separator: " AND "))
            GROUP BY 1
            """, keyArguments + candidateArguments + conditionArguments)
    }

    /// A listing's faceted attributes as one text, `category,kind,switch,layout,connection,band,within`
    /// (an absent spec value empty, the band its index in ``PriceBand/all``, `within` 1 when the
    /// price is within the filter's bounds): a single grouping key both stores compare fast.
    enum Key {
        static func sql(bounds filter: ProductFilter) -> (String, [SQLValue]) {
            let band = "CASE " + PriceBand.all.indices.dropFirst().reversed()
                .map { "WHEN p.price >= \(PriceBand.all[$0].minimum.won) THEN \($0) " }.joined() + "ELSE 0 END"
            var bounds: [String] = []
            var arguments: [SQLValue] = []
            if let minimum = filter.minimumPrice { bounds.append("p.price >= ?"); arguments.append(.integer(minimum.won)) }
            if let maximum = filter.maximumPrice { bounds.append("p.price <= ?"); arguments.append(.integer(maximum.won)) }
            let within = bounds.isEmpty ? "1" : "CASE WHEN \(bounds.joined(separator: " AND ")) THEN 1 ELSE 0 END"
            let parts = ["p.category", "p.kind", "coalesce(p.spec_switch_type, '')", "coalesce(p.spec_layout, '')",
                         "coalesce(p.spec_connection, '')", "(\(band))", "(\(within))"]
            return (parts.joined(separator: " || ',' || "), arguments)
        }

        /// The cell a key names.
        ///
        /// - Throws: an internal error for a value no case has (a database written by something else).
        static func cell(_ key: String) throws -> FacetTally.Cell {
            let parts = key.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // The count is checked first, below.
            func value<Value: RawRepresentable>(_ index: Int, _ type: Value.Type) throws -> Value? where Value.RawValue == String {
                if parts[index].isEmpty { return nil }
                guard let value = Value(rawValue: parts[index]) else {
                    throw KeyCatError(.internalError, "unknown \(Value.self) «\(parts[index])» in the database")
                }
                return value
            }
            guard parts.count == 7, let category = try value(0, ProductCategory.self), let kind = try value(1, ProductKind.self),
                  let band = Int(parts[5]), PriceBand.all.indices.contains(band) else {
                throw KeyCatError(.internalError, "a facet key «\(key)» is malformed")
            }
            return FacetTally.Cell(
                category: category, kind: kind, switchType: try value(2, KeyboardSpec.SwitchType.self),
                layout: try value(3, KeyboardSpec.Layout.self), connection: try value(4, KeyboardSpec.Connection.self),
                priceBand: PriceBand.all[band], withinPriceBounds: parts[6] == "1")
        }
    }

    /// The columns of `products` a tally reads, for the sources that are listings.
    static let listingColumns = "s.id, s.listed, s.seller_id, s.category, s.kind, s.spec_switch_type, s.spec_layout, "
        + "s.spec_connection, s.spec_pcb, s.price"

    /// Up to `limit` entries of a source as a column `id` (a listing's id; for postings, a
    /// listing may come once per term it has); a source of listings gives `columns` of them.
    static func entries(of source: Source, limit: Int, columns: String = "s.id") -> (sql: String, arguments: [SQLValue]) {
        switch source {
        case let .postings(terms):
            // A group without terms matches nothing.
            guard !terms.isEmpty else { return ("SELECT 0 AS id WHERE 1 = 0", []) }
            // One term is one range. Past SQLite's 500 arms of a compound `SELECT`, one list of
            // terms instead (a group spelt out into that many needs several synonyms each spelt
            // into 64 words).
            guard terms.count > 1, terms.count <= SearchWindow.maximumArms else {
                let (condition, arguments) = SearchTerms.condition(matching: terms)
                return ("SELECT t.product_id AS id FROM search_terms t WHERE \(condition) LIMIT ?", arguments + [.int(limit)])
            }
            var arguments: [SQLValue] = []
            let arms = terms.enumerated().map { index, term in
                arguments += [.text(term), .int(limit)]
                return "SELECT r\(index).id FROM (SELECT t.product_id AS id FROM search_terms t WHERE t.term = ? LIMIT ?) r\(index)"
            }
            return (arms.joined(separator: " UNION ALL ") + " LIMIT ?", arguments + [.int(limit)])
        case let .seller(id):
            return ("SELECT \(columns) FROM products s WHERE s.seller_id = ? AND s.listed = 1 LIMIT ?", [.integer(id.rawValue), .int(limit)])
        case .catalog:
            return ("SELECT \(columns) FROM products s WHERE s.listed = 1 ORDER BY s.id DESC LIMIT ?", [.int(limit)])
        }
    }
}
