import KeyCatDomain
import KeyCatInfrastructure

/// How far a search ranked by relevance reads: its limit, as Elasticsearch's
/// `index.max_result_window` is one (docs/search.md "Limits").
///
/// A page may spend a ``budget`` of index look-ups on its candidates: each costs one per term
/// of each group of the query (a prefix spelt out into 12 words is 12, a word and its synonym
/// 2), one per whole-word bonus, and one for the listing and its search document, so a query's
/// **window** is the budget divided by that (``sizes(of:terms:budget:)``): 2,000 postings for a
/// two-syllable word (one group, one bonus), 857
/// for `무접점 키보드` (four groups, two bonuses), 428 for four words. When the window's postings
/// are far apart — more than ``sparseSpacing`` listings between two on average, as for a word
/// in one listing of fifty — every candidate reads pages of its own and the two row reads count
/// double: the window is the budget over two look-ups more (1,200 for the two-syllable word).

/// A query whose rarest group has fewer postings than its window is ranked exactly: every
/// listing that matches is a candidate. A broader one ranks the listings from a **floor** on: the
/// id of the window-th newest posting of one of its groups (of the group's term that has the
/// most, when it has several) — the group whose newest postings reach furthest back, so that the
/// window spans the most listings — and only those postings are candidates: older listings are
/// not found by that query under that sort. A first page the window does not fill (its listings
/// hidden, or filtered out) is ranked once more from a floor ``deepening`` times as deep, at that
/// many times the cost. The floor is chosen by the first page and kept in the
/// cursor, so every page of a walk reads the same window: a listing that is in it and matches
/// throughout is returned exactly once, whatever is listed or deleted meanwhile (a new listing,
/// above the floor, joins it). Sorts other than relevance read no window: a broad query walks the
/// listings in that sort's index instead, which is exact
/// (``SearchListQuery/browsing(plan:terms:filter:sort:after:limit:)``).
///
/// The relevance key needs 32 bits (an 11-bit text score above 21 bits of signals), so a hit's
/// key carries the floor in the 31 bits above them and the deeper look in the sign bit; ids
/// beyond 31 bits widen the window to ``largestFloor``, which is still a window the walk keeps.
package enum SearchWindow {
    /// The index look-ups a relevance page may spend on its candidates.
    package static let budget = 6_000

    /// How many times deeper a first page looks when its window leaves it short: a broad word
    /// with a selective filter, or a window filled by a suspended seller's hidden listings. One
    /// look at eight times the budget bounds such a page at nine windows' work (`갈축` among
    /// keyboards under ₩40,000 at a million listings: 25.6 ms at p50 against 4.8 ms for `갈축`,
    /// docs/benchmarks.md), where a deeper or repeated look would be a scan.
    static let deepening = 8

    /// Listings per posting, on average, beyond which a window is sparse.
    static let sparseSpacing: Int64 = 8

    /// The most postings of its driving group a query's page ranks: ``budget`` over the
    /// look-ups each candidate costs, when they are close together and when they are sparse.
    static func sizes(of plan: SearchPlan, terms: SearchTerms, budget: Int) -> (dense: Int, sparse: Int) {
        let seeks = plan.groups.reduce(0) { $0 + max(1, terms.listed($1).count) }
        let lookups = seeks + plan.bonuses.count + 1
        return (max(1, budget / lookups), max(1, budget / (lookups + 2)))
    }

    /// The largest floor a key can carry.
    static let largestFloor: Int64 = (1 << 31) - 1

    /// A hit's key with the window's floor above it, and in the sign bit whether the first page
    /// looked ``deepening`` times as deep for it: the next pages then count the groups with as
    /// much more room, so that the group that set the floor drives again.
    static func pack(key: Int64, floor: Int64, deepened: Bool = false) -> Int64 {
        (deepened ? Int64.min : 0) | min(floor, largestFloor) << 32 | key
    }

    /// A cursor's key, the floor it carries and whether it came from a deeper look.
    package static func unpack(_ sortKey: Int64) -> (key: Int64, floor: Int64, deepened: Bool) {
        (sortKey & 0xFFFF_FFFF, (sortKey >> 32) & largestFloor, sortKey < 0)
    }

    /// Where a group's windows would start.
    struct Floors {
        /// The group's newest posting.
        var newest: Int64?
        /// The id of its `dense`-th and `sparse`-th newest postings, the largest of its terms'
        /// (nil when none of its terms has that many, or it is a range of terms with fewer).
        var dense, sparse: Int64?

        /// Floors of these ids; none known by default.
        init(newest: Int64? = nil, dense: Int64? = nil, sparse: Int64? = nil) {
            (self.newest, self.dense, self.sparse) = (newest, dense, sparse)
        }

        /// The floors a row of ``SearchWindow/floors(of:terms:sizes:)`` answers (its group's index is column 0).
        init(answer row: some SQLRow) {
            self.init(newest: row.optionalInt64(1), dense: row.optionalInt64(2), sparse: row.optionalInt64(3))
        }

        /// The floor of the window: the dense one when its postings are close together.
        func floor(dense size: Int) -> Int64 {
            if let dense, let newest, newest - dense <= Int64(size) * SearchWindow.sparseSpacing { return dense }
            return sparse ?? 0
        }

        /// These floors and `other`'s, each id the larger: a group's terms answered in two statements.
        func including(_ other: Floors) -> Floors {
            func larger(_ a: Int64?, _ b: Int64?) -> Int64? { [a, b].compactMap { $0 }.max() }
            return Floors(newest: larger(newest, other.newest), dense: larger(dense, other.dense), sparse: larger(sparse, other.sparse))
        }
    }

    /// The statements answering each of `groups`' ``Floors``: one row per group and statement,
    /// its index in `groups`, then the three ids, each the largest of the group's terms' (so a
    /// group answered in two statements is the larger of its two rows, ``Floors/including(_:)``).
    /// Each term is one arm of a `UNION ALL`, at most ``maximumArms`` a statement: ten words
    /// each spelt out into 64 terms are 640 arms, and SQLite refuses a compound `SELECT` of more
    /// than 500. A statement's text depends only on the groups its arms belong to, so it is built
    /// once per such shape (``floorsText(_:)``).
    static func floors(of groups: [SearchPlan.Group], terms: SearchTerms,
                       sizes: (dense: Int, sparse: Int)) -> [(sql: String, arguments: [SQLValue])] {
        var statements: [(sql: String, arguments: [SQLValue])] = []
        var shape: [Int] = []
        var arguments: [SQLValue] = []
        func flush() {
            guard !shape.isEmpty else { return }
            statements.append((floorsMemo.value(for: shape) { floorsText(shape) }, arguments))
            shape.removeAll()
            arguments.removeAll()
        }
        let dense = SQLValue.int(sizes.dense - 1), sparse = SQLValue.int(sizes.sparse - 1)
        for (index, group) in groups.enumerated() {
            // Each condition's arguments three times: the newest, the dense and the sparse id.
            for term in terms.listed(group) {
                if shape.count == maximumArms { flush() }
                let value = SQLValue.text(term)
                shape.append(index)
                arguments.append(contentsOf: [value, value, dense, value, sparse])
            }
        }
        flush()
        return statements
    }

    /// The most arms one floors statement has: well within SQLite's 500 terms of a compound
    /// `SELECT` (`SQLITE_MAX_COMPOUND_SELECT`).
    static let maximumArms = 250

    private static let floorsMemo = SearchStatementMemo<[Int], String>()

    /// The text of ``floors(of:terms:sizes:)`` for arms of these groups, one term each.
    private static func floorsText(_ shape: [Int]) -> String {
        let newest = "SELECT t.product_id FROM search_terms t WHERE t.term = ? ORDER BY t.product_id DESC LIMIT 1"
        let arms = shape.map { group in
            "SELECT \(group) AS g, (\(newest)) AS n, (\(newest) OFFSET ?) AS d, (\(newest) OFFSET ?) AS s"
        }
        return "SELECT g, max(n), max(d), max(s) FROM (\(arms.joined(separator: " UNION ALL "))) x GROUP BY g"
    }
}
