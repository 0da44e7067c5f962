import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCat
@testable import KeyCatData
@testable import KeyCatInfrastructure
@testable import KeyCatPGSimulator

/// KeyCat opens only KeyCat databases (its `application_id`), and the PG simulator only its own
/// file: a mistyped path is refused with the file left byte-for-byte as it was.
///
/// SQLite only: the identity is the file's `application_id` header; a Postgres URL names its
/// database, whose version the migrator checks (`StoreMigrationContractTests`, both stores).
@Suite("Opening only KeyCat's own files")
struct DatabaseIdentityTests {
    /// Another program's SQLite database, in rollback-journal mode (switching it to WAL alone
    /// would rewrite its header).
    private func foreignDatabase(at path: String) throws {
        let connection = try SQLiteConnection(path: path, configuration: SQLiteConfiguration())
        defer { connection.close() }
        try connection.execute("""
            PRAGMA journal_mode = DELETE;
            CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
            INSERT INTO notes (body) VALUES ('buy milk');
            """)
    }

    private func applicationID(of path: String) throws -> Int64 {
        var configuration = SQLiteConfiguration()
        configuration.readOnly = true
        let connection = try SQLiteConnection(path: path, configuration: configuration)
        defer { connection.close() }
        return try connection.queryOne("PRAGMA application_id") { $0.int64(0) } ?? -1
    }

    private func expectRefused(_ configuration: KeyCat.Configuration, mentioning words: String) async {
        do {
            try await KeyCat.open(configuration).close()
            Issue.record("opened \(configuration.databasePath)")
        } catch {
            #expect(error.code == .storage)
            #expect(error.message.contains(configuration.databasePath), "\(error.message)")
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test("another program's SQLite file is refused, named, and left byte-for-byte intact, whatever the open")
    func foreignFile() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("notes.db").path
            try foreignDatabase(at: path)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            var readOnly = KeyCat.Configuration(databasePath: path)
            readOnly.store.sqlite?.readOnly = true
            for configuration in [KeyCat.Configuration(databasePath: path), readOnly] {
                await expectRefused(configuration, mentioning: "not a KeyCat database")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("notes.pg.db").path))
        }
    }

    @Test("KeyCat refuses the PG simulator's file, and the simulator refuses a KeyCat database, both untouched")
    func simulatorAndKeyCatKeepApart() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = directory.appendingPathComponent("keycat.db").path
            let simulatorFile = directory.appendingPathComponent("keycat.pg.db").path
            try await KeyCat.open(.init(databasePath: database)).close()  // creates both files
            #expect(try applicationID(of: database) == Int64(KeyCatSchema.application.id))
            #expect(try applicationID(of: simulatorFile) == Int64(PGStore.application.id))
            let keycatBytes = try Data(contentsOf: URL(fileURLWithPath: database))
            let simulatorBytes = try Data(contentsOf: URL(fileURLWithPath: simulatorFile))

            await expectRefused(.init(databasePath: simulatorFile), mentioning: "the PG simulator's file")
            #expect(throws: PGSimulatorError.self) { _ = try PGSimulator(storage: .file(path: database)) }

            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == keycatBytes)
            #expect(try Data(contentsOf: URL(fileURLWithPath: simulatorFile)) == simulatorBytes)
            let keycat = try await KeyCat.open(.init(databasePath: database))
            defer { keycat.close() }
            await #expect(try keycat.checkHealth().isHealthy)
        }
    }

    @Test("a KeyCat database from before the stamp is read without being stamped, and stamped by the next write-open")
    func unstampedKeyCatDatabase() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("old.db").path
            try await KeyCat.open(.init(databasePath: path)).close()
            let raw = try SQLiteDatabase(path: path)
            try raw.withWriter { try $0.execute("PRAGMA application_id = 0") }
            raw.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))

            var readOnly = KeyCat.Configuration(databasePath: path)
            readOnly.store.sqlite?.readOnly = true
            let reader = try await KeyCat.open(readOnly)
            await #expect(try reader.checkHealth().isHealthy)
            reader.close()
            #expect(try applicationID(of: path) == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

            try await KeyCat.open(.init(databasePath: path)).close()
            #expect(try applicationID(of: path) == Int64(KeyCatSchema.application.id))
        }
    }

    @Test("a simulator file from before the stamp is still the simulator's, and gets stamped")
    func unstampedSimulatorFile() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("keycat.pg.db").path
            try PGSimulator(storage: .file(path: path)).close()
            let raw = try SQLiteDatabase(path: path)
            try raw.withWriter { try $0.execute("PRAGMA application_id = 0") }
            raw.close()
            await expectRefused(.init(databasePath: path), mentioning: "the PG simulator's file")
            try PGSimulator(storage: .file(path: path)).close()
            #expect(try applicationID(of: path) == Int64(PGStore.application.id))
        }
    }

    @Test("an empty file is refused by a read-only open and becomes a KeyCat database on a write-open")
    func emptyFile() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("empty.db").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            var readOnly = KeyCat.Configuration(databasePath: path)
            readOnly.store.sqlite?.readOnly = true
            await expectRefused(readOnly, mentioning: "keycat-admin init")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
            let keycat = try await KeyCat.open(.init(databasePath: path))
            defer { keycat.close() }
            #expect(keycat.migrationsApplied == Array(1...KeyCat.latestSchemaVersion))
            #expect(try applicationID(of: path) == Int64(KeyCatSchema.application.id))
        }
    }

    @Test("a missing directory is named in the message, with SQLite's words kept in the context")
    func missingDirectory() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("no/such/dir/keycat.db").path
            do {
                try await KeyCat.open(.init(databasePath: path)).close()
                Issue.record("opened \(path)")
            } catch let error as KeyCatError {
                #expect(error.code == .storage)
                #expect(error.message.contains("the directory \(directory.appendingPathComponent("no/such/dir").path) does not exist"),
                        "\(error.message)")
                #expect(error.context["path"] == path)
                #expect(error.context["sqlite_code"] != nil && error.context["sqlite_message"] != nil)
            }
        }
    }
}
