import KeyCatDomain
import KeyCatInfrastructure

/// The SQL of one product list page: the filters as bound parameters (never spliced text), the
/// keyset condition `(key, id) > / < (?, ?)` after the cursor, and an `ORDER BY` that an index
/// of ``CatalogSchema`` serves without a sort step.
struct ProductListQuery {
    private(set) var sql: String
    private(set) var arguments: [SQLiteValue]

    init(filter: ProductFilter, sort: ProductSort, after position: CursorPosition?, limit: Int) {
        var conditions = ["listed = 1"]
        var arguments: [SQLiteValue] = []
        func add(_ condition: String, _ value: SQLiteValue) {
            conditions.append(condition)
            arguments.append(value)
        }
        if let category = filter.category { add("category = ?", .text(category.rawValue)) }
        if let seller = filter.sellerID { add("seller_id = ?", .integer(seller.rawValue)) }
        if let kind = filter.kind { add("kind = ?", .text(kind.rawValue)) }
        // Under a price sort the bounds narrow the index range; under any other sort the unary
        // `+` keeps SQLite from picking the price index and sorting its result in memory.
        let price = sort == .priceAscending || sort == .priceDescending ? "price" : "+price"
        if let minimum = filter.minimumPrice { add("\(price) >= ?", .integer(minimum.won)) }
        if let maximum = filter.maximumPrice { add("\(price) <= ?", .integer(maximum.won)) }
        if let switchType = filter.switchType { add("spec_switch_type = ?", .text(switchType.rawValue)) }
        if let layout = filter.layout { add("spec_layout = ?", .text(layout.rawValue)) }
        if let connection = filter.connection { add("spec_connection = ?", .text(connection.rawValue)) }
        if let hotSwap = filter.hotSwap {
            add("spec_pcb = ?", .text((hotSwap ? KeyboardSpec.PCB.hotSwap : .soldered).rawValue))
        }

        let key = Self.column(for: sort)
        let ascending = sort == .priceAscending
        if let position {
            add("(\(key), id) \(ascending ? ">" : "<") (?, ?)", .integer(position.sortKey))
            arguments.append(.integer(position.id))
        }
        let direction = ascending ? "ASC" : "DESC"
        self.sql = """
            SELECT \(ProductRow.columns) FROM products
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(key) \(direction), id \(direction)
            LIMIT ?
            """
        arguments.append(.int(limit))
        self.arguments = arguments
    }

    /// The column each sort orders by.
    static func column(for sort: ProductSort) -> String {
        switch sort {
        case .newest: "created_at"
        case .priceAscending, .priceDescending: "price"
        case .rating: "rating_score"
        case .popular: "bookmark_count"
        }
    }
}
