import KeyCatDomain
import KeyCatInfrastructure
import Synchronization

/// The SQL of one product list page: the filters as bound parameters (never spliced text), and
/// an `ORDER BY` that an index of ``CatalogSchema`` serves without a sort step.
///
/// After a cursor the page is read in two index seeks, because SQLite (as of 3.40) seeks a
/// row-value range `(key, id) < (?, ?)` on the key alone and then walks every row that shares it —
/// thousands when many listings share a price or have no reviews yet. So ``ties`` reads the rows
/// with the cursor's key and an id beyond it (a seek on both columns), and ``rest`` the rows with
/// a key beyond it; the page is `ties` then `rest`, cut to the limit.
struct ProductListQuery {
    /// One statement and its arguments, the limit last.
    struct Part {
        var sql: String
        var arguments: [SQLValue]
    }

    /// The rows sharing the cursor's sort key, beyond its id; nil on the first page.
    private(set) var ties: Part?
    /// The rows beyond the cursor's sort key (all rows on the first page).
    private(set) var rest: Part

    /// - Precondition: no tag: a tag's list is a search of its group (``SearchExecution/hits(tagged:filter:sort:after:limit:windowBudget:on:trace:)``),
    ///   which reads a rare tag's postings rather than the whole catalog.
    init(filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) {
        precondition(filter.tag == nil, "a tag's list is read by SearchExecution.hits(tagged:)")
        // The SQL depends only on which filters are set, the sort and whether there is a cursor:
        // it is built once per such shape and cached, so a list call only gathers its arguments.
        var shape = ProductSort.allCases.firstIndex(of: sort)! << 1 | (position == nil ? 0 : 1)
        var arguments: [SQLValue] = []
        func add(_ bit: Int, _ value: SQLValue?) {
            guard let value else { return }
            shape |= 1 << (bit + 4)
            arguments.append(value)
        }
        add(0, filter.category.map { .text($0.rawValue) })
        add(1, filter.sellerID.map { .integer($0.rawValue) })
        add(2, filter.kind.map { .text($0.rawValue) })
        add(3, filter.minimumPrice.map { .integer($0.won) })
        add(4, filter.maximumPrice.map { .integer($0.won) })
        add(5, filter.switchType.map { .text($0.rawValue) })
        add(6, filter.layout.map { .text($0.rawValue) })
        add(7, filter.connection.map { .text($0.rawValue) })
        add(8, filter.hotSwap.map { .text(($0 ? KeyboardSpec.PCB.hotSwap : .soldered).rawValue) })
        let sql = Self.cache.withLock { cache in
            if let cached = cache[shape] { return cached }
            let built = Self.sql(shape: shape, sort: sort)
            cache[shape] = built
            return built
        }
        guard let position else {
            rest = Part(sql: sql.rest, arguments: arguments + [.int(limit)])
            return
        }
        ties = Part(sql: sql.ties, arguments: arguments + [.integer(position.sortKey), .integer(position.id), .int(limit)])
        rest = Part(sql: sql.rest, arguments: arguments + [.integer(position.sortKey), .int(limit)])
    }

    private static let cache = Mutex<[Int: (ties: String, rest: String)]>([:])

    /// The two statements for a shape: bit 0 says a cursor is given, bits 1–3 the sort, bits 4…
    /// which filters are set, in the order their arguments are bound.
    private static func sql(shape: Int, sort: ProductSort) -> (ties: String, rest: String) {
        // Under a price sort the bounds narrow the index range; under any other sort the unary
        // `+` keeps SQLite from picking the price index and sorting its result in memory.
        let price = sort == .priceAscending || sort == .priceDescending ? "price" : "+price"
        let filters = ["category = ?", "seller_id = ?", "kind = ?", "\(price) >= ?", "\(price) <= ?",
                       "spec_switch_type = ?", "spec_layout = ?", "spec_connection = ?", "spec_pcb = ?"]
        var conditions = ["listed = 1"]
        for (bit, condition) in filters.enumerated() where shape & (1 << (bit + 4)) != 0 {
            conditions.append(condition)
        }
        let key = column(for: sort)
        let ascending = sort == .priceAscending
        let direction = ascending ? "ASC" : "DESC"
        let beyond = ascending ? ">" : "<"
        let select = "SELECT \(ProductRow.columns) FROM products WHERE \(conditions.joined(separator: " AND "))"
        guard shape & 1 == 1 else {
            return ("", "\(select) ORDER BY \(key) \(direction), id \(direction) LIMIT ?")
        }
        return ("\(select) AND \(key) = ? AND id \(beyond) ? ORDER BY id \(direction) LIMIT ?",
                "\(select) AND \(key) \(beyond) ? ORDER BY \(key) \(direction), id \(direction) LIMIT ?")
    }

    /// Drops the rows that ``rest`` read again after ``ties`` (the first `tiedCount` of `rows`)
    /// had them: a listing whose sort key changed between the two statements. The ties keep it.
    ///
    /// There is at most a page of ties, so a linear look beats hashing; and the rows are copied
    /// only when one did repeat, which is rare, since copying a page of `Product`s retains every
    /// string in it (5 µs of a 50 µs page, `keycat-bench --only catalog`).
    static func dropRepeats<Row: Identifiable>(from rows: inout [Row], tiedCount: Int) {
        let tied = rows[..<tiedCount].lazy.map(\.id)
        guard rows[tiedCount...].contains(where: { tied.contains($0.id) }) else { return }
        rows = Array(rows[..<tiedCount]) + rows[tiedCount...].filter { !tied.contains($0.id) }
    }

    /// The statements to plan-check, in the order they run.
    var parts: [Part] { (ties.map { [$0] } ?? []) + [rest] }

    /// The column each sort orders by.
    static func column(for sort: ProductSort) -> String {
        switch sort {
        case .newest: "created_at"
        case .priceAscending, .priceDescending: "price"
        case .rating: "rating_score"
        case .popular: "bookmark_count"
        // Only a search ranks by relevance (``SearchListQuery``); without a text it is refused.
        case .relevance: "created_at"
        }
    }
}
