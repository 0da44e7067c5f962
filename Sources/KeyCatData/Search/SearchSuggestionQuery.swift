import KeyCatDomain
import KeyCatInfrastructure

/// The SQL of as-you-type completions (docs/search.md "Suggestions"), the same text on both
/// stores: for each key of a ``SuggestionQuery``, the vocabulary entries of live listings
/// (`products > 0`) whose jamo spelling, or initials, start with it, read as one range of the
/// partial index over that column and cut at ``SuggestionQuery/candidateLimit`` entries, nearest
/// first. The ranking is ``SearchSuggestion/ranked(_:limit:)``'s, in Swift.
struct SearchSuggestionQuery {
    var sql: String
    var arguments: [SQLValue]

    init(_ query: SuggestionQuery) {
        var ranges = query.spellings.map { (column: "spelling", prefix: $0) }
        if let initials = query.initials { ranges.append((column: "initials", prefix: initials)) }
        var arguments: [SQLValue] = []
        let arms = ranges.enumerated().map { index, range in
            arguments += [.text(range.prefix), .text(range.prefix + "\u{10FFFF}"), .int(SuggestionQuery.candidateLimit)]
            let column = "w.\(range.column)"
            return """
                SELECT r\(index).display, r\(index).kind, r\(index).products FROM (
                    SELECT w.display, w.kind, w.products FROM search_words w
                    WHERE w.products > 0 AND \(column) IS NOT NULL AND \(column) >= ? AND \(column) < ?
                    ORDER BY \(column) LIMIT ?) r\(index)
                """
        }
        sql = arms.joined(separator: "\nUNION ALL\n")
        self.arguments = arguments
    }
}
