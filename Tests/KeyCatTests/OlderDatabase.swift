import Foundation
import KeyCatData
import KeyCatInfrastructure

/// A SQLite file written by an older build: migrated up to (not including) the migration named
/// `migration`, then given `rows`, and closed; KeyCat opening it applies the rest. For the tests
/// of what a migration does to the rows it finds.
func olderDatabase(in directory: URL, before migration: String, rows: String) throws -> String {
    let path = directory.appendingPathComponent("old.db").path
    let database = try SQLiteDatabase(path: path)
    defer { database.close() }
    let before = Array(KeyCatSchema.migrations.prefix { $0.name != migration })
    precondition(before.count < KeyCatSchema.migrations.count, "no migration is named \(migration)")
    _ = try SchemaMigrator(migrations: before).migrate(database)
    try database.withWriter { try $0.execute(rows) }
    return path
}
