import KeyCatInfrastructure

extension KeyCatSchema {
    /// KeyCat's `PRAGMA application_id`, "KCAT" in ASCII: stamped on every KeyCat database and
    /// required of every file KeyCat opens (an unstamped one from before the stamp is
    /// recognised by its first migration and stamped on its next write-open).
    package static let application = SQLiteApplication(
        id: 0x4B43_4154, name: "KeyCat", firstMigrationName: migrations[0].name)
}

/// One table, index or trigger of a schema, as `sqlite_schema` records it.
package struct SchemaObject: Sendable, Hashable {
    package let type: String
    package let name: String
    /// The `CREATE` statement SQLite kept (normalised by SQLite, identical for identical
    /// migrations).
    package let sql: String
}

/// The schema KeyCat's migrations build, and how a file on disk departs from it.
///
/// The expected set is not a hand-kept list: it is read from a private in-memory database the
/// migrations were run on, once per process, so a new migration's objects are expected as soon
/// as it is appended.
package enum ExpectedSchema {
    /// Every table, index and trigger the migrations create (SQLite's own `sqlite_*` aside).
    package static let objects: [SchemaObject] = {
        // A programming error if the migrations cannot run on an empty database.
        let database = try! SQLiteDatabase(path: ":memory:")
        defer { database.close() }
        try! KeyCatSchema.migrator().migrate(database)
        return try! database.withWriter { try objects(on: $0) }
    }()

    /// The tables, indexes and triggers on `connection`'s database.
    static func objects(on connection: SQLiteConnection) throws -> [SchemaObject] {
        try connection.query("""
            SELECT type, name, sql FROM sqlite_schema
            WHERE type IN ('table', 'index', 'trigger') AND sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY type, name
            """) { SchemaObject(type: $0.string(0), name: $0.string(1), sql: $0.string(2)) }
    }

    /// What is missing or different, one sentence each: empty when the schema is as the
    /// migrations left it. A database at an older version gets one sentence saying so (its
    /// later objects are not missing, only not made yet).
    package static func problems(on connection: SQLiteConnection) throws -> [String] {
        let hasMigrations = try connection.queryOne(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'") { _ in true } ?? false
        let version = hasMigrations
            ? try connection.queryOne("SELECT coalesce(max(version), 0) FROM schema_migrations") { $0.int(0) } ?? 0 : 0
        if version < KeyCatSchema.migrations.count {
            return ["the schema is at version \(version), this build's is \(KeyCatSchema.migrations.count) "
                    + "('keycat-admin init' migrates it)"]
        }
        let present = Dictionary(try objects(on: connection).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return try problems(present: present) + foreignCode(on: connection)
    }

    /// The triggers and views on `connection`'s database that no migration made, one sentence
    /// each. A trigger runs its own SQL on every write of its table and a view may stand for
    /// any query: a file that is KeyCat's alone holds neither, and one that does (a backup
    /// someone edited, a tool run against the file) is reported, so `db restore` refuses it.
    private static func foreignCode(on connection: SQLiteConnection) throws -> [String] {
        let expected = Set(objects.map(\.name))
        return try connection.query("""
            SELECT type, name FROM sqlite_schema WHERE type IN ('trigger', 'view') ORDER BY type, name
            """) { (type: $0.string(0), name: $0.string(1)) }
            .filter { !expected.contains($0.name) }
            .map { "\($0.type) \($0.name) is not one of KeyCat's: drop it (DROP \($0.type.uppercased()) \($0.name)) once you know what made it" }
    }

    private static func problems(present: [String: SchemaObject]) -> [String] {
        objects.compactMap { expected in
            guard let found = present[expected.name] else {
                return "\(expected.type) \(expected.name) is missing"
                    + (expected.type == "table" ? "" : " (opening the database for writing or 'keycat-admin init' restores it)")
            }
            guard found.type == expected.type else { return "\(expected.name) is a \(found.type), expected a \(expected.type)" }
            return expected.type != "table" && found.sql != expected.sql
                ? "\(expected.type) \(expected.name) differs from its migration: \(found.sql)" : nil
        }
    }

    /// Recreates every missing index and trigger, in one transaction; returns their names.
    /// A missing table is not recreated (its rows are gone): ``problems(on:)`` reports it.
    ///
    /// Reads first, so an intact database (the usual case) costs no write lock.
    @discardableResult
    package static func restoreMissing(_ database: SQLiteDatabase) async throws -> [String] {
        let missing = try await database.read { connection in
            let present = Set(try objects(on: connection).map(\.name))
            return objects.filter { $0.type != "table" && !present.contains($0.name) }
        }
        guard !missing.isEmpty else { return [] }
        return try await database.write { connection in
            let present = Set(try objects(on: connection).map(\.name))
            // Indexes, then triggers.
            let toCreate = missing.filter { !present.contains($0.name) }.sorted { $0.type < $1.type }
            for object in toCreate { try connection.execute(object.sql) }
            return toCreate.map(\.name)
        }
    }
}
