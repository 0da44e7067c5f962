import Foundation

/// Which application a SQLite file belongs to, told by its `PRAGMA application_id`
/// (<https://sqlite.org/pragma.html#pragma_application_id>, the header's bytes 68–71).
///
/// An application stamps its id on every file it creates or migrates, and refuses a file stamped
/// by anything else before writing a byte to it: a mistyped path never turns another program's
/// database into a half-migrated one. Files written before the stamp existed carry id 0; they
/// are recognised by the name of the first migration recorded in `schema_migrations`, accepted,
/// and stamped on their next write-open.
package struct SQLiteApplication: Sendable, Equatable {
    /// The id stamped in the header. Never 0 (SQLite's "unset").
    package let id: Int32
    /// How messages name the application, e.g. "KeyCat".
    package let name: String
    /// The name of migration 1, which identifies the application's files made before the stamp.
    package let firstMigrationName: String

    package init(id: Int32, name: String, firstMigrationName: String) {
        self.id = id
        self.name = name
        self.firstMigrationName = firstMigrationName
    }

    /// What a file on disk is, as far as this application is concerned.
    package enum Admission: Sendable, Equatable {
        /// An empty database (or a zero-byte file): no tables, no id. Created on a write-open.
        case empty
        /// Stamped with this application's id.
        case stamped
        /// This application's file from before the stamp: id 0 and our first migration.
        case unstamped
    }

    /// Reads what `path` is without writing anything, and admits it or refuses it.
    ///
    /// - Throws: ``SQLiteForeignFileError`` for a file of another application, or a
    ///   ``SQLiteError`` when it cannot be read (not a database, cannot open).
    package func admit(path: String, others: [SQLiteApplication] = []) throws -> Admission {
        var configuration = SQLiteConfiguration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        let connection = try SQLiteConnection(path: path, configuration: configuration)
        defer { connection.close() }
        let stampedID = try connection.queryOne("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
        let tables = try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.string(0) }
        if stampedID == id { return .stamped }
        if stampedID != 0 {
            let owner = others.first { $0.id == stampedID }
            throw SQLiteForeignFileError(path: path, expected: self, foundID: stampedID, foundOwner: owner?.name)
        }
        if tables.isEmpty { return .empty }
        let first = tables.contains("schema_migrations")
            ? try connection.queryOne("SELECT name FROM schema_migrations WHERE version = 1") { $0.string(0) } : nil
        if first == firstMigrationName { return .unstamped }
        let owner = others.first { $0.firstMigrationName == first }
        throw SQLiteForeignFileError(path: path, expected: self, foundID: 0, foundOwner: owner?.name,
                                     tables: tables.sorted())
    }
}

/// A file that belongs to another application (or to none known): refused before anything was
/// written to it.
package struct SQLiteForeignFileError: Error, Sendable, CustomStringConvertible {
    /// The file refused.
    package let path: String
    /// The application that refused it.
    package let expected: SQLiteApplication
    /// The file's `application_id` (0: none).
    package let foundID: Int32
    /// The known application the file belongs to, when recognised.
    package let foundOwner: String?
    /// The file's tables, for an unstamped file (a few, for the context).
    package var tables: [String] = []

    package var description: String {
        let what = foundOwner.map { "it is \($0)'s file" }
            ?? (foundID != 0 ? String(format: "its application_id is 0x%08X", foundID)
                : "it holds other tables (\(tables.prefix(5).joined(separator: ", ")))")
        return "\(path) is not a \(expected.name) database: \(what). Nothing was changed; check the path"
    }
}
