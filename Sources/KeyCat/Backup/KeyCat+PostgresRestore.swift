import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// What ``restorePostgres(_:from:force:)`` did.
    public struct PostgresRestore: Sendable {
        /// The schema the URL's `search_path` names, when it names one.
        public var schema: String?
        /// Whether the backup had a manifest, verified before and compared with the rows after.
        public var verified: Bool
        /// With `force`, the withdrawals of the tables it replaced, read on the session that
        /// claimed the schema just before `pg_restore`: for ``carryForward(_:by:)``.
        public var replacedWithdrawals: ReplacedWithdrawals = .none
    }

    /// Puts a backup directory written by ``backUpPostgres(_:to:databaseOnly:)`` back (`keycat-admin
    /// db restore` on Postgres), with every server stopped: `pg_restore --single-transaction
    /// --exit-on-error --no-owner` (with `force`, also `--clean --if-exists`), so the rows are
    /// restored whole or not at all, then its PG simulator file and images beside. A backup with
    /// a `manifest.json` is verified first (every file's size and SHA-256, and a schema this
    /// build knows), and its row counts are compared with the restored rows after; a backup from
    /// before manifests is restored as it is. Without `force` it refuses (nothing changed) when
    /// the simulator file or the images folder exists beside, and `pg_restore` itself fails on
    /// tables that exist, rolling back. It refuses, whatever `force` says, while a KeyCat store
    /// (a server, a `keycat-admin` command) is open on the schema (``claimSchema(on:)``). The caller records the restore in the audit log, in the
    /// restored database (as `keycat-admin` does), and then reconciles payments.
    ///
    /// - Throws: `validation` for a directory that is not a Postgres backup, when
    ///   `pg_restore` is not on `PATH` (the message gives the commands to run instead), or while
    ///   a store is open on the schema;
    ///   `storage` when something beside exists without `force`, `pg_restore` fails, or the
    ///   restored counts differ from the manifest's.
    public static func restorePostgres(_ store: PostgresStore, from backup: String, force: Bool) throws(KeyCatError) -> PostgresRestore {
        let dump = backup + "/" + BackupManifest.postgresDumpFile
        guard FileManager.default.fileExists(atPath: dump) else {
            let sqlite = FileManager.default.fileExists(atPath: backup + "/" + BackupManifest.fileName)
            throw KeyCatError.validation("backup", sqlite
                ? "\(backup) is a SQLite backup; restore it to a SQLite file with --db PATH"
                : "\(backup) holds no \(BackupManifest.postgresDumpFile): not a backup made by db backup on Postgres")
        }
        var manifest: BackupManifest?
        if FileManager.default.fileExists(atPath: backup + "/" + BackupManifest.fileName) {
            let verified = try verifyBackup(at: backup)
            guard verified.isPostgres else {
                throw KeyCatError.validation("backup", "\(backup) is a SQLite backup; restore it to a SQLite file with --db PATH")
            }
            manifest = verified
        }
        let simulator = PGSimulator.storagePath(besideDatabase: store.filesBeside)
        let images = store.filesBeside + ".images"
        let backupSimulator = backup + "/" + BackupManifest.simulatorFile
        let backupImages = backup + "/" + BackupManifest.imagesFolder
        let connection = PostgresTool.Connection(store.url)
        let options = ["--single-transaction", "--exit-on-error", "--no-owner"] + (force ? ["--clean", "--if-exists"] : [])
        guard let pgRestore = PostgresTool.find("pg_restore") else {
            throw KeyCatError.validation("db", """
                pg_restore is not on PATH; install postgresql-client (its major version the server's or newer) or, with every server stopped, run:
                  pg_restore \(options.joined(separator: " ")) --dbname=\(PostgresTool.quoted(connection.masked)) \(PostgresTool.quoted(dump))
                  cp \(PostgresTool.quoted(backupSimulator)) \(PostgresTool.quoted(simulator))
                  mkdir -p \(PostgresTool.quoted(images)) && cp \(PostgresTool.quoted(backupImages))/* \(PostgresTool.quoted(images + "/"))
                (the password where *** stands, or in PGPASSWORD; then run keycat-admin payments reconcile)
                """)
        }
        // pg_restore writes the schema the dump names, not the one the URL's search_path names:
        // a restore meant for another schema (a staging copy beside the shop) would, with
        // --force, drop and replace the shop's own.
        let dumped = try dumpedSchema(dump, tool: pgRestore, connection: connection)
        let target = try storage { try targetSchema(of: store.url) }
        if let dumped, let target, dumped != target {
            throw KeyCatError.validation("db", "the backup holds schema \(dumped), and pg_restore would write it there, "
                + "not into \(target), which the URL names; restore with a URL whose search_path is \(dumped), "
                + "or copy the schema by hand")
        }
        let companions = [simulator, simulator + "-wal", simulator + "-shm", images].filter { FileManager.default.fileExists(atPath: $0) }
        guard force || companions.isEmpty else {
            throw KeyCatError(.storage, "\(companions.joined(separator: ", ")) already exist(s); give --force to replace them",
                              context: ["path": companions[0], "reason": "exists"])
        }
        // A server or tool still open on the schema would go on writing beside the restored rows,
        // or (with --force) find its tables dropped under it. This session takes the lock every
        // open store holds shared, or names who holds it, and keeps it until the rows are in.
        let claim = try storage { try PostgresConnection(url: store.url) }
        defer { claim.close() }
        try claimSchema(on: claim)
        if force, let manifest { try refuseOlderBackup(manifest, over: claim) }
        let replaced = force ? replacedWithdrawals(on: claim) : .none
        do {
            try pgRestore.run(options + ["--no-password", "--dbname=\(connection.url)", dump], connection: connection)
        } catch where !force {
            throw KeyCatError(error.code, error.message + "\n(nothing was changed; give --force to replace what is there)",
                              context: error.context)
        }
        try storage { try settleRestoredRows(on: store.url) }
        do {
            for path in companions { try FileManager.default.removeItem(atPath: path) }
            if FileManager.default.fileExists(atPath: backupSimulator) {
                _ = try OwnerOnlyFile.copy(from: backupSimulator, to: simulator)
            }
            try OwnerOnlyFile.createDirectory(images)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: backupImages))?.sorted() ?? [] where !name.hasPrefix(".") {
                _ = try OwnerOnlyFile.copy(from: backupImages + "/" + name, to: images + "/" + name)
            }
        } catch {
            throw KeyCatError(.storage, "the rows are restored, but the PG simulator file or the images could not be put beside them: "
                + "\(error); copy \(backupSimulator) and \(backupImages)/ by hand", context: ["path": store.filesBeside])
        }
        if let manifest {
            let counts = try storage {
                let restored = try PostgresConnection(url: store.url)
                defer { restored.close() }
                return try BackupInventory.read(on: restored).counts
            }
            guard counts == manifest.counts else {
                throw KeyCatError(.storage, "the restored rows do not match the backup's manifest: it counts \(manifest.counts), "
                    + "the database now holds \(counts); restore again with --force, or from another backup",
                    context: ["path": connection.masked, "reason": "counts"])
            }
        }
        return PostgresRestore(schema: connection.schema, verified: manifest != nil, replacedWithdrawals: replaced)
    }

    /// The withdrawals in the tables a forced restore is about to replace (none in a schema
    /// without KeyCat's accounts).
    private static func replacedWithdrawals(on session: PostgresConnection) -> ReplacedWithdrawals {
        do {
            guard try session.queryOne("SELECT to_regclass('users') IS NOT NULL", [], { $0.bool(0) }) == true else { return .none }
            return .read(try withdrawals(on: session))
        } catch {
            return .unreadable("\(error)")
        }
    }

    /// Refuses a forced restore of a backup taken at an older schema than the database's:
    /// `--clean` drops only what the dump has, so the tables of the later migrations would stay,
    /// holding foreign keys to the dropped ones (`pg_restore` fails and rolls back) or left beside
    /// rows that say the schema is older (the next open's migration fails on them). Into an empty
    /// database or schema it restores, and the next open migrates it.
    private static func refuseOlderBackup(_ manifest: BackupManifest, over connection: PostgresConnection) throws(KeyCatError) {
        let current = try storage { () throws -> Int in
            guard try connection.queryOne("SELECT to_regclass('schema_migrations') IS NOT NULL", [], { $0.bool(0) }) == true else { return 0 }
            return try connection.queryOne("SELECT coalesce(max(version), 0) FROM schema_migrations", []) { $0.int(0) } ?? 0
        }
        guard current <= manifest.schemaVersion else {
            throw KeyCatError.validation("backup", "the backup is at schema \(manifest.schemaVersion) and the database at \(current): "
                + "restoring over it would leave the later migrations' tables behind; restore into an empty database "
                + "(or a schema of its own), whose next open migrates it (nothing was changed)")
        }
    }

    /// Takes the lock every open KeyCat store holds shared on its schema
    /// (``KeyCatSchema/openStoreLockCall``) alone on `session`, for its life.
    ///
    /// - Throws: `validation` naming the sessions that hold it: a server or a `keycat-admin`
    ///   command still open on the schema.
    static func claimSchema(on session: PostgresConnection) throws(KeyCatError) {
        let free = try storage { try session.queryOne(KeyCatSchema.openStoreLockQuery, []) { $0.bool(0) } } ?? false
        guard !free else { return }
        let holders = try storage {
            try session.query(KeyCatSchema.openStoreSessionsQuery, []) { "pid \($0.int64(0)) (\($0.string(1)) from \($0.string(2)))" }
        }
        throw KeyCatError.validation("db", "KeyCat is open on this schema: \(holders.count) session(s) hold it, "
            + holders.prefix(5).joined(separator: ", ") + (holders.count > 5 ? ", …" : "")
            + "; stop every server and keycat-admin command using it, then restore (nothing was changed)")
    }

    /// What the rows need once `pg_restore` has put them back, in one session.
    ///
    /// Events are read in the order of the transactions that wrote them, by the server's own
    /// transaction ids (docs/events.md). Restored into another server whose ids have not reached
    /// them, every new event would sort before the restored ones and the webhooks' fan-out
    /// position, and no webhook would fire until the new server's ids caught up. Then the
    /// restored events are given transaction 0 — read first, in the order of their positions —
    /// and the fan-out's position with them. A subscriber's position stored before the restore
    /// means nothing after it.
    ///
    /// Then every server listening on the database is told the catalog changed, as a write of
    /// listings does: `pg_restore` loads the rows before it creates the triggers that would
    /// announce them, so a server left running (docs/operations.md says to stop them) would
    /// otherwise serve the catalog pages it kept from before the restore.
    private static func settleRestoredRows(on url: String) throws {
        let session = try PostgresConnection(url: url)
        defer { session.close() }
        // A backup from before the event log has none to renumber.
        if try session.queryOne("SELECT to_regclass('events') IS NOT NULL AND to_regclass('webhook_dispatch') IS NOT NULL", [],
                                { $0.bool(0) }) == true {
            // The fan-out's position moves first, while the events still hold their ids: to just
            // before the first event it had not fanned out, by position, the order they are read
            // in once renumbered. Events it had fanned out that lie past that position in the new
            // order (a transaction that wrote early and committed late) are fanned out again: a
            // webhook delivered twice, as a retry would, rather than one lost.
            try session.execute("""
                BEGIN;
                CREATE TEMPORARY TABLE keycat_renumbering ON COMMIT DROP AS
                    SELECT (SELECT max(transaction_id) FROM events) >= pg_snapshot_xmax(pg_current_snapshot()) AS needed;
                UPDATE webhook_dispatch d SET event_transaction = 0, event_position = coalesce(
                    (SELECT min(e.position) - 1 FROM events e
                     WHERE (e.transaction_id, e.position) > (CAST(CAST(d.event_transaction AS text) AS xid8), d.event_position)),
                    (SELECT max(position) FROM events))
                WHERE (SELECT needed FROM keycat_renumbering);
                UPDATE events SET transaction_id = '0' WHERE (SELECT needed FROM keycat_renumbering);
                COMMIT
                """)
        }
        try session.run("SELECT pg_notify(?, current_schema())", [.text(KeyCatSchema.catalogChangeChannel)])
    }

    /// The schema a dump's `products` table is in, from its table of contents
    /// (`pg_restore --list`: `…; 1259 16390 TABLE shop products owner`); nil when it has none.
    private static func dumpedSchema(_ dump: String, tool: PostgresTool, connection: PostgresTool.Connection) throws(KeyCatError) -> String? {
        let list = String(decoding: try tool.run(["--list", dump], connection: connection), as: UTF8.self)
        for line in list.split(separator: "\n") where !line.hasPrefix(";") {
            let words = line.split(separator: " ")
            if let table = words.firstIndex(of: "TABLE"), words.index(table, offsetBy: 2) < words.endIndex,
               words[words.index(table, offsetBy: 2)] == "products" {
                return String(words[words.index(after: table)])
            }
        }
        return nil
    }

    /// The schema unqualified names are created in on `url`, as Postgres picks it: the first
    /// entry of its `search_path` (the URL's `options`, else the role's or the server's), where
    /// `$user` counts only when a schema of the role's name exists (Postgres skips it
    /// otherwise, and a path of `"$user", public` creates in `public`). A schema the URL names
    /// explicitly counts whether or not it exists yet: it is where the caller means to restore.
    /// Nil when the path names nothing.
    static func targetSchema(of url: String) throws -> String? {
        let session = try PostgresConnection(url: url)
        defer { session.close() }
        guard let path = try session.queryOne(
            "SELECT current_setting('search_path'), current_user, EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = current_user)",
            [], { (path: $0.string(0), user: $0.string(1), userSchema: $0.bool(2)) }) else { return nil }
        for entry in path.path.split(separator: ",") {
            var name = entry.trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            if name == "$user" {
                if path.userSchema { return path.user }
                continue
            }
            if !name.isEmpty { return name }
        }
        return nil
    }
}
