import Foundation
import KeyCat
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// Mostly SQLite: paths, exit codes for missing and foreign files, `$KEYCAT_DB` and `./keycat.db`,
/// two processes on one file. `init` and `db check` on a Postgres URL are `AdminPostgresTests`'.
@Suite("keycat-admin as a process")
struct AdminFoundationTests {
    @Test("--help prints the command list and exits 0")
    func help() throws {
        let outcome = try AdminProcess.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("Usage: keycat-admin <command>"))
        #expect(outcome.standardOutput.contains("init"))
    }

    @Test("init creates the database and db check --json reports it healthy")
    func initAndCheck() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("shop.db").path
            let created = try AdminProcess.run(["init", "--db", path])
            #expect(created.status == 0, "\(created.standardError)")
            #expect(created.standardOutput.contains("Initialised"))
            let check = try AdminProcess.run(["db", "check", "--db", path, "--json"])
            #expect(check.status == 0)
            let object = try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any]
            #expect(object?["healthy"] as? Bool == true)
            #expect((object?["integrity"] as? [Any])?.isEmpty == true)
            let again = try AdminProcess.run(["init", "--db", path, "--json"])
            #expect(again.status == 0)
            #expect(again.standardOutput.contains("\"migrations_applied\":[]"))
        }
    }

    @Test("$KEYCAT_DB is used when --db is absent, and ./keycat.db when neither is")
    func databaseResolution() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("env.db").path
            #expect(try AdminProcess.run(["init"], environment: ["KEYCAT_DB": path]).status == 0)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try AdminProcess.run(["init"], currentDirectory: directory).status == 0)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("keycat.db").path))
        }
    }

    @Test("usage errors are one line on stderr with exit code 2", arguments: [
        ["frobnicate"], ["init", "--db"], ["db", "check", "--nope"], ["db"],
    ])
    func usage(arguments: [String]) throws {
        let outcome = try AdminProcess.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.split(separator: "\n").count == 1)
    }

    @Test("--json errors are a JSON object on stderr")
    func jsonError() throws {
        let outcome = try AdminProcess.run(["frobnicate", "--json"])
        #expect(outcome.status == 2)
        let object = try JSONSerialization.jsonObject(with: Data(outcome.standardError.utf8)) as? [String: [String: String]]
        #expect(object?["error"]?["code"] == "usage")
    }

    @Test("an unwritable path is exit 3 and creates nothing")
    func unwritablePath() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("missing-folder/shop.db").path
            let outcome = try AdminProcess.run(["init", "--db", path])
            #expect(outcome.status == 3)
            #expect(outcome.standardError.hasPrefix("keycat-admin: "))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing-folder").path))
        }
    }

    @Test("checking a missing database is exit 3 and creates nothing")
    func missingDatabase() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("nothing.db").path
            let outcome = try AdminProcess.run(["db", "check", "--db", path])
            #expect(outcome.status == 3)
            #expect(outcome.standardError.contains("no database at"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("a file that is not a database is exit 3 and left byte-for-byte intact", arguments: [
        ["init"], ["db", "check"],
    ])
    func notADatabase(command: [String]) throws {
        try withTemporaryDirectory { directory throws in
            let url = directory.appendingPathComponent("photo.db")
            let content = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try content.write(to: url)
            let outcome = try AdminProcess.run(command + ["--db", url.path])
            #expect(outcome.status == 3)
            #expect(outcome.standardError.contains("not a KeyCat database"))
            #expect(try Data(contentsOf: url) == content)
        }
    }

    @Test("a database from a newer KeyCat is exit 3 and not changed")
    func newerDatabase() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("future.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            try await markAsFromTheFuture(path)
            for command in [["init"], ["db", "check"]] {
                let outcome = try AdminProcess.run(command + ["--db", path])
                #expect(outcome.status == 3)
                #expect(outcome.standardError.contains("newer than this build supports"))
            }
        }
    }

    @Test("two processes writing the same file at once both succeed")
    func twoProcesses() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("shared.db").path
            // Each `init` migrates (first one only) and writes an audit entry in its own
            // transaction; run them two at a time from separate OS processes.
            try await withThrowingTaskGroup(of: AdminProcess.Outcome.self) { group in
                for _ in 0..<6 {
                    group.addTask { try AdminProcess.run(["init", "--db", path]) }
                }
                for try await outcome in group { #expect(outcome.status == 0, "\(outcome.standardError)") }
            }
            let keycat = try await KeyCat.open(.init(databasePath: path))
            defer { keycat.close() }
            let inits = try await keycat.auditLog.recent(limit: 100).filter { $0.action == "database.init" }
            #expect(inits.count == 6)
            await #expect(try keycat.checkHealth().isHealthy)
        }
    }

    private func markAsFromTheFuture(_ path: String) async throws {
        let database = try SQLiteDatabase(path: path)
        defer { database.close() }
        try await database.write {
            try $0.run("INSERT INTO schema_migrations VALUES (999, 'from the future', '2030-01-01')")
        }
    }
}
