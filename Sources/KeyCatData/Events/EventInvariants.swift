import KeyCatDomain
import KeyCatInfrastructure

/// What `db check` proves of the event log (``EventSchema``):
///
/// - every event is of a type KeyCat writes and concerns an entity that exists — a review's
///   events excepted, as a removed review's row is deleted, but a review created and since
///   deleted must have its `review.removed`;
/// - no two events of one entity claim to be its creation (`order.created`, `product.created`;
///   a deleted review's id may be given again on SQLite).
enum EventInvariants {
    /// The table each kind of entity lives in.
    private static let tables: [EventAggregate.Kind: String] = [
        .order: "orders", .shipment: "shipments", .product: "products", .settlement: "settlements", .user: "users",
        .sellerApplication: "seller_applications",
    ]

    static func problems(on connection: some SQLConnection) throws -> [String] {
        guard try connection.hasTable("events") else { return [] }
        let known = EventType.all.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        var problems = try connection.query("""
            SELECT id, type FROM events WHERE type NOT IN (\(known)) ORDER BY position LIMIT 20
            """, []) { "event \($0.string(0)): unknown type \($0.string(1))" }
        for (kind, table) in tables.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            problems += try connection.query("""
                SELECT e.id, e.type, e.aggregate_id FROM events e
                WHERE e.aggregate_kind = ? AND NOT EXISTS (SELECT 1 FROM \(table) t WHERE t.id = e.aggregate_id)
                ORDER BY e.position LIMIT 20
                """, [.text(kind.rawValue)]) { "event \($0.string(0)) (\($0.string(1))): \(kind.rawValue) \($0.int64(2)) does not exist" }
        }
        problems += try connection.query("""
            SELECT e.id, e.aggregate_id FROM events e
            WHERE e.type = 'review.created' AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.id = e.aggregate_id)
              AND NOT EXISTS (SELECT 1 FROM events x WHERE x.type = 'review.removed' AND x.aggregate_kind = 'review'
                              AND x.aggregate_id = e.aggregate_id)
            ORDER BY e.position LIMIT 20
            """, []) { "event \($0.string(0)): review \($0.int64(1)) is gone, and no review.removed says so" }
        problems += try connection.query("""
            SELECT type, aggregate_id, count(*) FROM events
            WHERE type IN ('order.created', 'product.created')
            GROUP BY type, aggregate_id HAVING count(*) > 1 ORDER BY type, aggregate_id LIMIT 20
            """, []) { "\($0.string(0)) was written \($0.int64(2)) times for \($0.int64(1))" }
        return problems
    }
}
