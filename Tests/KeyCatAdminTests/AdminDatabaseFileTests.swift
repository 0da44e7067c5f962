import Foundation
import KeyCat
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// `keycat-admin` and the database file: only `init` creates one, commands that read never
/// write, a wrong `--db` is refused untouched, and `db check` finds what a killed bulk load left.
///
/// SQLite only: files, read-only directories and the bulk load, which only a SQLite file takes.
@Suite("keycat-admin and the database file")
struct AdminDatabaseFileTests {
    static let seedFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("seed/catalog.json").path

    /// Every command that only reads, against a seeded database.
    static let readCommands: [[String]] = [
        ["products", "list"], ["products", "show", "1"], ["users", "list"], ["users", "show", "1"],
        ["sellers", "list"], ["reviews", "list", "--product", "1"], ["orders", "list"], ["stats"], ["db", "check"],
    ]

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func seededDatabase(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("keycat.db").path
        #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
        let seeded = try AdminProcess.run(["seed", "--db", path, "--file", Self.seedFile])
        #expect(seeded.status == 0, "\(seeded.standardError)")
        return path
    }

    @Test("--db naming the PG simulator's file is exit 3, names the path, and changes neither file")
    func simulatorFileTypo() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = try seededDatabase(in: directory)
            try await KeyCat.open(.init(databasePath: path)).close()  // opens (creates) keycat.pg.db beside it
            let simulatorFile = directory.appendingPathComponent("keycat.pg.db").path
            let before = (try bytes(path), try bytes(simulatorFile))
            for command in [["products", "list"], ["init"], ["seed", "--file", Self.seedFile], ["db", "check"]] {
                let outcome = try AdminProcess.run(command + ["--db", simulatorFile])
                #expect(outcome.status == 3, "\(command): \(outcome.standardError)")
                #expect(outcome.standardError.contains(simulatorFile))
                #expect(outcome.standardError.contains("not a KeyCat database"))
            }
            #expect(try bytes(path) == before.0)
            #expect(try bytes(simulatorFile) == before.1)
            #expect(try AdminProcess.run(["products", "list", "--db", path]).status == 0)
            #expect(try AdminProcess.run(["db", "check", "--db", path]).status == 0)
        }
    }

    @Test("a read command on another program's SQLite file is exit 3 and adds no tables")
    func foreignFile() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("photos.db").path
            let connection = try SQLiteConnection(path: path, configuration: SQLiteConfiguration())
            try connection.execute("PRAGMA journal_mode = DELETE; CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
            connection.close()
            let before = try bytes(path)
            let outcome = try AdminProcess.run(["products", "list", "--db", path])
            #expect(outcome.status == 3)
            #expect(outcome.standardError.contains(path))
            #expect(try bytes(path) == before)
        }
    }

    @Test("only init creates a database: other commands on a missing path are exit 3 and create nothing",
          arguments: [["seed", "--file", seedFile], ["products", "list"], ["users", "create", "--email", "a@b.co", "--nick", "ab"],
                      ["settlements", "run", "--period", "2026-10"], ["shipments", "ship", "1", "--carrier", "kr.cjlogistics", "--tracking", "123456789012"],
                      ["shipments", "deliver", "1"], ["shipments", "confirm-receipt", "1"], ["returns", "reject", "1", "--reason", "no"],
                      ["shipments", "correct-tracking", "1", "--carrier", "cj", "--tracking", "123456789012"]])
    func onlyInitCreates(command: [String]) throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("typo.db").path
            let outcome = try AdminProcess.run(command + ["--db", path], input: "password123\n")
            #expect(outcome.status == 3)
            #expect(outcome.standardError.contains("no database at \(path)"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("a settlement's month is read before any database is opened: a bad one is a usage error that creates nothing",
          arguments: [["settlements", "run", "--period", "2026-13"], ["settlements", "list", "--period", "2026"],
                      ["settlements", "export", "--period", "26-10", "--format", "csv"]])
    func badPeriodCreatesNothing(command: [String]) throws {
        try withTemporaryDirectory { directory throws in
            let outcome = try AdminProcess.run(command + ["--db", directory.appendingPathComponent("keycat.db").path])
            #expect(outcome.status == 2, "\(outcome.standardError)")
            #expect(outcome.standardError.contains("--period: a period is a month written YYYY-MM"), "\(outcome.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("every read command works on a read-only file in a read-only directory and changes nothing")
    func readCommandsNeverWrite() throws {
        try withTemporaryDirectory { directory throws in
            let path = try seededDatabase(in: directory)
            let simulatorFile = directory.appendingPathComponent("keycat.pg.db").path
            let before = (try bytes(path), try bytes(simulatorFile))
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
            defer {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
                try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            }
            for command in Self.readCommands {
                let outcome = try AdminProcess.run(command + ["--db", path])
                #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
            }
            #expect(try bytes(path) == before.0)
            #expect(try bytes(simulatorFile) == before.1)
            // Where the directory is writable to the reader (as root, which these tests run as),
            // SQLite leaves an empty -wal and a -shm beside a WAL database it read; nothing else.
            let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(Set(after).subtracting(files).isSubset(of: ["keycat.db-wal", "keycat.db-shm"]), "\(files) → \(after)")
            #expect(((try? bytes(path + "-wal")) ?? Data()).isEmpty)
        }
    }

    @Test("db check reports product indexes dropped behind KeyCat's back; init restores them")
    func missingIndexes() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = try seededDatabase(in: directory)
            let database = try SQLiteDatabase(path: path)
            let indexes = try await database.read { try $0.query(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' AND sql IS NOT NULL") { $0.string(0) } }
            try await database.write { connection in for name in indexes { try connection.execute("DROP INDEX \(name)") } }
            database.close()
            try expectMissing(indexes, path: path)

            let initialised = try AdminProcess.run(["init", "--db", path, "--json"])
            #expect(initialised.status == 0)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(initialised.standardOutput.utf8)) as? [String: Any])
            #expect((answer["schema_objects_restored"] as? [String])?.sorted() == indexes.sorted())
            let check = try AdminProcess.run(["db", "check", "--db", path])
            #expect(check.status == 0, "\(check.standardOutput)")
            #expect(check.standardOutput.contains("schema: ok"))
        }
    }

    /// `db check` exits 1 and names every index in `indexes` in its schema section.
    private func expectMissing(_ indexes: [String], path: String) throws {
        #expect(!indexes.isEmpty)
        let check = try AdminProcess.run(["db", "check", "--db", path, "--json"])
        #expect(check.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        let schema = try #require(report["schema"] as? [String])
        for name in indexes { #expect(schema.contains { $0.contains("index \(name) is missing") }, "\(schema)") }
    }

    @Test("a seed --synthetic killed after dropping the product indexes leaves db check failing until init restores them")
    func killedSyntheticSeed() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("keycat.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            let indexes = try Self.productIndexes(path)
            let seed = try ChildProcess(AdminProcess.binary.path, ["seed", "--db", path, "--synthetic", "60000"])
            // Kill it once the first batch (which drops the indexes) is committed, before the last.
            var loaded = 0
            while seed.isRunning && loaded == 0 { loaded = try Self.productCount(path) }
            seed.signal(SIGKILL)
            try #require(seed.wait() == .signalled(SIGKILL), "the seed finished before it could be killed")
            #expect(try Self.productCount(path) < 60_000)
            #expect(try Self.productIndexes(path).isEmpty)
            try expectMissing(indexes, path: path)

            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            #expect(try Self.productIndexes(path) == indexes)
            #expect(try AdminProcess.run(["db", "check", "--db", path]).status == 0)
        }
    }

    private static func readOnlyConnection(_ path: String) throws -> SQLiteConnection {
        var configuration = SQLiteConfiguration()
        configuration.readOnly = true
        return try SQLiteConnection(path: path, configuration: configuration)
    }

    private static func productCount(_ path: String) throws -> Int {
        let connection = try readOnlyConnection(path)
        defer { connection.close() }
        return try connection.queryOne("SELECT count(*) FROM products") { $0.int(0) } ?? 0
    }

    private static func productIndexes(_ path: String) throws -> [String] {
        let connection = try readOnlyConnection(path)
        defer { connection.close() }
        return try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'products' AND sql IS NOT NULL ORDER BY name"
        ) { $0.string(0) }
    }
}
