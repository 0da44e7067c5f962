import Foundation
import KeyCatTestSupport
import Testing

/// `db backup` and `db restore` on Postgres hand the rows to the real `pg_dump` and `pg_restore`
/// (Debian's postgresql-client, installed with the server by `scripts/postgres`), and say what to
/// run when those are not on `PATH`.
@Suite("keycat-admin db backup and restore on Postgres",
       .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
struct AdminPostgresBackupTests {
    /// Runs `body` with a fresh schema's URL, initialised, and a working directory for the files
    /// kept beside it.
    func withShop(_ body: (String, URL, ([String], [String: String]) throws -> AdminProcess.Outcome) throws -> Void) async throws {
        try await withPostgresSchema { postgres in
            let url = try AdminPostgresTests.url(schema: postgres.searchPath ?? "public")
            try withTemporaryDirectory { directory in
                func admin(_ arguments: [String], _ environment: [String: String]) throws -> AdminProcess.Outcome {
                    try AdminProcess.run(arguments + ["--db", url], input: "keycat2026\n", environment: environment,
                                         currentDirectory: directory)
                }
                let initialised = try admin(["init"], [:])
                try #require(initialised.status == 0, "\(initialised.standardError)")
                try body(url, directory, admin)
            }
        }
    }

    @Test("backup runs pg_dump into a new owner-only directory beside the simulator file and images; restore --force puts it back")
    func backupAndRestore() async throws {
        try await withShop { url, directory, admin in
            let created = try admin(["users", "create", "--email", "kept@example.com", "--nick", "남는사람"], [:])
            try #require(created.status == 0, "\(created.standardError)")
            let backup = try admin(["db", "backup", "shop-backup", "--json"], [:])
            try #require(backup.status == 0, "\(backup.standardError)")
            #expect(!(backup.standardOutput + backup.standardError).contains(":keycat_test@"))
            let folder = directory.appendingPathComponent("shop-backup")
            let dump = folder.appendingPathComponent("keycat.pgdump").path
            let mode = try FileManager.default.attributesOfItem(atPath: dump)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("images").path))
            // The dump is pg_dump's custom format: pg_restore can list it.
            let listing = try Self.run("/usr/bin/pg_restore", ["--list", dump])
            #expect(listing.contains("TABLE") && listing.contains("orders"), "\(listing)")

            // Never over an existing backup.
            #expect(try admin(["db", "backup", "shop-backup"], [:]).status == 3)
            let only = try admin(["db", "backup", "rows.pgdump", "--database-only"], [:])
            #expect(only.status == 0, "\(only.standardError)")

            // A user made after the backup is gone once it is restored over the live tables.
            let later = try admin(["users", "create", "--email", "later@example.com", "--nick", "나중사람"], [:])
            try #require(later.status == 0, "\(later.standardError)")
            let refused = try admin(["db", "restore", "shop-backup"], [:])
            #expect(refused.status == 3 && refused.standardError.contains("--force"), "\(refused.standardError)")
            #expect(try admin(["users", "list", "--json"], [:]).standardOutput.contains("later@example.com"))
            let restored = try admin(["db", "restore", "shop-backup", "--force"], [:])
            #expect(restored.status == 0, "\(restored.standardError)")
            let users = try admin(["users", "list", "--json"], [:]).standardOutput
            #expect(users.contains("kept@example.com") && !users.contains("later@example.com"), "\(users)")
            #expect(try admin(["db", "check"], [:]).status == 0)
            #expect(try admin(["audit", "list", "--json"], [:]).standardOutput.contains("database.restore"))
            _ = url
        }
    }

    @Test("a failing pg_dump leaves no half backup and exits 3 with its message")
    func failedDump() async throws {
        try await withShop { url, directory, _ in
            let wrong = url.replacingOccurrences(of: ":keycat_test@", with: ":not-the-password@")
            try #require(wrong != url, "the test URL carries no password to spoil")
            let outcome = try AdminProcess.run(["db", "backup", "spoiled", "--db", wrong], currentDirectory: directory)
            #expect(outcome.status == 3)
            #expect(outcome.standardError.contains("pg_dump failed"), "\(outcome.standardError)")
            #expect(!outcome.standardError.contains("not-the-password"))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("spoiled").path))
        }
    }

    @Test("without pg_dump or pg_restore on PATH, backup and restore say exactly what to run and do nothing")
    func toolsMissing() async throws {
        try await withShop { _, directory, admin in
            let backup = try admin(["db", "backup", "by-hand"], ["PATH": "/nonexistent"])
            #expect(backup.status == 1)
            #expect(backup.standardError.contains("pg_dump --format=custom --schema=keycat_test_"), "\(backup.standardError)")
            #expect(backup.standardError.contains("keycat.pgdump") && backup.standardError.contains("***"))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("by-hand").path))

            #expect(try admin(["db", "backup", "real"], [:]).status == 0)
            let restore = try admin(["db", "restore", "real"], ["PATH": "/nonexistent"])
            #expect(restore.status == 1)
            #expect(restore.standardError.contains("pg_restore --single-transaction"), "\(restore.standardError)")
        }
    }

    /// Runs a program and answers its standard output; throws when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: data, as: UTF8.self)
    }
}
