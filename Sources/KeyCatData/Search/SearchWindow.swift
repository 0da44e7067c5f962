import KeyCatDomain
import KeyCatInfrastructure

/// How far a search ranked by relevance reads: its limit, as Elasticsearch's
/// `index.max_result_window` is one (docs/search.md "Limits").
///
/// A query whose rarest group has fewer than ``size`` postings is ranked exactly: every listing
/// that matches is a candidate. A broader one ranks the listings from a **floor** on: the id of
/// the `size`-th newest posting of one of its groups (of the group's term that has the most,
/// when it has several) — the group whose `size` newest postings reach furthest back, so that
/// the window spans the most listings — and only those `size` postings are candidates: older
/// listings are not found by that query under that sort. The floor is chosen by the first page
/// and kept in the cursor, so every page of a walk reads the same window: a listing that is in
/// it and matches throughout is returned exactly once, whatever is listed or deleted meanwhile
/// (a new listing, above the floor, joins it). Sorts other than relevance read no window: a
/// broad query walks the listings in that sort's index instead, which is exact
/// (``SearchListQuery/browsing(plan:terms:filter:sort:after:limit:)``).
///
/// The relevance key needs 32 bits (an 11-bit text score above 21 bits of signals), so a hit's
/// key carries the floor in the bits above them; ids beyond 31 bits widen the window to
/// ``largestFloor``, which is still a window the walk keeps.
package enum SearchWindow {
    /// The most postings of the rarest group a relevance page ranks.
    package static let size = 2_000

    /// The largest floor a key can carry.
    static let largestFloor: Int64 = (1 << 31) - 1

    /// A hit's key with the window's floor above it.
    static func pack(key: Int64, floor: Int64) -> Int64 {
        min(floor, largestFloor) << 32 | key
    }

    /// A cursor's key and the floor it carries.
    static func unpack(_ sortKey: Int64) -> (key: Int64, floor: Int64) {
        (sortKey & 0xFFFF_FFFF, sortKey >> 32)
    }

    /// The statement answering each of `groups`' floor, one column each: for each of the group's
    /// terms, the id of its `size`-th newest posting, and the largest of those; NULL when no term
    /// has that many (or when the group is a range of terms with fewer postings).
    static func floors(of groups: [SearchPlan.Group], terms: SearchTerms, size: Int) -> (sql: String, arguments: [SQLValue]) {
        var columns: [String] = []
        var arguments: [SQLValue] = []
        for group in groups {
            var arms: [String] = []
            for term in terms.listed(group) {
                arms.append("SELECT (SELECT t.product_id FROM search_terms t WHERE t.term = ? ORDER BY t.product_id DESC LIMIT 1 OFFSET ?) AS f")
                arguments += [.text(term), .int(size - 1)]
            }
            for prefix in terms.ranges(group) {
                arms.append("""
                    SELECT (SELECT t.product_id FROM search_terms t WHERE t.term >= ? AND t.term < ?
                            ORDER BY t.product_id DESC LIMIT 1 OFFSET ?) AS f
                    """)
                arguments += [.text(prefix), .text(prefix + "\u{10FFFF}"), .int(size - 1)]
            }
            columns.append(arms.isEmpty ? "NULL" : "(SELECT max(f) FROM (\(arms.joined(separator: " UNION ALL "))) x)")
        }
        return ("SELECT " + columns.joined(separator: ", "), arguments)
    }
}
