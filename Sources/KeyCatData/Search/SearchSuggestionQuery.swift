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
        sql = Self.sql(spellings: query.spellings.count, initials: query.initials != nil)
        // Built in place: a suggestion is read on every keystroke, and is only a few microseconds.
        arguments = []
        arguments.reserveCapacity(3 * (query.spellings.count + 1))
        func range(from prefix: String) {
            arguments += [.text(prefix), .text(prefix + "\u{10FFFF}"), .int(SuggestionQuery.candidateLimit)]
        }
        for spelling in query.spellings { range(from: spelling) }
        if let initials = query.initials { range(from: initials) }
    }

    /// The statement for ranges over `spellings` spellings and, when `initials`, the initials:
    /// the same text for every query of that shape, so built once per shape (a query has one or
    /// two spellings); building it took about as long as running it over a small vocabulary.
    static func sql(spellings: Int, initials: Bool) -> String {
        shapes.indices.contains(spellings) ? shapes[spellings][initials ? 1 : 0] : text(spellings: spellings, initials: initials)
    }

    /// ``sql(spellings:initials:)`` for none to two spellings, without and with the initials.
    private static let shapes = (0...2).map { spellings in [false, true].map { text(spellings: spellings, initials: $0) } }

    private static func text(spellings: Int, initials: Bool) -> String {
        let columns = Array(repeating: "spelling", count: spellings) + (initials ? ["initials"] : [])
        return columns.enumerated().map { index, column in
            """
            SELECT r\(index).display, r\(index).kind, r\(index).products FROM (
                SELECT w.display, w.kind, w.products FROM search_words w
                WHERE w.products > 0 AND w.\(column) IS NOT NULL AND w.\(column) >= ? AND w.\(column) < ?
                ORDER BY w.\(column) LIMIT ?) r\(index)
            """
        }.joined(separator: "\nUNION ALL\n")
    }
}
