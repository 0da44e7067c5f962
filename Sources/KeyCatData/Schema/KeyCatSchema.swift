import KeyCatInfrastructure

/// KeyCat's schema as numbered migrations (DESIGN §7). Append, never edit: a released
/// migration is history.
package enum KeyCatSchema {
    package static let migrations: [SQLiteMigration] = [
        SQLiteMigration(version: 1, name: "settings and audit log", sql: """
            CREATE TABLE settings (
                key   TEXT PRIMARY KEY,
                value BLOB NOT NULL
            ) STRICT;

            CREATE TABLE audit_log (
                id         INTEGER PRIMARY KEY,
                actor      TEXT NOT NULL,
                action     TEXT NOT NULL,
                target     TEXT NOT NULL DEFAULT '',
                detail     TEXT NOT NULL DEFAULT '',
                created_at INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX audit_log_by_time ON audit_log (created_at, id);
            """),
    ]

    /// The migrator over ``migrations``.
    package static func migrator() -> SQLiteMigrator {
        // The list is a constant checked by the tests; a broken list is a programming error.
        try! SQLiteMigrator(migrations: migrations)
    }
}
