/// The few places where SQLite's SQL and Postgres's differ in what the repositories need.
/// Everything else (`ON CONFLICT`, `RETURNING`, partial indexes, row values, `coalesce`) is
/// written once and runs on both.
package struct SQLDialect: Sendable, Equatable {
    /// Which store this is.
    package enum Store: String, Sendable { case sqlite, postgres }

    package let store: Store

    package static let sqlite = SQLDialect(store: .sqlite)
    package static let postgres = SQLDialect(store: .postgres)

    /// A subquery yielding the integers of a JSON array passed as one text parameter, for
    /// `id IN (…)` with any number of ids in one prepared statement.
    package var integersFromJSON: String {
        switch store {
        case .sqlite: "SELECT value FROM json_each(?)"
        case .postgres: "SELECT value::bigint FROM json_array_elements_text(?::json)"
        }
    }

    /// A subquery yielding the texts of a JSON array of strings passed as one text parameter, for
    /// `term IN (…)` with any number of texts in one prepared statement.
    package var textsFromJSON: String {
        switch store {
        case .sqlite: "SELECT value FROM json_each(?)"
        case .postgres: "SELECT value FROM json_array_elements_text(CAST(? AS json))"
        }
    }

    /// A `FROM` item `f` with one row per element of a JSON array passed as one text parameter,
    /// its column `value` the element as JSON: an element that is itself an array gives its
    /// items as `f.value ->> 0`, `f.value ->> 1`… (text, to be cast), the same on both stores.
    /// For many rows of values in one prepared statement.
    package var rowsFromJSON: String {
        switch store {
        case .sqlite: "json_each(?) AS f"
        case .postgres: "json_array_elements(CAST(? AS json)) AS f (value)"
        }
    }

    /// A query answering one row when the table named by its first parameter has a column
    /// named by its second (in the connection's schema, for Postgres).
    package var columnExists: String {
        switch store {
        case .sqlite: "SELECT 1 FROM pragma_table_info(?) WHERE name = ?"
        case .postgres:
            """
            SELECT 1 FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = CAST(? AS text) AND column_name = CAST(? AS text)
            """
        }
    }

    /// A query answering one row when the table named by its one parameter exists (in the
    /// connection's schema, for Postgres), none otherwise.
    package var tableExists: String {
        switch store {
        case .sqlite: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?"
        case .postgres: "SELECT 1 WHERE to_regclass(CAST(? AS text)) IS NOT NULL"
        }
    }

    /// `expression` with the ASCII letters A–Z lowercased and every other character kept as it
    /// is, the same on both stores. SQLite's `lower()` folds ASCII alone (SQLite built without
    /// ICU, as Debian's is); Postgres's folds by the collation, so it is given `"C"`, whose
    /// folding is ASCII's whatever the database's locale.
    package func asciiLowercased(_ expression: String) -> String {
        switch store {
        case .sqlite: "lower(\(expression))"
        case .postgres: "lower(\(expression) COLLATE \"C\")"
        }
    }

    /// Where the text `needle` first occurs in the text `haystack`, counting from 1, or 0 where
    /// it does not (`instr(haystack, needle)` in SQLite, `strpos(haystack, needle)` in Postgres).
    package func position(of needle: String, in haystack: String) -> String {
        switch store {
        case .sqlite: "instr(\(haystack), \(needle))"
        case .postgres: "strpos(\(haystack), \(needle))"
        }
    }

    /// The smaller of two values (`min(a, b)` in SQLite, `least(a, b)` in Postgres).
    package func smaller(_ first: String, _ second: String) -> String {
        switch store {
        case .sqlite: "min(\(first), \(second))"
        case .postgres: "least(\(first), \(second))"
        }
    }

    /// The larger of two values (`max(a, b)` in SQLite, `greatest(a, b)` in Postgres).
    package func larger(_ first: String, _ second: String) -> String {
        switch store {
        case .sqlite: "max(\(first), \(second))"
        case .postgres: "greatest(\(first), \(second))"
        }
    }

    /// A lock a `SELECT` takes on the rows it reads, held until the transaction ends
    /// (<https://www.postgresql.org/docs/current/explicit-locking.html#LOCKING-ROWS>).
    package enum RowLock: Sendable {
        /// `FOR UPDATE`: no other transaction may lock, change or delete the rows, nor insert a
        /// row that refers to them.
        case update
        /// `FOR NO KEY UPDATE`, the lock an `UPDATE` of the rows' other columns takes: it waits
        /// for other writers of the rows but not for inserts that refer to them. A write that
        /// will update a row it also refers to takes it first, before its inserts' foreign-key
        /// checks take their weaker lock, so it never strengthens a lock it holds while another
        /// transaction waits on the row (Postgres 15 can fail such an upgrade with
        /// "new multixact has more than one updating member").
        case noKeyUpdate
        /// `FOR SHARE`: others may read and lock the rows for share, but not change them.
        case share
    }

    /// What ends a `SELECT` that takes `lock` on the rows it reads: `FOR UPDATE`,
    /// `FOR NO KEY UPDATE` or `FOR SHARE` on Postgres; nothing on SQLite, whose one writer
    /// already runs each write alone. Under `READ COMMITTED` the rows' conditions are checked
    /// again on their newest version once the lock is had.
    package func locking(_ lock: RowLock) -> String {
        switch (store, lock) {
        case (.sqlite, _): ""
        case (.postgres, .update): " FOR UPDATE"
        case (.postgres, .noKeyUpdate): " FOR NO KEY UPDATE"
        case (.postgres, .share): " FOR SHARE"
        }
    }

    /// ``locking(_:)`` on the rows of one table of a join only, the one aliased `table`.
    package func locking(_ lock: RowLock, of table: String) -> String {
        let clause = locking(lock)
        return clause.isEmpty ? clause : clause + " OF " + table
    }

    /// Whether the store runs one write at a time (SQLite's one writer): a long write makes every
    /// other wait, so bulk work goes in short transactions.
    package var hasOneWriter: Bool { store == .sqlite }

    /// Whether each exchange with the store is a network round trip (Postgres): statements are
    /// then worth sending many at a time.
    package var hasRoundTrips: Bool { store == .postgres }

    /// A query answering the name and `CREATE INDEX` statement of each index of the table named by
    /// its one parameter, but those that belong to a constraint (the primary key stays).
    package var indexesOfTable: String {
        switch store {
        case .sqlite:
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL"
        case .postgres:
            """
            SELECT indexname, indexdef FROM pg_indexes
            WHERE schemaname = current_schema() AND tablename = CAST(? AS text)
              AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace)
            """
        }
    }

    /// A query answering the name and definition (`PRIMARY KEY (…)`, `FOREIGN KEY (…) REFERENCES
    /// …`) of the primary key and each foreign key of the table named by its one parameter, the
    /// primary key first, so a bulk load can drop them and add them back in that order, each
    /// built or checked in one pass: on Postgres. Nil on SQLite, whose keys are part of the
    /// table's definition (its foreign keys are switched off per connection instead, with
    /// `PRAGMA foreign_keys`).
    package var keysOfTable: String? {
        switch store {
        case .sqlite: nil
        case .postgres:
            """
            SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE contype IN ('p', 'f') AND connamespace = current_schema()::regnamespace
              AND conrelid = (SELECT c.oid FROM pg_class c
                              WHERE c.relname = CAST(? AS text) AND c.relnamespace = current_schema()::regnamespace)
            ORDER BY contype DESC, conname
            """
        }
    }

    /// A statement that makes other processes' migrations wait until this transaction ends, or
    /// nil where the transaction already does (SQLite's `BEGIN IMMEDIATE` takes the file's one
    /// write lock). On Postgres an advisory lock keyed on "KCAT" and the current schema, so tests
    /// migrating schemas of their own side by side do not wait on each other.
    package var schemaMigrationLock: String? {
        switch store {
        case .sqlite: nil
        case .postgres: "SELECT pg_advisory_xact_lock(\(0x4B43_4154), hashtext(coalesce(current_schema(), '')))"
        }
    }

    /// What a migration's transaction sets first so that its waits for a lock run out as the
    /// store's own lock wait does, or nil where one already does (SQLite's busy timeout). On
    /// Postgres `lock_timeout`, for the migration lock and for each table a migration alters:
    /// without it both waits have no end, and an `ALTER TABLE` waiting behind a long reader (a
    /// `pg_dump`) holds every other server's queries of that table in line behind it.
    package var schemaMigrationLockWait: String? {
        switch store {
        case .sqlite: nil
        case .postgres: "SET LOCAL lock_timeout = '2s'"
        }
    }

    /// The table ``SchemaMigrator`` records applied migrations in, created if missing. The
    /// tables of existing databases were made by these statements: they are history, as
    /// migrations are.
    package var schemaMigrationsTable: String {
        switch store {
        case .sqlite:
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    INTEGER PRIMARY KEY,
                name       TEXT NOT NULL,
                applied_at TEXT NOT NULL
            ) STRICT
            """
        case .postgres:
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                applied_at timestamptz NOT NULL
            )
            """
        }
    }

    /// How this store spells the column types of KeyCat's schema.
    package var columnTypes: ColumnTypes {
        switch store {
        case .sqlite: ColumnTypes(
            rowID: "INTEGER PRIMARY KEY", integer: "INTEGER", real: "REAL", text: "TEXT", blob: "BLOB",
            tableOptions: " STRICT")
        case .postgres: ColumnTypes(
            rowID: "bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", integer: "bigint",
            real: "double precision", text: #"text COLLATE "C""#, blob: "bytea", tableOptions: "")
        }
    }

    /// The column types of KeyCat's schema, as one store spells them, for DDL written once
    /// (`id \(type.rowID)`, `)\(type.tableOptions);`).
    ///
    /// The schema keeps to what both stores understand, so these are the only differences:
    /// - integers are 64 bits on both (times are Unix milliseconds, money is won). Booleans are
    ///   integers too (0 and 1), so every row reads the same through one decoder and
    ///   `WHERE listed = 1` is the predicate of the same partial indexes;
    /// - text compares and sorts by code point on both: SQLite's `BINARY`, Postgres's
    ///   `COLLATE "C"`, whatever the server's locale;
    /// - every SQLite table is `STRICT`; Postgres's columns are always strictly typed.
    package struct ColumnTypes: Sendable {
        /// A table's integer key, assigned on insert when not given: SQLite's row id, a Postgres
        /// identity column.
        package let rowID: String
        package let integer: String
        package let real: String
        package let text: String
        package let blob: String
        /// What follows a `CREATE TABLE`'s closing parenthesis.
        package let tableOptions: String
    }
}
