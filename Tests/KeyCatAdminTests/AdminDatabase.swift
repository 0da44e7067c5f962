import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport

/// A fresh database for `keycat-admin` on one store, and the same database as a server beside
/// the CLI would open it.
struct AdminDatabase {
    /// What `--db` takes: a file's path, or a Postgres URL whose search path is a fresh schema.
    let argument: String
    /// A temporary folder for the files a test writes (CSV files, the images).
    let directory: URL
    /// The same database for the library (on Postgres its files beside `keycat.db` in
    /// ``directory``, where the CLI run there puts them).
    let configuration: KeyCat.Configuration

    /// Runs `keycat-admin` with `arguments` in ``directory``, where a Postgres database's files
    /// (the images, the PG simulator's) go: they never land in the repository.
    func run(_ arguments: [String], input: String = "") throws -> AdminProcess.Outcome {
        try AdminProcess.run(arguments, input: input, currentDirectory: directory)
    }

    /// Runs `sql` (one or more statements) on the database, beside the CLI: to break what it keeps.
    func execute(_ sql: String) throws {
        if configuration.store.postgres?.url != nil {
            let connection = try PostgresConnection(url: argument)
            defer { connection.close() }
            try connection.execute(sql)
        } else {
            let database = try SQLiteDatabase(path: argument)
            defer { database.close() }
            try database.withWriter { try $0.execute(sql) }
        }
    }
}

/// Runs `body` with a fresh database on `store` (a Postgres schema is dropped afterwards); with
/// `initialised`, `keycat-admin init` has run on it.
func withAdminDatabase(
    _ store: TestStore, initialised: Bool = true, _ body: (AdminDatabase) async throws -> Void
) async throws {
    try await withTemporaryDirectory { directory async throws in
        let path = directory.appendingPathComponent("shop.db").path
        func run(_ database: AdminDatabase) async throws {
            if initialised {
                let outcome = try database.run(["init", "--db", database.argument])
                guard outcome.status == 0 else { throw AdminSetupFailed(message: outcome.standardError) }
            }
            try await body(database)
        }
        guard store == .postgres else {
            return try await run(AdminDatabase(argument: path, directory: directory,
                                               configuration: KeyCat.Configuration(databasePath: path)))
        }
        try await withPostgresSchema { postgres in
            let url = try postgres.schemaURL()
            try await run(AdminDatabase(argument: url, directory: directory,
                                        configuration: KeyCat.Configuration(
                                            .postgres(url: url, filesBeside: directory.appendingPathComponent("keycat.db").path))))
        }
    }
}

struct AdminSetupFailed: Error, CustomStringConvertible {
    let message: String
    var description: String { "keycat-admin init failed: \(message)" }
}
