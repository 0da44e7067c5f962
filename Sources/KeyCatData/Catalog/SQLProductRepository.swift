import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Listings in the `products` table (see ``CatalogSchema``). Times are Unix milliseconds. The
/// writes are here; the reads (one listing, a page, a search) are in `SQLProductRepository+Reads.swift`.
package struct SQLProductRepository<Database: SQLDatabase>: ProductRepository {
    let database: Database
    /// ``SearchWindow/budget``, smaller in tests that walk windows of a few listings.
    let searchWindowBudget: Int

    package init(database: Database, searchWindowBudget: Int = SearchWindow.budget) {
        self.database = database
        self.searchWindowBudget = searchWindowBudget
    }

    package func insert(
        _ draft: ProductDraft, sellerID: UserID, images: [ProductImage], at now: Date, audit: AuditEntry?
    ) async throws(KeyCatError) -> Product {
        try await storage {
            // READ COMMITTED on Postgres: the listing's search entries add to vocabulary rows that
            // other listings share (키보드), and under SERIALIZABLE concurrent creates failed each
            // other's commits; here each upsert waits for the row's lock instead (taken in key
            // order, so never in a cycle). The new row reads nothing another write could change.
            // Three round trips on Postgres: the row, for its id; its ledger movement, search
            // entries, audit entry and event; the COMMIT. The search entries' counts may wait for
            // a row another write holds (키보드), so they do not travel with the COMMIT, whose
            // exchange cannot be cancelled and whose outcome is unknown if the connection drops.
            try await database.write(isolation: .readCommitted) { connection in
                let (product, rest) = try ProductRow.beginInsert(draft, sellerID: sellerID, images: images, at: now,
                                                                 actor: audit?.actor ?? "seller:\(sellerID)", sellerMayList: true,
                                                                 on: connection)
                var statements = rest
                if var audit {
                    audit.target = "product:\(product.id)"
                    statements.append(AuditLogTable.statement(audit))
                }
                statements += EventOutbox.statements([Self.event(.productCreated, product, at: now)], on: connection)
                try connection.batch(statements)
                return product
            }
        }
    }

    package func update(
        _ product: Product, expectedVersion: Int, unlessPaidFor refusal: KeyCatError? = nil, at now: Date, audit: AuditEntry?
    ) async throws(KeyCatError) -> Product {
        try await storage {
            // Four round trips on Postgres: the listing as it was; the UPDATE (with its search
            // document); its ledger movement, re-index, audit entry, read-back and, with a
            // refusal, whether it was ever paid for, and on Postgres a lock of its orders awaiting
            // payment (``ProductRow/awaitingPaymentSQL(_:)``); the event with the COMMIT (nothing
            // in that last exchange waits for another write's lock).
            try await database.write { connection in
                let (before, rest) = try ProductRow.beginUpdate(product, expectedVersion: expectedVersion, at: now,
                                                                actor: audit?.actor ?? "seller:\(product.sellerID)", on: connection)
                var statements = rest
                if let audit { statements.append(AuditLogTable.statement(audit)) }
                var read: Product?
                statements.append(ProductRow.findQuery(product.id) { read = $0 })
                var paidFor = false
                if refusal != nil {
                    statements.append(.query(ProductRow.paidForSQL, [.integer(product.id.rawValue)]) { _ in paidFor = true })
                    if !connection.dialect.hasOneWriter {
                        statements.append(.run(ProductRow.awaitingPaymentSQL(connection.dialect), [.integer(product.id.rawValue)]))
                    }
                }
                try connection.batch(statements)
                if paidFor, let refusal { throw refusal }
                guard let updated = read else { throw KeyCatError.notFound("product", product.id) }
                try connection.batch(EventOutbox.statements(
                    [Self.event(.productUpdated, updated, changed: Self.changedFields(before, updated), at: now)], on: connection),
                    endingTransaction: true)
                return updated
            }
        }
    }

    package func adjustStock(_ id: ProductID, by adjustment: StockAdjustment, at now: Date, audit: AuditEntry) async throws(KeyCatError) -> Product {
        try await storage {
            try await database.write { connection in
                let changed = try connection.run("""
                    UPDATE products SET stock = stock + ?, version = version + 1, updated_at = ?
                    WHERE id = ? AND deleted_at IS NULL AND stock + ? BETWEEN 0 AND 1000000
                    """, [.int(adjustment.change), StoredTime.value(now), .integer(id.rawValue), .int(adjustment.change)])
                guard changed == 1 else {
                    guard let current = try ProductRow.find(id, on: connection), current.deletedAt == nil else {
                        throw KeyCatError.notFound("product", id)
                    }
                    throw KeyCatError.validation(
                        "by", "stock would become \(current.stock + adjustment.change); it must stay between 0 and 1,000,000")
                }
                try StockLedger.record(.adjustment, change: adjustment.change, product: id, actor: audit.actor,
                                       reason: adjustment.reason, at: now, on: connection)
                try AuditLogTable.insert(audit, on: connection)
                guard let updated = try ProductRow.find(id, on: connection) else { throw KeyCatError.notFound("product", id) }
                // Stock reaching or leaving zero also writes its own event (a trigger: ``EventSchema``).
                try EventOutbox.append(Self.event(.productUpdated, updated, changed: ["stock"], at: now), on: connection)
                return updated
            }
        }
    }

    /// A listing's event: what a receiver shows or indexes (docs/events.md), `changed` naming the
    /// fields an update changed.
    private static func event(_ type: EventType, _ product: Product, changed: [String]? = nil, at now: Date) -> DomainEvent {
        var data: EventData = [
            "product_id": .integer(product.id.rawValue), "seller_id": .integer(product.sellerID.rawValue),
            "title": .string(product.title), "category": .string(product.category.rawValue), "kind": .string(product.kind.rawValue),
            "price": .won(product.pricing.salePrice), "stock": .integer(Int64(product.stock)), "version": .integer(Int64(product.version)),
        ]
        if let changed { data.fields["changed"] = .list(changed.map(EventValue.string)) }
        return DomainEvent(type, at: now, aggregate: EventAggregate(.product, product.id.rawValue), data: data)
    }

    /// The names (as the API spells them) of the fields an update changed.
    private static func changedFields(_ before: Product, _ after: Product) -> [String] {
        var changed: [String] = []
        if before.title != after.title { changed.append("title") }
        if before.content != after.content { changed.append("content") }
        if before.kind != after.kind { changed.append("kind") }
        if before.category != after.category { changed.append("category") }
        if before.pricing != after.pricing { changed.append("pricing") }
        if before.delivery != after.delivery { changed.append("delivery") }
        if before.stock != after.stock { changed.append("stock") }
        if before.spec != after.spec { changed.append("spec") }
        if before.tags != after.tags { changed.append("tags") }
        return changed
    }

    package func stockMovements(of id: ProductID, after: Int64?, limit: Int) async throws(KeyCatError) -> [StockMovement] {
        try await storage { try await database.read { try StockLedger.movements(of: id, after: after, limit: limit, on: $0) } }
    }

    package func setImages(_ images: [ProductImage], of id: ProductID, expectedVersion: Int, at now: Date, audit: AuditEntry?)
        async throws(KeyCatError) -> Product
    {
        try await storage {
            try await database.write { connection in
                let changed = try connection.run(
                    "UPDATE products SET images = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ? AND deleted_at IS NULL",
                    [.text(images.map(\.fileName).joined(separator: ",")), .integer(StoredTime.milliseconds(now)),
                     .integer(id.rawValue), .int(expectedVersion)])
                guard changed == 1 else {
                    guard let current = try ProductRow.find(id, on: connection), current.deletedAt == nil else {
                        throw KeyCatError.notFound("product", id)
                    }
                    throw KeyCatError(.versionConflict, "product \(id) changed since version \(expectedVersion); read it again")
                }
                if let audit { try AuditLogTable.insert(audit, on: connection) }
                guard let updated = try ProductRow.find(id, on: connection) else { throw KeyCatError.notFound("product", id) }
                try EventOutbox.append(Self.event(.productUpdated, updated, changed: ["images"], at: now), on: connection)
                return updated
            }
        }
    }

    package func delete(_ id: ProductID, expectedVersion: Int?, at now: Date, audit: AuditEntry?) async throws(KeyCatError) {
        let condition = expectedVersion == nil ? "" : " AND version = ?"
        try await storage {
            // READ COMMITTED, as ``insert``: the conditional UPDATE decides, the rest follows it.
            // Three round trips on Postgres: the UPDATE with the listing's search document; its
            // search entries removed, its audit entry and event; the COMMIT (as ``insert``).
            try await database.write(isolation: .readCommitted) { connection in
                var document: SearchIndex.Document?
                let changed = try connection.batch([
                    .run("UPDATE products SET deleted_at = ?, listed = 0, version = version + 1, updated_at = ? WHERE id = ? AND deleted_at IS NULL"
                            + condition,
                         [.integer(StoredTime.milliseconds(now)), .integer(StoredTime.milliseconds(now)), .integer(id.rawValue)]
                            + (expectedVersion.map { [.int($0)] } ?? [])),
                    SearchIndex.documentQuery(of: id) { document = $0 },
                ])[0]
                guard changed == 1 else {
                    // Not deleted: gone, or (with a version to match) changed since it was read.
                    if let expectedVersion, try ProductRow.find(id, on: connection)?.deletedAt == nil {
                        throw KeyCatError(.versionConflict, "product \(id) changed since version \(expectedVersion); read it again")
                    }
                    throw KeyCatError.notFound("product", id)
                }
                var statements = SearchIndex.removal(of: id, previous: document, on: connection)
                if let audit { statements.append(AuditLogTable.statement(audit)) }
                let event = DomainEvent(.productWithdrawn, at: now, aggregate: EventAggregate(.product, id.rawValue), data: [
                    "cause": .string(audit.map { $0.actor.hasPrefix("seller:") ? "seller" : "operator" } ?? "seller"),
                ])
                statements.append(EventOutbox.statement(event, reading: .withdrawnProduct, row: id.rawValue, on: connection))
                try connection.batch(statements)
            }
        }
    }

    /// Deletes every live listing of a seller who withdrew, in the withdrawal's transaction:
    /// withdrawal is for good, so the listings are not only taken out of the lists (as a
    /// suspension's are) but deleted, their search entries with them, and their images are
    /// swept the retention after, as any deleted listing's. Until 2026-12-01 they stayed, unlisted,
    /// with their postings: a seller could list two thousand listings of a common word and withdraw,
    /// and the word's window of newest postings (docs/search.md) held only their hidden listings,
    /// so a search for it by relevance came back empty; and their photos stayed public for ever.
    ///
    /// Locks as ``SearchIndex/recount(listingsOf:listed:on:)`` does: the listings in id order, then
    /// their documents in id order, then the words in key order. Each listing's
    /// `product.withdrawn` has the cause `account_withdrawn`.
    static func deleteListings(of sellerID: UserID, at now: Date, on connection: Database.Connection) throws {
        let millis = StoredTime.milliseconds(now)
        let ids = try connection.query("""
            UPDATE products SET deleted_at = ?, listed = 0, version = version + 1, updated_at = ? WHERE id IN (
                SELECT id FROM products WHERE seller_id = ? AND deleted_at IS NULL ORDER BY id\(connection.dialect.locking(.noKeyUpdate)))
            RETURNING id
            """, [.integer(millis), .integer(millis), .integer(sellerID.rawValue)]) { ProductID($0.int64(0)) }
        guard !ids.isEmpty else { return }
        var documents: [ProductID: SearchIndex.Document] = [:]
        try connection.forEach("""
            SELECT \(SearchIndex.documentColumns), d.product_id FROM search_documents d JOIN products p ON p.id = d.product_id
            WHERE p.seller_id = ? AND p.deleted_at = ? ORDER BY d.product_id\(connection.dialect.locking(.update, of: "d"))
            """, [.integer(sellerID.rawValue), .integer(millis)]) { row in
            documents[ProductID(row.int64(3))] = SearchIndex.decodeDocument(row)
        }
        var tally = VocabularyTally()
        var statements: [SQLStatement<Database.Connection.Row>] = []
        for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) {
            statements += SearchIndex.removal(of: id, previous: documents[id], counting: &tally, on: connection)
            statements.append(EventOutbox.statement(
                DomainEvent(.productWithdrawn, at: now, aggregate: EventAggregate(.product, id.rawValue), data: ["cause": "account_withdrawn"]),
                reading: .withdrawnProduct, row: id.rawValue, on: connection))
        }
        try connection.batch(statements + SearchIndex.vocabularyStatements(tally.moves), atMost: SearchIndex.statementsPerBatch)
    }

    package func sweepLapsedDiscounts(at now: Date) async throws(KeyCatError) -> (changed: Int, nextEnd: Date?) {
        let millis = StoredTime.milliseconds(now)
        return try await storage {
            try await database.write { connection in
                let lapsed = try connection.query("""
                    UPDATE products
                    SET price = regular_price, discount_ends_at = NULL, version = version + 1, updated_at = ?
                    WHERE discount_ends_at <= ?
                    RETURNING id
                    """, [.integer(millis), .integer(millis)]) { $0.int64(0) }
                let changed = lapsed.count
                // Each listing's price went back up: told as an edit of its pricing.
                try connection.batch(lapsed.map { id in
                    EventOutbox.statement(
                        DomainEvent(.productUpdated, at: now, aggregate: EventAggregate(.product, id), data: ["changed": ["pricing"]]),
                        reading: .product, row: id, on: connection)
                })
                let next = try connection.queryOne(
                    "SELECT min(discount_ends_at) FROM products WHERE discount_ends_at IS NOT NULL", []) { $0.optionalInt64(0) }
                return (changed, next.flatMap { $0 }.map(StoredTime.date))
            }
        }
    }
}

extension EventOutbox.RowReading {
    /// What a listing's event reads from its row, for the events written without the listing in
    /// hand (the same fields as ``SQLProductRepository/event(_:_:changed:at:)``'s).
    static let product = EventOutbox.RowReading([
        "product_id": "t.id", "seller_id": "t.seller_id", "title": "t.title", "category": "t.category", "kind": "t.kind",
        "price": "t.price", "stock": "t.stock", "version": "t.version",
    ], from: "products")

    /// What a withdrawn listing's event reads: which listing, whose, and what it was called.
    static let withdrawnProduct = EventOutbox.RowReading(["product_id": "t.id", "seller_id": "t.seller_id", "title": "t.title"],
                                                         from: "products")
}
