import KeyCatInfrastructure

/// What `db check` found: SQLite's own checks, and KeyCat's invariants (the stored counters,
/// ``CounterInvariants``; listings and their sellers, ``CatalogInvariants``; orders and payments, ``OrderInvariants``; stock against the inventory
/// ledger and orders against their lines, ``LedgerInvariants``). Empty lists mean healthy.
package struct DatabaseHealth: Sendable {
    /// Lines from `PRAGMA integrity_check` other than "ok".
    package var integrityProblems: [String]
    /// Rows whose foreign keys point nowhere, from `PRAGMA foreign_key_check`.
    package var foreignKeyProblems: [String]
    /// Broken KeyCat invariants, each a sentence.
    package var invariantProblems: [String]
    /// Tables, indexes and triggers missing or unlike what the migrations create
    /// (``ExpectedSchema``), each a sentence.
    package var schemaProblems: [String] = []

    package var isHealthy: Bool {
        integrityProblems.isEmpty && foreignKeyProblems.isEmpty && invariantProblems.isEmpty && schemaProblems.isEmpty
    }

    /// Runs SQLite's integrity and foreign-key checks and KeyCat's invariants on one reader
    /// snapshot, so the counters and the rows they count are read at the same instant.
    package static func check(_ database: SQLiteDatabase) async throws -> DatabaseHealth {
        try await database.read { connection in
            let integrity = try connection.query("PRAGMA integrity_check") { $0.string(0) }
                .filter { $0 != "ok" }
            let foreignKeys = try connection.query("PRAGMA foreign_key_check") { row in
                "\(row.string(0)) row \(row.int64(1)) points to a missing \(row.string(2))"
            }
            let invariants = try invariantProblems(on: connection)
            var health = DatabaseHealth(
                integrityProblems: integrity, foreignKeyProblems: foreignKeys, invariantProblems: invariants)
            health.schemaProblems = try ExpectedSchema.problems(on: connection)
            return health
        }
    }

    /// KeyCat's invariants on either store (SQLite's integrity checks aside), in one snapshot.
    package static func invariantProblems(_ database: some SQLDatabase) async throws -> [String] {
        try await database.read { try invariantProblems(on: $0) }
    }

    private static func invariantProblems(on connection: some SQLConnection) throws -> [String] {
        try (CounterInvariants.isApplicable(on: connection) ? try CounterInvariants.problems(on: connection) : [])
            + CatalogInvariants.problems(on: connection)
            + OrderInvariants.problems(on: connection)
            + LedgerInvariants.problems(on: connection)
            + SettlementInvariants.problems(on: connection)
            + EventInvariants.problems(on: connection)
            + WebhookInvariants.problems(on: connection)
    }
}
