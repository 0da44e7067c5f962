import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The audit log in the `audit_log` table. Times are stored as Unix milliseconds.
package struct SQLiteAuditLog: AuditLog {
    private let database: SQLiteDatabase

    package init(database: SQLiteDatabase) { self.database = database }

    @discardableResult
    package func record(_ entry: AuditEntry) throws(KeyCatError) -> AuditEntry {
        try storage { try database.write { try Self.insert(entry, on: $0) } }
    }

    /// Records `entry` on a connection already inside a transaction, so an action and its audit
    /// entry commit or roll back together.
    @discardableResult
    package static func insert(_ entry: AuditEntry, on connection: SQLiteConnection) throws -> AuditEntry {
        try connection.run(
            "INSERT INTO audit_log (actor, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?)",
            [.text(entry.actor), .text(entry.action), .text(entry.target), .text(entry.detail),
             StoredTime.value(entry.at)])
        var recorded = entry
        recorded.id = connection.lastInsertRowID
        return recorded
    }

    package func recent(limit: Int) throws(KeyCatError) -> [AuditEntry] {
        try storage {
            try database.read { connection in
                try connection.query(
                    "SELECT id, actor, action, target, detail, created_at FROM audit_log ORDER BY created_at DESC, id DESC LIMIT ?",
                    [.int(limit)]
                ) { row in
                    AuditEntry(
                        id: row.int64(0), actor: row.string(1), action: row.string(2),
                        target: row.string(3), detail: row.string(4),
                        at: Date(timeIntervalSince1970: Double(row.int64(5)) / 1000))
                }
            }
        }
    }
}
