import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The audit log in the `audit_log` table. Times are stored as Unix milliseconds.
package struct SQLAuditLog<Database: SQLDatabase>: AuditLog {
    private let database: Database

    package init(database: Database) { self.database = database }

    @discardableResult
    package func record(_ entry: AuditEntry) async throws(KeyCatError) -> AuditEntry {
        try await storage { try await database.write { try AuditLogTable.insert(entry, on: $0) } }
    }

    package func recent(limit: Int) async throws(KeyCatError) -> [AuditEntry] {
        try await entries(matching: AuditFilter(), after: nil, limit: limit)
    }

    /// At most 10,000 entries go in one transaction (by `audit_log_by_time`): the first prune of
    /// a log kept for years may meet millions, and one transaction of them would hold SQLite's
    /// writer, checkouts included, for as long as it ran.
    package func prune(before date: Date, at now: Date) async throws(KeyCatError) -> Int {
        try await prune(before: date, at: now, batch: 10_000)
    }

    /// ``prune(before:at:)`` at most `batch` entries a transaction.
    package func prune(before date: Date, at now: Date, batch: Int) async throws(KeyCatError) -> Int {
        var pruned = 0
        while true {
            let deleted = try await storage {
                try await database.write { connection in
                    try connection.run("""
                        DELETE FROM audit_log WHERE id IN (
                            SELECT id FROM audit_log WHERE created_at < ? ORDER BY created_at, id LIMIT ?)
                        """, [StoredTime.value(date), .int(batch)])
                }
            }
            pruned += deleted
            if deleted < batch { break }
        }
        if pruned > 0 {
            try await record(AuditEntry(actor: "system", action: "audit.prune", target: "audit_log",
                                        detail: "\(pruned) entries recorded before \(date.ISO8601Format())", at: now))
        }
        return pruned
    }

    /// Builds the `WHERE` from the fields given, so each combination is its own cached statement
    /// and the index on the field given (`audit_log_by_actor`, `_by_action`, `_by_target`, else
    /// `audit_log_by_time`) is walked newest first.
    package func entries(matching filter: AuditFilter, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        for (column, value) in [("actor", filter.actor), ("action", filter.action), ("target", filter.target)] {
            if let value {
                conditions.append("\(column) = ?")
                arguments.append(.text(value))
            }
        }
        if let since = filter.since {
            conditions.append("created_at >= ?")
            arguments.append(StoredTime.value(since))
        }
        if let position {
            conditions.append("(created_at, id) < (?, ?)")
            arguments += [.integer(position.sortKey), .integer(position.id)]
        }
        let clause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await storage {
            try await database.readStatement { connection in
                try connection.query(
                    "SELECT id, actor, action, target, detail, created_at FROM audit_log \(clause) ORDER BY created_at DESC, id DESC LIMIT ?",
                    arguments + [.int(limit)]
                ) { row in
                    AuditEntry(
                        id: row.int64(0), actor: row.string(1), action: row.string(2),
                        target: row.string(3), detail: row.string(4), at: StoredTime.date(row.int64(5)))
                }
            }
        }
    }
}

/// The `audit_log` rows other repositories write inside their own transactions.
package enum AuditLogTable {
    /// Records `entry` on a connection already inside a transaction, so an action and its audit
    /// entry commit or roll back together.
    @discardableResult
    package static func insert(_ entry: AuditEntry, on connection: some SQLConnection) throws -> AuditEntry {
        var recorded = entry
        recorded.id = try connection.insertReturningID(insertSQL, values(entry))
        return recorded
    }

    /// The statement that records `entry`, for a batch (the entry's id is not read back).
    package static func statement<Row>(_ entry: AuditEntry) -> SQLStatement<Row> {
        .run(insertSQL, values(entry))
    }

    private static let insertSQL = "INSERT INTO audit_log (actor, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?)"

    private static func values(_ entry: AuditEntry) -> [SQLValue] {
        [.text(entry.actor), .text(entry.action), .text(entry.target), .text(entry.detail), StoredTime.value(entry.at)]
    }
}
