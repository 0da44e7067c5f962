import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// A table of toggles and the counters it keeps, written once for `bookmarks` and `follows` on
/// both stores: one row per (user, target) pair, unique, with its `created_at`; a row is added
/// with `ON CONFLICT DO NOTHING` and removed with `DELETE`, and the counters move by one in the
/// same transaction only when a row really came or went, so they always equal the rows, whatever
/// the order of concurrent toggles.
///
/// On Postgres both run at `READ COMMITTED`, so toggles racing on one counted row (a popular
/// product's bookmarks, a star's followers) wait their turn at its lock and are never run again
/// for a conflict: the insert's and the delete's row counts decide the move, and
/// `count = count + ?` adds to the row's newest version. Both lock the counted rows first
/// (``SQLDialect/RowLock/noKeyUpdate``, in id order), before anything else:
/// - an add's insert then never waits on a removal of the same pair that waits on a counted row
///   the add holds, as it would if the two took the pair and the rows in opposite orders;
/// - the insert's foreign-key checks, which lock the rows more weakly, come after, so the update
///   never strengthens a lock another transaction waits behind (Postgres 15 can fail that with
///   "new multixact has more than one updating member");
/// - what an add's ``Requirement``s read of the counted rows holds until the commit.
///
/// The lock is held to the commit, so each toggle's exchanges after it are few: an add is the
/// lock with its requirements, the insert, then the counters with the `COMMIT` (three round
/// trips); a removal is the lock with the delete, then the counters with the `COMMIT` (two).
///
/// The table and column names are the code's own constants, never a caller's input.
struct SQLToggleTable<Database: SQLDatabase>: Sendable {
    typealias Statement = SQLStatement<Database.Connection.Row>

    /// A count kept beside the rows: `column` of the `table` row whose `id` is the toggle's user
    /// or its target.
    struct Counter: Sendable {
        enum Owner: Sendable { case user, target }

        var table: String
        var column: String
        var owner: Owner
    }

    /// What an add needs to be true, read after the counted rows are locked: a query of one
    /// argument that must return a row, and what is thrown when it returns none (a target or
    /// user that may not take part). A row it reads that is not counted, it locks itself.
    struct Requirement: Sendable {
        var sql: String
        var arguments: [SQLValue]
        var unmet: KeyCatError
    }

    private let database: Database
    private let counters: [(sql: String, owner: Counter.Owner)]
    private let locks: [(sql: String, owners: [Counter.Owner])]
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
        // None on SQLite, whose one writer runs the toggle alone.
        let dialect = Database.Connection.dialect
        locks = dialect.hasOneWriter ? [] : Dictionary(grouping: counters, by: \.table).sorted { $0.key < $1.key }.map { table, counters in
            let ids = counters.map { _ in "?" }.joined(separator: ", ")
            return ("SELECT id FROM \(table) WHERE id IN (\(ids)) ORDER BY id" + dialect.locking(.noKeyUpdate), counters.map(\.owner))
        }
        insertSQL = """
            INSERT INTO \(table) (\(user), \(target), created_at) VALUES (?, ?, ?)
            ON CONFLICT (\(user), \(target)) DO NOTHING
            """
        deleteSQL = "DELETE FROM \(table) WHERE \(user) = ? AND \(target) = ?"
        containsSQL = "SELECT 1 FROM \(table) WHERE \(user) = ? AND \(target) = ?"
    }

    /// Adds the row unless it exists, once every requirement is met, in one write transaction.
    /// Returns whether it was added.
    func add(_ target: some EntityID, by user: UserID, at now: Date,
             requiring requirements: [Requirement]) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                var met = requirements.map { _ in false }
                try connection.batch(lockStatements(target, user) + requirements.indices.map { index in
                    .query(requirements[index].sql, requirements[index].arguments) { _ in met[index] = true }
                })
                if let unmet = zip(requirements, met).first(where: { !$0.1 })?.0.unmet { throw unmet }
                let added = try connection.run(
                    insertSQL, [.integer(user.rawValue), .integer(target.rawValue), StoredTime.value(now)]) == 1
                if added { try connection.batch(adjustments(target, user, by: 1), endingTransaction: true) }
                return added
            }
        }
    }

    /// Removes the row if it exists. Returns whether it was removed.
    func remove(_ target: some EntityID, by user: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write(isolation: .readCommitted) { connection in
                let statements = lockStatements(target, user)
                    + [.run(deleteSQL, [.integer(user.rawValue), .integer(target.rawValue)])]
                let removed = try connection.batch(statements).last == 1
                if removed { try connection.batch(adjustments(target, user, by: -1), endingTransaction: true) }
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

    /// The statements that lock the rows whose counts move.
    private func lockStatements(_ target: some EntityID, _ user: UserID) -> [Statement] {
        locks.map { sql, owners in .run(sql, owners.map { id(of: $0, target, user) }) }
    }

    private func adjustments(_ target: some EntityID, _ user: UserID, by delta: Int) -> [Statement] {
        counters.map { sql, owner in .run(sql, [.int(delta), id(of: owner, target, user)]) }
    }

    private func id(of owner: Counter.Owner, _ target: some EntityID, _ user: UserID) -> SQLValue {
        .integer(owner == .user ? user.rawValue : target.rawValue)
    }
}
