import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// A listing's writes as one transaction's statements: its insert and its edit, each with its
/// ledger movement, audit entry, event and search entries.
extension ProductRow {
    /// Inserts on a connection already in a transaction (the seed loads many per transaction),
    /// with the listing's initial stock as its first ledger movement and, unless
    /// `indexingSearch` is false, its search entries: a bulk load writes those for many listings
    /// at once (``SearchIndex/Bulk``), and the benchmark measures a write without them.
    package static func insert(
        _ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, actor: String = "system",
        indexingSearch: Bool = true, on connection: some SQLConnection
    ) throws -> Product {
        let (product, rest) = try beginInsert(draft, sellerID: sellerID, images: images, at: now, actor: actor,
                                              indexingSearch: indexingSearch, on: connection)
        try connection.batch(rest)
        return product
    }

    /// An insert's first step, run here, and the statements that finish it, for one batch the
    /// caller may add to (its audit entry, its event). The step is the listing's row, one round
    /// trip on Postgres for its id; what is left is the initial stock's ledger movement and,
    /// unless `indexingSearch` is false, the search entries
    /// (``SearchIndex/statements(indexing:_:listed:previous:postings:created:on:)``). A new listing has
    /// no document to read first, so they are one round trip whatever its words.
    ///
    /// - Returns: the new listing, and the statements left to run.
    ///
    /// With `sellerMayList`, the row is written only while its seller may list (a seller, neither
    /// suspended nor withdrawn), read in the same statement, and on Postgres their account's row
    /// is locked for share until the listing commits: a suspension, withdrawal or demotion
    /// committing meanwhile either waits for the listing and then takes it out with the seller's
    /// others, or is seen first and refuses it.
    ///
    /// - Throws: `notFound` (the seller) when `sellerMayList` and the seller may not list.
    package static func beginInsert<Connection: SQLConnection>(
        _ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, actor: String,
        indexingSearch: Bool = true, sellerMayList: Bool = false, on connection: Connection
    ) throws -> (product: Product, rest: [SQLStatement<Connection.Row>]) {
        let millis = StoredTime.milliseconds(now)
        let arguments = insertArguments(draft, sellerID: sellerID, images: images, millis: millis)
        let id = ProductID(try sellerMayList
            ? connection.insertReturningID(insertForSellerSQL + connection.dialect.locking(.share), arguments + [.integer(sellerID.rawValue)])
            : connection.insertReturningID(insertSQL, arguments))
        // As the use case's own look at the seller answers (``CatalogService/create``).
        guard id.rawValue > 0 else { throw KeyCatError.notFound("seller", sellerID) }
        let product = Product(
            id: id, sellerID: sellerID, kind: draft.kind,
            category: draft.category, title: draft.title, content: draft.content,
            pricing: draft.pricing, delivery: draft.delivery, stock: draft.stock, images: images,
            spec: draft.spec, createdAt: StoredTime.date(millis), updatedAt: StoredTime.date(millis), tags: draft.tags)
        var rest: [SQLStatement<Connection.Row>] = []
        if product.stock != 0 {
            rest.append(StockLedger.statement(.listed, change: product.stock, product: product.id, actor: actor,
                                              at: product.createdAt))
        }
        if indexingSearch {
            rest += SearchIndex.statements(indexing: product.id, SearchIndex.Entry(product), listed: product.isListed,
                                           previous: nil, created: true, on: connection)
        }
        return (product, rest)
    }

    /// A row when an order of the listing was ever paid, whatever became of it since.
    static let paidForSQL = """
        SELECT 1 FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE l.product_id = ? AND o.paid_at IS NOT NULL LIMIT 1
        """

    /// Locks, for share, the orders of the listing (`?`) awaiting payment: what an edit that
    /// must not follow a payment takes on Postgres besides reading ``paidForSQL``. A payment is
    /// a `READ COMMITTED` write (``SQLOrderRepository/apply(_:at:)``), which the edit's
    /// serializable snapshot does not watch: one committing after that snapshot was taken would
    /// go unseen. With the lock, a payment committed since makes the edit fail to serialize
    /// (it runs again, and sees the payment), one in flight is waited for first, and one after
    /// waits for the edit, which then came first. SQLite's one writer needs none.
    static func awaitingPaymentSQL(_ dialect: SQLDialect) -> String {
        """
        SELECT o.id FROM orders o WHERE o.status = 'awaiting_payment'
        AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.product_id = ?)\(dialect.locking(.share))
        """
    }

    /// Writes a seller's edit of a live listing on a connection already in a transaction, with
    /// a new stock recorded as an adjustment of the difference, and its search entries
    /// re-indexed when its text, tags or spec changed (unless `indexingSearch` is false: what
    /// the benchmark measures an edit's search entries against). Returns the listing as it was
    /// before.
    ///
    /// - Throws: not found when the listing is missing or deleted, a version conflict when it
    ///   changed since `expectedVersion`.
    package static func update(
        _ product: Product, expectedVersion: Int, at now: Date, actor: String, indexingSearch: Bool = true,
        on connection: some SQLConnection
    ) throws -> Product {
        let (before, rest) = try beginUpdate(product, expectedVersion: expectedVersion, at: now, actor: actor,
                                             indexingSearch: indexingSearch, on: connection)
        try connection.batch(rest)
        return before
    }

    /// An edit's first two steps, run here, and the statements that finish it, for one batch
    /// the caller may add to (its audit entry, its read-back, its event). On Postgres each step
    /// is a round trip: the listing as it was, read in the edit's transaction (a new stock is
    /// recorded as an adjustment of the difference); then the `UPDATE`, with the listing's
    /// search document read beside it when its text, tags or spec change. What is left is the
    /// stock's ledger movement and the re-index (``SearchIndex/statements(indexing:_:listed:previous:postings:created:on:)``).
    ///
    /// - Returns: the listing before the edit, and the statements left to run.
    /// - Throws: not found when the listing is missing or deleted, a version conflict when it
    ///   changed since `expectedVersion`.
    package static func beginUpdate<Connection: SQLConnection>(
        _ product: Product, expectedVersion: Int, at now: Date, actor: String, indexingSearch: Bool = true,
        on connection: Connection
    ) throws -> (before: Product, rest: [SQLStatement<Connection.Row>]) {
        let before = try find(product.id, on: connection).flatMap { $0.version == expectedVersion && $0.deletedAt == nil ? $0 : nil }
        let reindexing = indexingSearch && before.map {
            ($0.title, $0.content, $0.tags, $0.spec) != (product.title, product.content, product.tags, product.spec)
        } ?? false
        var document: SearchIndex.Document?
        let arguments = updateArguments(product, expectedVersion: expectedVersion, millis: StoredTime.milliseconds(now))
        // A re-index takes whether the listing is listed from the UPDATE itself, which waited for
        // any suspension or reinstatement holding the row: `product` was read before the
        // transaction, and a suspension moves no version (until 2026-12-01 an edit racing one
        // counted a hidden listing's words as suggestible, or a listed one's as hidden).
        var listed = product.isListed
        let first: [SQLStatement<Connection.Row>] = reindexing
            ? [.query(updateReturningListedSQL, arguments) { listed = $0.bool(0) },
               SearchIndex.documentQuery(of: product.id) { document = $0 }]
            : [.run(updateSQL, arguments)]
        let changed = try connection.batch(first)[0]
        guard changed == 1, let before else {
            // Missing or deleted is not found; only a live listing can be stale.
            guard let current = try find(product.id, on: connection), current.deletedAt == nil else {
                throw KeyCatError.notFound("product", product.id)
            }
            throw KeyCatError(.versionConflict, "product \(product.id) changed since version \(expectedVersion); read it again")
        }
        var rest: [SQLStatement<Connection.Row>] = []
        if product.stock != before.stock {
            rest.append(StockLedger.statement(.adjustment, change: product.stock - before.stock, product: product.id,
                                              actor: actor, reason: "stock set to \(product.stock)", at: now))
        }
        if reindexing {
            rest += SearchIndex.statements(indexing: product.id, SearchIndex.Entry(product), listed: listed,
                                           previous: document, on: connection)
        }
        return (before, rest)
    }
}
