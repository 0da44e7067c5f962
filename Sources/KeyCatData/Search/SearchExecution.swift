import KeyCatDomain
import KeyCatInfrastructure

/// One page of a search on one connection, in a few exchanges with the store:
///
/// 1. the plan (``SearchPlanner``: synonyms, typos, initials) and the Latin prefixes spelt out
///    into terms (``SearchTerms``);
/// 2. with several groups, their postings counted up to the query's window
///    (``SearchWindow/sizes(of:terms:budget:)``): the rarest drives,
///    and a group with none ends the search;
/// 3. by relevance, the window's floor (``SearchWindow``): from the cursor, or, on a first page
///    whose rarest group has more postings than the window holds, from the group whose newest
///    postings reach furthest back, which then drives;
/// 4. the page: ranked from the driving group's postings (``SearchListQuery``), or, for another
///    sort when the driving group is broad, walked in that sort's index
///    (``SearchListQuery/browsing(plan:terms:filter:sort:after:limit:examining:)``), examining
///    at most the window's number of listings: a page that has not filled by then stops short,
///    with where it stopped (``SearchPage/walkedTo``).
///
/// Each statement is its own snapshot, as the product list's are. Statements that do not wait
/// for one another's answers travel in one exchange with the store, on Postgres a round trip:
/// step 1's look-ups travel together, and when the plan can only change by its synonyms (a
/// Korean query's), step 2 or 3 travels with them, so `갈축` is two round trips and `gater`
/// three (until 2026-12-02, three and five; `PostgresRoundTripTests`); a first page its window
/// leaves short looks deeper in two more (``SearchWindow/deepening``).
package enum SearchExecution {
    /// - Parameters:
    ///   - windowBudget: ``SearchWindow/budget``; tests make it small to walk windows of a few listings.
    ///   - trace: handed each statement before it runs: the benchmark's raw baseline replays them.
    package static func hits<Connection: SQLConnection>(
        text: SearchQuery, filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int,
        windowBudget: Int = SearchWindow.budget, on connection: Connection, trace: ((String, [SQLValue]) -> Void)? = nil
    ) throws -> SearchPage {
        // What the page runs first travels with the plan's look-ups when the plan is known before
        // their answers but for synonyms (a Korean query's): one round trip fewer.
        let first = FirstStep()
        let prepared = try SearchPlanner.prepare(text, on: connection, alongside: { plan, terms in
            first.statements(plan: plan, terms: terms, sort: sort, after: position, windowBudget: windowBudget)
        }, trace: trace)
        return try hits(plan: prepared.plan, terms: prepared.terms, filter: filter, sort: sort, after: position, limit: limit,
                        windowBudget: windowBudget, first: prepared.answeredAlongside ? first : nil, on: connection, trace: trace)
    }

    /// The statement a page runs first once its plan is known, built beforehand so that it can
    /// travel with the plan's look-ups (``SearchPlanner/prepare(_:on:alongside:trace:)``): the
    /// groups' counts, or, for one group on a first page by relevance, its window's floors —
    /// the statements ``hits(plan:terms:filter:sort:after:limit:windowBudget:first:on:trace:)``
    /// would build, and their answers.
    private final class FirstStep {
        var counts: [Int]?
        /// The one group's floors.
        var floors: SearchWindow.Floors?

        func statements<Row: SQLRow>(plan: SearchPlan, terms: SearchTerms, sort: ProductSort, after position: CursorPosition?,
                                     windowBudget: Int) -> [SQLStatement<Row>] {
            let window = SearchWindow.sizes(of: plan, terms: terms, budget: windowBudget)
            let relevance = sort == .relevance
            if plan.groups.count > 1 || !relevance {
                let sizes = SearchExecution.sizes(of: plan, terms: terms, window: window, sort: sort, after: position)
                return [.query(sizes.sql, sizes.arguments) { row in self.counts = plan.groups.indices.map { row.int($0) } }]
            }
            guard position == nil, plan.groups.count == 1 else { return [] }
            floors = SearchWindow.Floors()
            return SearchWindow.floors(of: plan.groups, terms: terms, sizes: window).map { statement in
                .query(statement.sql, statement.arguments) { row in self.floors = self.floors?.including(SearchWindow.Floors(answer: row)) }
            }
        }
    }

    /// The statement counting each group's postings, as far as a page needs to know which is
    /// rarest (``SearchTerms/groupSizes(of:cap:floor:)``): from a relevance cursor's floor on,
    /// with room above a window, or above ``SearchWindow/deepening`` windows when the first page
    /// looked that deep (without it every broad group stopped at the cap, and the first, perhaps
    /// the broadest, drove the next pages).
    private static func sizes(of plan: SearchPlan, terms: SearchTerms, window: (dense: Int, sparse: Int), sort: ProductSort,
                              after position: CursorPosition?) -> (sql: String, arguments: [SQLValue]) {
        guard sort == .relevance, let position else { return terms.groupSizes(of: plan, cap: window.dense) }
        let (_, floor, deepened) = SearchWindow.unpack(position.sortKey)
        let cap = deepened ? 2 * SearchWindow.deepening * window.dense : floor > 0 ? 2 * window.dense : window.dense
        return terms.groupSizes(of: plan, cap: cap, floor: floor)
    }

    /// A page of the listings with `tag`, under a sort other than relevance, read as a search of
    /// the tag's one group: a tag with few listings is read from its postings and sorted, one
    /// with many walks the sort's index, and one no listing has ends at its count. (Walking the
    /// sort's index for any tag read the whole catalog for a tag that matches nothing.)
    package static func hits<Connection: SQLConnection>(
        tagged tag: String, filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int,
        windowBudget: Int = SearchWindow.budget, on connection: Connection, trace: ((String, [SQLValue]) -> Void)? = nil
    ) throws -> SearchPage {
        var others = filter
        others.tag = nil
        return try hits(plan: SearchPlan(requiring: [.tag(tag)]), terms: SearchTerms(), filter: others, sort: sort, after: position,
                        limit: limit, windowBudget: windowBudget, on: connection, trace: trace)
    }

    /// Steps 2 to 4 for a plan whose terms are spelt out.
    ///
    /// - Parameter first: the answers to the first of them, when they came with the plan.
    private static func hits<Connection: SQLConnection>(
        plan: SearchPlan, terms: SearchTerms, filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int,
        windowBudget: Int, first: FirstStep? = nil, on connection: Connection, trace: ((String, [SQLValue]) -> Void)?
    ) throws -> SearchPage {
        func one<Value>(_ statement: (sql: String, arguments: [SQLValue]), _ decode: (Connection.Row) throws -> Value) throws -> Value? {
            trace?(statement.sql, statement.arguments)
            return try connection.queryOne(statement.sql, statement.arguments, decode)
        }
        let window = SearchWindow.sizes(of: plan, terms: terms, budget: windowBudget)
        let relevance = sort == .relevance
        // The groups rarest first: the first drives; one without postings ends the search here.
        var order = Array(plan.groups.indices)
        var drivingCount: Int?
        var counts: [Int] = []
        var floor: Int64 = 0
        var deepened = false
        var resumeAfter = position
        if relevance, let position {
            let (key, kept, deeper) = SearchWindow.unpack(position.sortKey)
            (floor, deepened) = (kept, deeper)
            resumeAfter = CursorPosition(sortKey: key, id: position.id)
        }
        if plan.groups.count > 1 || !relevance {
            // After a relevance cursor each group is counted from the window's floor, with room
            // above a window: the group that set the floor has about a window there and drives
            // again. Counted from the start, every broad group stopped at the cap and the first
            // drove, ranking all its postings above the floor (until 2026-12-01 a next page of
            // `키보드` and a word common only in old listings ranked most of the catalog).
            if let answered = first?.counts {
                counts = answered
            } else {
                let sizes = sizes(of: plan, terms: terms, window: window, sort: sort, after: position)
                counts = try one(sizes) { row in plan.groups.indices.map { row.int($0) } } ?? []
            }
            if counts.contains(0) { return SearchPage(hits: []) }
            order.sort { (counts[$0], $0) < (counts[$1], $1) }
            drivingCount = counts[order[0]]
        }
        if !relevance && drivingCount ?? 0 >= window.dense {
            return try browse(plan: plan, terms: terms, filter: filter, sort: sort, after: position, limit: limit,
                              examining: window.dense, on: connection, trace: trace)
        }
        // The groups each with at least a sparse window's worth of postings, when the driving
        // one has: the one among them whose newest reach furthest back drives, and sets the floor.
        let broad = relevance && position == nil && drivingCount.map({ $0 >= window.sparse }) ?? true
            ? order.filter { index in drivingCount == nil || counts[index] >= window.sparse } : []
        /// Sets the floor (and the driving group) from the broad groups' floors for windows of `sizes`.
        func chooseFloor(_ sizes: (dense: Int, sparse: Int), answered: SearchWindow.Floors?) throws {
            var floors = [SearchWindow.Floors](repeating: SearchWindow.Floors(), count: broad.count)
            if let answered, broad == [0] {
                floors = [answered]
            } else {
                // One exchange, however many statements the floors take.
                let statements = SearchWindow.floors(of: broad.map { plan.groups[$0] }, terms: terms, sizes: sizes).map { statement in
                    trace?(statement.sql, statement.arguments)
                    return SQLStatement<Connection.Row>.query(statement.sql, statement.arguments) { row in
                        floors[row.int(0)] = floors[row.int(0)].including(SearchWindow.Floors(answer: row))
                    }
                }
                if !statements.isEmpty { try connection.batch(statements) }
            }
            if let choice = broad.indices.min(by: { (floors[$0].sparse ?? -1, $0) < (floors[$1].sparse ?? -1, $1) }) {
                floor = floors[choice].floor(dense: sizes.dense)
                order.removeAll { $0 == broad[choice] }
                order.insert(broad[choice], at: 0)
            }
        }
        func page() throws -> [SearchHit] {
            let query = SearchListQuery.page(plan: plan, terms: terms, order: order, floor: floor, filter: filter, sort: sort,
                                             after: resumeAfter, limit: limit, dialect: connection.dialect)
            trace?(query.sql, query.arguments)
            var hits: [SearchHit] = []
            hits.reserveCapacity(limit)
            try connection.forEach(query.sql, query.arguments) { row in
                let key = row.int64(ProductRow.columnCount)
                hits.append(SearchHit(product: try ProductRow.decode(row),
                                      key: relevance ? SearchWindow.pack(key: key, floor: floor, deepened: deepened) : key))
            }
            return hits
        }
        if !broad.isEmpty { try chooseFloor(window, answered: first?.floors) }
        var hits = try page()
        if !broad.isEmpty && floor > 0 && hits.count < limit {
            // The window did not fill a first page: its listings hidden (a suspended seller's) or
            // not what the filters ask for. Look once more, in a window ``SearchWindow/deepening``
            // times as deep, before answering that there is no more.
            try chooseFloor((window.dense * SearchWindow.deepening, window.sparse * SearchWindow.deepening), answered: nil)
            deepened = true
            hits = try page()
        }
        return SearchPage(hits: hits)
    }

    /// A page walked in the sort's index (``SearchListQuery/browsing(plan:terms:filter:sort:after:limit:examining:)``):
    /// the cursor's ties, then the keys beyond it, a listing whose key moved between the two kept
    /// once. Each statement examines at most `examining` listings; a page they leave short asks
    /// where the walk's last examined listing was, and resumes after it next time, so no page
    /// walks the whole catalog for words that are each common but seldom together (until
    /// 2026-12-01 `q=wired bluetooth&sort=newest` did, a million look-ups).
    private static func browse(
        plan: SearchPlan, terms: SearchTerms, filter: ProductFilter, sort: ProductSort, after position: CursorPosition?,
        limit: Int, examining: Int, on connection: some SQLConnection, trace: ((String, [SQLValue]) -> Void)?
    ) throws -> SearchPage {
        let walk = SearchListQuery.browsing(plan: plan, terms: terms, filter: filter, sort: sort, after: position, limit: limit,
                                            examining: examining)
        var hits: [SearchHit] = []
        hits.reserveCapacity(limit)
        func read(_ query: SearchListQuery, limit: Int) throws {
            var arguments = query.arguments
            arguments[arguments.count - 1] = .int(limit)
            trace?(query.sql, arguments)
            try connection.forEach(query.sql, arguments) { row in
                hits.append(SearchHit(product: try ProductRow.decode(row), key: row.int64(ProductRow.columnCount)))
            }
        }
        /// Where `part`'s walk stopped, when it examined all it may: its last examined listing.
        func stop(of part: SearchListQuery.Walked) throws -> CursorPosition? {
            trace?(part.lastExamined.sql, part.lastExamined.arguments)
            return try connection.queryOne(part.lastExamined.sql, part.lastExamined.arguments) {
                CursorPosition(sortKey: $0.int64(0), id: $0.int64(1))
            }
        }
        if let ties = walk.ties {
            try read(ties.page, limit: limit)
            guard hits.count < limit else { return SearchPage(hits: hits) }
            if let stopped = try stop(of: ties) { return SearchPage(hits: hits, walkedTo: stopped) }
        }
        let tiedCount = hits.count
        try read(walk.rest.page, limit: limit - tiedCount)
        let stopped = hits.count < limit ? try stop(of: walk.rest) : nil
        guard tiedCount > 0 else { return SearchPage(hits: hits, walkedTo: stopped) }
        let tied = Set(hits[..<tiedCount].map(\.product.id))
        return SearchPage(hits: Array(hits[..<tiedCount]) + hits[tiedCount...].filter { !tied.contains($0.product.id) }, walkedTo: stopped)
    }
}
