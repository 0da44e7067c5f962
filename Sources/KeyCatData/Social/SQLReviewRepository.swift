import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Reviews in the `reviews` table (see ``SocialSchema``), with the product's `rating_count`,
/// `rating_sum` and `rating_score` changed in the same write transaction (with the review's
/// event), so the `rating` sort never reads a half-applied review. Times are Unix milliseconds.
package struct SQLReviewRepository<Database: SQLDatabase>: ReviewRepository {
    private let database: Database
    /// Whether an insert checks, in its own transaction, that a line still supports the review
    /// (``SQLPurchaseHistory/supportingLine(buyer:product:confirmed:)``).
    private let checksPurchase: Bool

    /// - Parameter checksPurchase: true when the shop's purchases are this database's orders
    ///   (``SQLPurchaseHistory``): the insert then asks again, in its transaction, what the
    ///   service asked before it, so a refund committing between the two cannot leave a review
    ///   its own transaction never saw (on SQLite the one writer orders them; on Postgres both
    ///   are serializable, and one of the two is retried).
    package init(database: Database, checksPurchase: Bool = false) {
        self.database = database
        self.checksPurchase = checksPurchase
    }

    private static var columns: String {
        """
        reviews.id, reviews.product_id, reviews.author_id, users.nick, reviews.rating, reviews.content, \
        reviews.created_at
        """
    }

    package func insert(_ form: ReviewForm, product: ProductID, author: UserID, at now: Date) async throws(KeyCatError) -> Review {
        let millis = StoredTime.milliseconds(now)
        return try await storage {
            try await database.write { connection in
                // The product's row is locked as its rating's update will, before the review's
                // foreign key locks it more weakly (``SQLDialect/RowLock/noKeyUpdate``).
                guard try SocialRows.isLiveProduct(product, locking: .noKeyUpdate, on: connection) else {
                    throw KeyCatError.notFound("product", product)
                }
                guard let nick = try SocialRows.liveNick(author, locking: .share, on: connection) else {
                    throw KeyCatError.notFound("user", author)
                }
                if checksPurchase, try !SQLPurchaseHistory<Database>.hasSupportingLine(buyer: author, product: product, on: connection) {
                    throw ReviewService.unsupported(product)
                }
                if try connection.queryOne("SELECT 1 FROM review_removals WHERE product_id = ? AND author_id = ?",
                                           [.integer(product.rawValue), .integer(author.rawValue)], { _ in true }) != nil {
                    throw ReviewService.removedByOperator(product)
                }
                let id = ReviewID(try connection.insertReturningID(
                    "INSERT INTO reviews (product_id, author_id, rating, content, created_at) VALUES (?, ?, ?, ?, ?)",
                    [.integer(product.rawValue), .integer(author.rawValue), .int(form.rating), .text(form.content),
                     .integer(millis)]))
                try Self.adjustRating(of: product, count: 1, sum: form.rating, on: connection)
                try EventOutbox.append(DomainEvent(.reviewCreated, at: now, aggregate: EventAggregate(.review, id.rawValue), data: [
                    "review_id": .integer(id.rawValue), "product_id": .integer(product.rawValue),
                    "author_id": .integer(author.rawValue), "rating": .integer(Int64(form.rating)),
                ]), on: connection)
                return Review(id: id, productID: product, authorID: author, authorNick: nick, rating: form.rating,
                              content: form.content, createdAt: StoredTime.date(millis))
            }
        }
    }

    package func find(_ id: ReviewID) async throws(KeyCatError) -> Review? {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT \(Self.columns) FROM reviews JOIN users ON users.id = reviews.author_id WHERE reviews.id = ?",
                    [.integer(id.rawValue)], Self.decode)
            }
        }
    }

    package func delete(_ id: ReviewID, audit: AuditEntry?, at now: Date) async throws(KeyCatError) {
        try await storage {
            try await database.write { connection in
                // `query` steps the statement to its end, so the delete is complete before the
                // counters move.
                guard let (product, rating, author) = try connection.query(
                    "DELETE FROM reviews WHERE id = ? RETURNING product_id, rating, author_id", [.integer(id.rawValue)],
                    { row in (ProductID(row.int64(0)), row.int(1), row.int64(2)) }).first
                else { throw KeyCatError.notFound("review", id) }
                try Self.adjustRating(of: product, count: -1, sum: -rating, on: connection)
                if let audit {
                    // An operator's removal stands: the author does not post the review again.
                    try AuditLogTable.insert(audit, on: connection)
                    try connection.run("""
                        INSERT INTO review_removals (product_id, author_id, removed_at) VALUES (?, ?, ?)
                        ON CONFLICT (product_id, author_id) DO UPDATE SET removed_at = excluded.removed_at
                        """, [.integer(product.rawValue), .integer(author), StoredTime.value(now)])
                }
                try EventOutbox.append(Self.removedEvent(id.rawValue, product: product, rating: rating,
                                                         cause: audit == nil ? "deleted" : "removed", at: now), on: connection)
            }
        }
    }

    package func list(product: ProductID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Review] {
        try await list(where: .product, equals: product.rawValue, after: position, limit: limit)
    }

    package func list(author: UserID, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Review] {
        try await list(where: .author, equals: author.rawValue, after: position, limit: limit)
    }

    /// Newest first over `reviews_by_product` or `reviews_by_author`.
    private func list(where column: ListColumn, equals value: Int64, after position: CursorPosition?, limit: Int)
        async throws(KeyCatError) -> [Review]
    {
        let (sql, keyset) = Self.listSQL(where: column, after: position)
        return try await storage {
            try await database.read { connection in
                try connection.query(sql, [.integer(value)] + keyset + [.int(limit)], Self.decode)
            }
        }
    }

    /// Which column a review list filters on.
    enum ListColumn: String, CaseIterable {
        case product = "reviews.product_id"
        case author = "reviews.author_id"
    }

    /// The SQL of one page (parameters: the filter value, the keyset's, the limit) and the
    /// keyset's arguments.
    static func listSQL(where column: ListColumn, after position: CursorPosition?) -> (String, [SQLValue]) {
        let keyset = SocialRows.keyset("reviews", after: position)
        return ("""
            SELECT \(columns) FROM reviews JOIN users ON users.id = reviews.author_id
            WHERE \(column.rawValue) = ?\(keyset.condition)
            ORDER BY reviews.created_at DESC, reviews.id DESC LIMIT ?
            """, keyset.arguments)
    }

    /// Moves a product's rating counters by one review. `rating_score` is recomputed from the
    /// new count and sum (SQLite evaluates every right-hand side against the old row), as
    /// `RatingScore.score` computes it: thousandths of a star, 0 without reviews.
    /// `review.removed`: its author deleted it (`deleted`), an operator removed it (`removed`),
    /// or a refund took away the purchase it stood on (`refunded`).
    static func removedEvent(_ id: Int64, product: ProductID, rating: Int, cause: String, at now: Date) -> DomainEvent {
        DomainEvent(.reviewRemoved, at: now, aggregate: EventAggregate(.review, id), data: [
            "review_id": .integer(id), "product_id": .integer(product.rawValue), "rating": .integer(Int64(rating)),
            "cause": .string(cause),
        ])
    }

    static func adjustRating(of product: ProductID, count: Int, sum: Int, on connection: some SQLConnection) throws {
        try connection.run(
            """
            UPDATE products SET
                rating_count = rating_count + ?1,
                rating_sum   = rating_sum + ?2,
                rating_score = CASE WHEN rating_count + ?1 = 0 THEN 0
                                    ELSE (rating_sum + ?2) * 1000 / (rating_count + ?1) END
            WHERE id = ?3
            """,
            [.int(count), .int(sum), .integer(product.rawValue)])
    }

    private static func decode(_ row: some SQLRow) throws -> Review {
        Review(id: ReviewID(row.int64(0)), productID: ProductID(row.int64(1)), authorID: UserID(row.int64(2)),
               authorNick: row.string(3), rating: row.int(4), content: row.string(5),
               createdAt: StoredTime.date(row.int64(6)))
    }
}
