import Foundation
@testable import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// SQLite only: backups and restores of the file (on Postgres, `pg_dump`).
@Suite("keycat-admin db backup and db restore as processes")
struct AdminRestoreTests {
    /// The bytes of every file at `paths` (nil where there is none), to prove a refusal wrote nothing.
    static func snapshot(_ paths: [String]) -> [Data?] { paths.map { FileManager.default.contents(atPath: $0) } }

    @Test("backup the demo to a directory, restore it elsewhere: db check passes, counts match, a refund still works")
    func roundTrip() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0, "\(demo.standardError)")
            let backup = directory.appendingPathComponent("nightly").path
            let taken = try AdminProcess.run(["db", "backup", backup, "--db", path, "--json"])
            #expect(taken.status == 0, "\(taken.standardError)")
            #expect(taken.standardError.isEmpty)
            let summary = try jsonObject(taken.standardOutput)
            #expect(summary["simulator_payments"] as? Int ?? 0 > 0)
            for name in ["keycat.db", "keycat.pg.db", "images", "manifest.json"] {
                #expect(FileManager.default.fileExists(atPath: backup + "/" + name), "\(name)")
            }

            let target = directory.appendingPathComponent("restored.db").path
            let restored = try AdminProcess.run(["db", "restore", backup, "--db", target, "--json"])
            #expect(restored.status == 0, "\(restored.standardError)")
            let report = try jsonObject(restored.standardOutput)
            #expect(report["counts"] as? [String: Int] == summary["counts"] as? [String: Int])
            let check = try AdminProcess.run(["db", "check", "--db", target, "--json"])
            #expect(check.status == 0, "\(check.standardOutput)")
            #expect(try jsonObject(check.standardOutput)["permissions"] as? [String] == [])
            let audit = try AdminProcess.run(["audit", "list", "--db", target, "--json"])
            #expect(audit.standardOutput.contains("database.restore"))

            let orders = try jsonObject(try AdminProcess.run(["orders", "list", "--db", target, "--json"]).standardOutput)
            let order = try #require((orders["items"] as? [[String: Any]])?.first { $0["status"] as? String == "partially_refunded" })
            let id = try #require(order["id"] as? Int)
            let refund = try AdminProcess.run(["orders", "refund", "\(id)", "--reason", "restore drill", "--db", target, "--json"])
            #expect(refund.status == 0, "\(refund.standardError)")
            #expect(try jsonObject(refund.standardOutput)["status"] as? String == "refunded")
            // The live shop's order is untouched: the restored simulator is a separate file.
            let live = try jsonObject(try AdminProcess.run(["orders", "show", "\(id)", "--db", path, "--json"]).standardOutput)
            #expect(live["status"] as? String == "partially_refunded")
        }
    }

    @Test("restore refuses an existing database with exit 3 and leaves it byte for byte; --force replaces it")
    func refusal() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0, "\(demo.standardError)")
            let backup = directory.appendingPathComponent("nightly").path
            #expect(try AdminProcess.run(["db", "backup", backup, "--db", path]).status == 0)
            let target = directory.appendingPathComponent("live.db").path
            #expect(try AdminProcess.run(["init", "--db", target]).status == 0)
            try Data("simulator state".utf8).write(to: URL(fileURLWithPath: directory.appendingPathComponent("live.pg.db").path))
            let parts = ["", "-wal", "-shm"].map { target + $0 } + [directory.appendingPathComponent("live.pg.db").path]
            let before = Self.snapshot(parts)

            let refused = try AdminProcess.run(["db", "restore", backup, "--db", target, "--json"])
            #expect(refused.status == 3)
            #expect(refused.standardOutput.isEmpty)
            let error = try jsonObject(refused.standardError)["error"] as? [String: Any]
            #expect(error?["code"] as? String == "storage")
            #expect((error?["message"] as? String)?.contains("--force") == true)
            #expect(Self.snapshot(parts) == before)
            #expect(!FileManager.default.fileExists(atPath: target + ".images"))

            let forced = try AdminProcess.run(["db", "restore", backup, "--db", target, "--force"])
            #expect(forced.status == 0, "\(forced.standardError)")
            #expect(try AdminProcess.run(["db", "check", "--db", target]).status == 0)
            let orders = try jsonObject(try AdminProcess.run(["orders", "list", "--db", target, "--json"]).standardOutput)
            #expect((orders["items"] as? [[String: Any]])?.isEmpty == false)
        }
    }

    @Test("a forced restore is refused while another process has the database open, and goes through once it closed")
    func refusedWhileOpen() throws {
        try withTemporaryDirectory { directory in
            let (path, demo) = try runDemo(in: directory)
            #expect(demo.status == 0, "\(demo.standardError)")
            let backup = directory.appendingPathComponent("nightly").path
            #expect(try AdminProcess.run(["db", "backup", backup, "--db", path]).status == 0)
            let target = directory.appendingPathComponent("live.db").path
            #expect(try AdminProcess.run(["init", "--db", target]).status == 0)

            // A server: another process with a connection open on the file (Python's sqlite3,
            // as any SQLite client holds it in WAL mode).
            let server = try ChildProcess("/usr/bin/python3", ["-c", """
                import sqlite3, sys, time
                connection = sqlite3.connect(sys.argv[1])
                connection.execute("SELECT count(*) FROM sqlite_schema").fetchall()
                time.sleep(120)
                """, target], environment: ["PATH": "/usr/bin:/bin"])
            defer { server.signal(SIGKILL); _ = server.wait() }
            let deadline = Date().addingTimeInterval(30)
            while !SQLiteFileUse.isOpen(target), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(SQLiteFileUse.isOpen(target))
            let before = Self.snapshot([target])
            let refused = try AdminProcess.run(["db", "restore", backup, "--db", target, "--force"])
            #expect(refused.status == 1 && refused.standardError.contains("is open"), "\(refused.standardError)")
            #expect(Self.snapshot([target]) == before)

            server.signal(SIGTERM)
            _ = server.wait()
            #expect(!SQLiteFileUse.isOpen(target))
            let forced = try AdminProcess.run(["db", "restore", backup, "--db", target, "--force"])
            #expect(forced.status == 0, "\(forced.standardError)")
        }
    }

    @Test("a forced restore over the shop's database withdraws again whoever withdrew since the backup, and says so")
    func withdrawalsCarried() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            for (email, nick) in [("kim@example.com", "김키캣"), ("lee@example.com", "이키캣")] {
                let created = try AdminProcess.run(["users", "create", "--db", path, "--email", email, "--nick", nick], input: "keycat2026\n")
                #expect(created.status == 0, "\(created.standardError)")
            }
            let backup = directory.appendingPathComponent("nightly").path
            #expect(try AdminProcess.run(["db", "backup", backup, "--db", path]).status == 0)
            // Kim withdraws after the backup (as the API's withdrawal marks the account).
            let database = try SQLiteDatabase(path: path)
            let kim = try database.blockingWrite { connection in
                try connection.run("UPDATE users SET withdrawn_at = 1764600000000, email = 'user-1@withdrawn.invalid' WHERE email = 'kim@example.com'", [])
                return try connection.queryOne("SELECT id FROM users WHERE withdrawn_at IS NOT NULL", []) { $0.int(0) }
            }
            database.close()

            let restored = try AdminProcess.run(["db", "restore", backup, "--db", path, "--force", "--json"])
            #expect(restored.status == 0, "\(restored.standardError)")
            let report = try jsonObject(restored.standardOutput)
            #expect(report["withdrawals_carried"] as? [Int] == [try #require(kim)])
            #expect((report["withdrawals_refused"] as? [Any])?.isEmpty == true)
            let users = try AdminProcess.run(["users", "list", "--db", path, "--json"]).standardOutput
            #expect(!users.contains("kim@example.com") && users.contains("lee@example.com"), "\(users)")
            let human = try AdminProcess.run(["db", "restore", backup, "--db", path, "--force"])
            #expect(human.standardOutput.contains("Withdrawals made since the backup, made again here: 1."), "\(human.standardOutput)")
            // A damaged database is replaced all the same, and the operator is told its withdrawals could not be read.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: path))
            let overDamaged = try AdminProcess.run(["db", "restore", backup, "--db", path, "--force", "--json"])
            #expect(overDamaged.status == 0, "\(overDamaged.standardError)")
            #expect(try jsonObject(overDamaged.standardOutput)["withdrawals_unread"] is String, "\(overDamaged.standardOutput)")
        }
    }

    @Test("a damaged backup is refused with exit 3 and nothing is created")
    func damaged() throws {
        try withTemporaryDirectory { directory in
            let (path, _) = try runDemo(in: directory)
            let backup = directory.appendingPathComponent("nightly").path
            #expect(try AdminProcess.run(["db", "backup", backup, "--db", path]).status == 0)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: backup + "/keycat.db"))
            try handle.seek(toOffset: 5_000)
            try handle.write(contentsOf: Data([0xAB]))
            try handle.close()
            let target = directory.appendingPathComponent("restored.db").path
            let outcome = try AdminProcess.run(["db", "restore", backup, "--db", target])
            #expect(outcome.status == 3)
            #expect(outcome.standardError.contains("does not match the manifest"))
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    @Test("init creates an owner-only database under umask 022, and db check warns (exit 0) once it is not")
    func permissions() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            let previous = umask(0o022)
            let created = try AdminProcess.run(["init", "--db", path])
            umask(previous)
            #expect(created.status == 0)
            #expect(FilePermissions.mode(of: path) == 0o600)
            #expect(chmod(path, 0o644) == 0)
            let check = try AdminProcess.run(["db", "check", "--db", path, "--json"])
            #expect(check.status == 0)
            let warnings = try #require(try jsonObject(check.standardOutput)["permissions"] as? [String])
            #expect(warnings.contains { $0.contains("chmod 600 '\(path)'") })
            // SQLite gives the -wal and -shm it creates the main file's mode, so they are named too.
            #expect(warnings.contains { $0.contains("chmod 600 '\(path)-wal'") })
            let human = try AdminProcess.run(["db", "check", "--db", path])
            #expect(human.status == 0)
            #expect(human.standardOutput.contains("permissions: \(warnings.count) warning(s)"))
        }
    }
}
