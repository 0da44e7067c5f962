import Foundation
import KeyCat
import KeyCatInfrastructure
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
            let leaving = try admin(["users", "create", "--email", "gone@example.com", "--nick", "떠난사람"], [:])
            try #require(leaving.status == 0, "\(leaving.standardError)")
            let seeded = try admin(["seed", "--file", AdminCatalogTests.seedFile], [:])
            try #require(seeded.status == 0, "\(seeded.standardError)")
            // Two listings sold out by hand: two events in the log.
            let onSale = try Self.run("/usr/bin/psql", [url, "-qAtc", "SELECT id, stock FROM products WHERE stock > 0 ORDER BY id LIMIT 2"])
                .split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
            try #require(onSale.count == 2 && onSale.allSatisfy { $0.count == 2 })
            for listing in onSale {
                let soldOut = try admin(["products", "adjust-stock", listing[0], "--by", "-" + listing[1], "--reason", "재고 실사"], [:])
                try #require(soldOut.status == 0, "\(soldOut.standardError)")
            }
            // As if the shop ran on a server whose transaction ids are far ahead of this one's but
            // for the first event's, and the webhooks' fan-out had passed that first event only:
            // the restore must renumber the events, or no new event would sort after them, and
            // move the fan-out's position with them, or it would sit past every event and fan out
            // nothing more.
            _ = try Self.run("/usr/bin/psql", [url, "-qAtc", """
                UPDATE events SET transaction_id = CAST(CASE WHEN position = (SELECT min(position) FROM events) THEN '5' ELSE '900000000000' END AS xid8);
                UPDATE webhook_dispatch SET event_transaction = 5, event_position = (SELECT min(position) FROM events)
                """])
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

            // A manifest like a SQLite backup's: the counts of the dumped snapshot, every file's checksum.
            let manifestPath = folder.appendingPathComponent("manifest.json").path
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
            #expect(manifest["store"] as? String == "postgres")
            #expect((manifest["postgres_version"] as? String)?.isEmpty == false)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(admin(["users", "list", "--json"], [:]).standardOutput.utf8))
                as? [String: Any])
            #expect((manifest["counts"] as? [String: Int])?["users"] == (listed["items"] as? [Any])?.count)
            let files = try #require(manifest["files"] as? [[String: Any]])
            let dumpEntry = try #require(files.first { $0["path"] as? String == "keycat.pgdump" })
            let digest = try Self.run("/usr/bin/sha256sum", [dump]).split(separator: " ").first.map(String.init)
            #expect(dumpEntry["sha256"] as? String == digest)
            #expect(try FileManager.default.attributesOfItem(atPath: manifestPath)[.posixPermissions] as? Int == 0o600)

            // A damaged dump is refused before anything changes; a SQLite file is no target for it.
            let damaged = directory.appendingPathComponent("damaged")
            try FileManager.default.copyItem(at: folder, to: damaged)
            var bytes = try Data(contentsOf: damaged.appendingPathComponent("keycat.pgdump"))
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: damaged.appendingPathComponent("keycat.pgdump"))
            let refusedDamaged = try admin(["db", "restore", "damaged", "--force"], [:])
            #expect(refusedDamaged.status == 3 && refusedDamaged.standardError.contains("damaged"), "\(refusedDamaged.standardError)")
            let toSQLite = try AdminProcess.run(["db", "restore", "shop-backup", "--db", "elsewhere.db"], currentDirectory: directory)
            #expect(toSQLite.status == 1 && toSQLite.standardError.contains("Postgres backup"), "\(toSQLite.standardError)")

            // Never over an existing backup.
            #expect(try admin(["db", "backup", "shop-backup"], [:]).status == 3)
            let only = try admin(["db", "backup", "rows.pgdump", "--database-only"], [:])
            #expect(only.status == 0, "\(only.standardError)")
            let onlyPath = directory.appendingPathComponent("rows.pgdump").path
            #expect(try FileManager.default.attributesOfItem(atPath: onlyPath)[.posixPermissions] as? Int == 0o600)

            // A user made after the backup is gone once it is restored over the live tables; one
            // who withdrew after it (as the API's withdrawal marks the account) stays withdrawn.
            _ = try Self.run("/usr/bin/psql", [url, "-qAtc", """
                UPDATE users SET withdrawn_at = 1764600000000, email = 'gone@withdrawn.invalid' WHERE email = 'gone@example.com'
                """])
            let later = try admin(["users", "create", "--email", "later@example.com", "--nick", "나중사람"], [:])
            try #require(later.status == 0, "\(later.standardError)")
            let refused = try admin(["db", "restore", "shop-backup"], [:])
            #expect(refused.status == 3 && refused.standardError.contains("--force"), "\(refused.standardError)")
            // A restore aimed at another schema (a staging copy) is refused: pg_restore would have
            // written the dumped schema, this shop's, even with --force.
            let staging = try AdminPostgresTests.url(schema: "keycat_staging_" + UUID().uuidString.prefix(8).lowercased())
            let elsewhere = try AdminProcess.run(["db", "restore", "shop-backup", "--force", "--db", staging], currentDirectory: directory)
            #expect(elsewhere.status == 1 && elsewhere.standardError.contains("the backup holds schema"), "\(elsewhere.standardError)")
            #expect(try admin(["users", "list", "--json"], [:]).standardOutput.contains("later@example.com"))
            #expect(try admin(["users", "list", "--json"], [:]).standardOutput.contains("later@example.com"))
            // A server left running hears that the catalog changed, and drops what it kept.
            var listening = PostgresConfiguration(url: try PostgresTestServer.requireURL())
            listening.searchPath = url.components(separatedBy: "search_path%3D").last ?? ""
            let counter = PostgresNotificationCounter(configuration: listening, channel: "keycat_catalog")
            defer { counter.close() }
            let deadline = Date().addingTimeInterval(30)
            while counter.count == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            let before = try #require(counter.count, "the listener never listened")
            // A backup from an older schema is not restored over this one: --clean would leave
            // the later migrations' tables behind.
            let older = directory.appendingPathComponent("older-backup")
            try FileManager.default.copyItem(at: folder, to: older)
            let olderManifest = older.appendingPathComponent("manifest.json")
            var fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: olderManifest)) as? [String: Any])
            fields["schema_version"] = KeyCat.latestSchemaVersion - 1
            try JSONSerialization.data(withJSONObject: fields).write(to: olderManifest)
            let refusedOlder = try admin(["db", "restore", "older-backup", "--force"], [:])
            #expect(refusedOlder.status == 1 && refusedOlder.standardError.contains("restore into an empty database"),
                    "\(refusedOlder.standardError)")
            #expect(try admin(["users", "list", "--json"], [:]).standardOutput.contains("later@example.com"))
            let restored = try admin(["db", "restore", "shop-backup", "--force"], [:])
            #expect(restored.status == 0, "\(restored.standardError)")
            while (counter.count ?? before) <= before, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect((counter.count ?? before) > before, "the restore announced no catalog change")
            #expect(restored.standardOutput.contains("Withdrawals made since the backup, made again here: 1."), "\(restored.standardOutput)")
            let users = try admin(["users", "list", "--json"], [:]).standardOutput
            #expect(users.contains("kept@example.com") && !users.contains("later@example.com"), "\(users)")
            #expect(!users.contains("gone@example.com"), "\(users)")
            // The restored events (not the withdrawal made again after them, which is new).
            let positions = try Self.run("/usr/bin/psql", [url, "-qAtc", """
                SELECT (SELECT count(*) FROM events WHERE transaction_id <> '0' AND type <> 'user.withdrawn'),
                       (SELECT event_transaction FROM webhook_dispatch),
                       (SELECT count(*) FROM events e, webhook_dispatch d WHERE e.position > d.event_position AND e.type <> 'user.withdrawn'),
                       (SELECT count(*) FROM events WHERE type <> 'user.withdrawn')
                """]).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int($0) }
            // Every event but the first is still to fan out, and they are read first, in position order.
            #expect(positions.count == 4 && positions[0] == 0 && positions[1] == 0 && positions[3] >= 2 && positions[2] == positions[3] - 1,
                    "\(positions)")
            #expect(try admin(["db", "check"], [:]).status == 0)
            #expect(try admin(["audit", "list", "--json"], [:]).standardOutput.contains("database.restore"))
            _ = url
        }
    }

    @Test("a restore is refused while a server is open on the schema, naming its sessions, and goes through once it closed")
    func refusedWhileOpen() async throws {
        try await withPostgresSchema { postgres in
            let url = try AdminPostgresTests.url(schema: postgres.searchPath ?? "public")
            try await withTemporaryDirectory { directory async throws in
                func admin(_ arguments: [String]) throws -> AdminProcess.Outcome {
                    try AdminProcess.run(arguments + ["--db", url], input: "keycat2026\n", currentDirectory: directory)
                }
                try #require(try admin(["init"]).status == 0)
                try #require(try admin(["db", "backup", "shop-backup"]).status == 0)
                let later = try admin(["users", "create", "--email", "later@example.com", "--nick", "나중사람"])
                try #require(later.status == 0, "\(later.standardError)")

                // A server, as the example server opens KeyCat, its files elsewhere.
                let files = directory.appendingPathComponent("server")
                try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
                let server = try await KeyCat.open(KeyCat.Configuration(.postgres(url: url, filesBeside: files.appendingPathComponent("keycat.db").path)))
                let refused = try admin(["db", "restore", "shop-backup", "--force"])
                #expect(refused.status == 1 && refused.standardError.contains("KeyCat is open on this schema")
                        && refused.standardError.contains("pid "), "\(refused.standardError)")
                #expect(try admin(["users", "list", "--json"]).standardOutput.contains("later@example.com"), "nothing was restored")
                server.close()

                let restored = try admin(["db", "restore", "shop-backup", "--force"])
                #expect(restored.status == 0, "\(restored.standardError)")
                #expect(!(try admin(["users", "list", "--json"]).standardOutput.contains("later@example.com")))
            }
        }
    }

    @Test("a failing pg_dump, or a refused connection, leaves no half backup and exits 3 with the message")
    func failedDump() async throws {
        try await withShop { url, directory, admin in
            let wrong = url.replacingOccurrences(of: ":keycat_test@", with: ":not-the-password@")
            try #require(wrong != url, "the test URL carries no password to spoil")
            let refused = try AdminProcess.run(["db", "backup", "spoiled", "--db", wrong], currentDirectory: directory)
            #expect(refused.status == 3)
            #expect(refused.standardError.contains("password authentication failed"), "\(refused.standardError)")
            #expect(!refused.standardError.contains("not-the-password"))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("spoiled").path))

            // pg_dump itself failing (a stand-in that exits 1) after the snapshot was taken.
            let bin = directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let fake = bin.appendingPathComponent("pg_dump").path
            try "#!/bin/sh\necho 'pg_dump: error: the disk is full' >&2\nexit 1\n".write(toFile: fake, atomically: true, encoding: .utf8)
            _ = chmod(fake, 0o755)
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let failed = try admin(["db", "backup", "spoiled"], ["PATH": path])
            #expect(failed.status == 3)
            #expect(failed.standardError.contains("pg_dump failed") && failed.standardError.contains("the disk is full"),
                    "\(failed.standardError)")
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
        let finished = try ChildProcess(executable, arguments, standardOutput: .pipe, standardError: .inherit).finish()
        guard finished.termination.succeeded else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: finished.output, as: UTF8.self)
    }
}
