import CSQLite

/// A facet count and a suggestion list as a hand-written server would give them with the same
/// SQL: the statements KeyCat ran (the plan's look-ups, the sources' sizes, the tally; or the
/// vocabulary's ranges), each prepared once and run with the same arguments, and the last one's
/// rows turned into the answer with plain strings and integers. What the baseline leaves out is
/// what KeyCat adds: the query's analysis, choosing the source, building the SQL, typed cells.
protocol RawSearchBrowsingReplay {
    /// Runs a facet count's `statements` in order and returns the last one's rows: a key
    /// (`category,kind,switch,layout,connection,band,within`) and its count.
    func tallyRows(_ statements: [TracedStatement]) throws -> [(key: String, count: Int)]
    /// Runs a completion's `statements` in order and returns the last one's rows.
    func completionRows(_ statements: [TracedStatement]) throws -> [RawSuggestion]
}

/// A vocabulary entry as the suggestion statement reads it.
struct RawSuggestion: Equatable {
    var text: String
    var kind: String
    var listings: Int
}

extension RawSearchBrowsingReplay {
    /// The facet counts of a tally's rows, as `facet=value` (the price band by its index,
    /// cheapest first) and `total`, zero counts left out: each facet's value counted where no
    /// other facet's filter refuses the row, the total where none does.
    ///
    /// - Parameter chosen: the category, kind, switch type, layout and connection filtered on,
    ///   in the key's order (nil: any).
    func facets(_ statements: [TracedStatement], chosen: [String?]) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for (key, count) in try tallyRows(statements) {
            let parts = key.split(separator: ",", omittingEmptySubsequences: false)
            var failing: [Int] = []
            for facet in chosen.indices where chosen[facet].map({ $0 != parts[facet] }) ?? false { failing.append(facet) }
            if parts[6] != "1" { failing.append(5) }
            guard failing.count <= 1 else { continue }
            if failing.isEmpty { counts["total", default: 0] += count }
            for facet in 0..<6 where !parts[facet].isEmpty && (failing.isEmpty || failing == [facet]) {
                counts[RawFacetNames.all[facet] + "=" + parts[facet], default: 0] += count
            }
        }
        return counts
    }

    /// The first `limit` completions: words and tags before titles, the more listings first, a
    /// tag before a word with as many, then by text; a word that is also a tag once.
    func suggestions(_ statements: [TracedStatement], limit: Int) throws -> [RawSuggestion] {
        func rank(_ row: RawSuggestion) -> (Int, Int, Int) {
            (row.kind == "title" ? 1 : 0, -row.listings, row.kind == "tag" ? 0 : 1)
        }
        let ordered = try completionRows(statements).sorted { a, b in
            let (x, y) = (rank(a), rank(b))
            return x != y ? x < y : a.text < b.text
        }
        var seen: Set<String> = []
        var result: [RawSuggestion] = []
        for row in ordered where result.count < limit {
            if seen.insert((row.kind == "title" ? "title:" : "word:") + row.text.lowercased()).inserted { result.append(row) }
        }
        return result
    }
}

/// The facets' names in the order of a tally key's parts.
enum RawFacetNames {
    static let all = ["category", "kind", "switch_type", "layout", "connection", "price"]
}

extension RawSearch: RawSearchBrowsingReplay {
    func tallyRows(_ statements: [TracedStatement]) throws -> [(key: String, count: Int)] {
        var rows: [(key: String, count: Int)] = []
        try run(statements) { rows.append((database.text($0, 0), Int(sqlite3_column_int64($0, 1)))) }
        return rows
    }

    func completionRows(_ statements: [TracedStatement]) throws -> [RawSuggestion] {
        var rows: [RawSuggestion] = []
        try run(statements) {
            rows.append(RawSuggestion(text: database.text($0, 0), kind: database.text($0, 1), listings: Int(sqlite3_column_int64($0, 2))))
        }
        return rows
    }
}

extension RawPostgresSearch: RawSearchBrowsingReplay {
    func tallyRows(_ statements: [TracedStatement]) throws -> [(key: String, count: Int)] {
        guard let result = try run(statements) else { return [] }
        return (0..<result.rows).map { (result.text($0, 0), Int(result.int($0, 1))) }
    }

    func completionRows(_ statements: [TracedStatement]) throws -> [RawSuggestion] {
        guard let result = try run(statements) else { return [] }
        return (0..<result.rows).map { RawSuggestion(text: result.text($0, 0), kind: result.text($0, 1), listings: Int(result.int($0, 2))) }
    }
}
