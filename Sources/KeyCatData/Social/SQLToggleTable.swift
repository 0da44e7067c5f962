import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// A table of toggles and the counters it keeps, written once for `bookmarks` and `follows` on
/// both stores: one row per (user, target) pair, unique, with its `created_at`; a row is added
/// with `ON CONFLICT DO NOTHING` and removed with `DELETE`, and the counters move by one in the
/// same transaction only when a row really came or went, so they always equal the rows, whatever
/// the order of concurrent toggles.
///
/// The table and column names are the code's own constants, never a caller's input.
struct SQLToggleTable<Database: SQLDatabase>: Sendable {
    /// A count kept beside the rows: `column` of the `table` row whose `id` is the toggle's user
    /// or its target.
    struct Counter: Sendable {
        enum Owner: Sendable { case user, target }

        var table: String
        var column: String
        var owner: Owner
    }

    private let database: Database
    private let counters: [(sql: String, owner: Counter.Owner)]
    private let insertSQL: String
    private let deleteSQL: String
    private let containsSQL: String

    /// - Parameters:
    ///   - table: the toggles' table, unique on (`user`, `target`).
    ///   - user: the column of the user who toggles (the bookmarker, the follower).
    ///   - target: the column of what they toggle (the product, the followee).
    ///   - counters: the counts to move, in the order they are updated.
    init(database: Database, table: String, user: String, target: String, counters: [Counter]) {
        self.database = database
        self.counters = counters.map {
            ("UPDATE \($0.table) SET \($0.column) = \($0.column) + ? WHERE id = ?", $0.owner)
        }
        insertSQL = """
            INSERT INTO \(table) (\(user), \(target), created_at) VALUES (?, ?, ?)
            ON CONFLICT (\(user), \(target)) DO NOTHING
            """
        deleteSQL = "DELETE FROM \(table) WHERE \(user) = ? AND \(target) = ?"
        containsSQL = "SELECT 1 FROM \(table) WHERE \(user) = ? AND \(target) = ?"
    }

    /// Adds the row unless it exists, after `check` ran in the same write transaction (it throws
    /// to refuse: a target or user that may not take part). Returns whether it was added.
    func add(_ target: some EntityID, by user: UserID, at now: Date,
             checking check: (Database.Connection) throws -> Void) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                try check(connection)
                let added = try connection.run(
                    insertSQL, [.integer(user.rawValue), .integer(target.rawValue), StoredTime.value(now)]) == 1
                if added { try adjust(target, user, by: 1, on: connection) }
                return added
            }
        }
    }

    /// Removes the row if it exists. Returns whether it was removed.
    func remove(_ target: some EntityID, by user: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let removed = try connection.run(deleteSQL, [.integer(user.rawValue), .integer(target.rawValue)]) == 1
                if removed { try adjust(target, user, by: -1, on: connection) }
                return removed
            }
        }
    }

    /// Whether the row exists.
    func contains(_ target: some EntityID, by user: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(containsSQL, [.integer(user.rawValue), .integer(target.rawValue)]) { _ in true }
                    ?? false
            }
        }
    }

    private func adjust(_ target: some EntityID, _ user: UserID, by delta: Int, on connection: Database.Connection) throws {
        for (sql, owner) in counters {
            try connection.run(sql, [.int(delta), .integer(owner == .user ? user.rawValue : target.rawValue)])
        }
    }
}
