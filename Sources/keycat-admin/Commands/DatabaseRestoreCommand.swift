import Foundation
import KeyCat

/// `keycat-admin db restore BACKUP [--force]`: puts a backup directory back as the database at
/// `--db` (with its simulator file and images folder), after proving it intact. Refuses, changing
/// nothing, when the target database or any companion exists and `--force` is not given: exit 3,
/// like every other refusal to overwrite a file (`db backup`, `orders export --output`). On
/// Postgres the rows go back through `pg_restore` (``runPostgres(_:)``).
struct DatabaseRestoreCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "restore",
        abstract: "Restore a backup directory as the database at --db, with its PG simulator file and images.",
        discussion: """
            Verifies the manifest and every checksum, copies the backup beside the target, runs
            the db check on the copy and compares its row counts with the manifest before
            anything is put in place. Refuses (exit 3, nothing changed) when the target database,
            its -wal/-shm, its .pg.db or its .images folder exists, unless --force. Stop servers
            using the target first. Afterwards run 'payments reconcile': the PG simulator copy
            may know of payments made just after the database was copied. On Postgres
            (--db postgres://…), a backup from 'db backup' there goes back with pg_restore in one
            transaction (--force adds --clean --if-exists; without it, existing tables make it
            fail and roll back, exit 3); without pg_restore on PATH the commands are printed.
            With --force, the accounts withdrawn in the database being replaced are withdrawn
            again in the restored one, so a restore brings back nobody who asked to be erased;
            those it cannot withdraw (a seller with parcels to see through) are listed.
            """,
        arguments: [ArgumentSpec(name: "BACKUP", help: "A directory written by 'db backup'.")],
        flags: [FlagSpec(name: "force", help: "Replace an existing database and its companions.")])

    let backup: String
    let force: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard let path = arguments.positionals.first, !path.isEmpty else {
            throw UsageError("missing BACKUP", commandPath: arguments.commandPath)
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError("give one BACKUP", commandPath: arguments.commandPath)
        }
        backup = path
        force = arguments.flag("force")
    }

    func run(_ context: CommandContext) async throws {
        if context.isPostgres { return try await runPostgres(context) }
        let replaced = await replacedWithdrawals(context)
        let manifest = try await KeyCat.restoreBackup(from: backup, toDatabaseAt: context.databasePath, force: force)
        // The audit entry goes into the restored database: it is the one that lives on.
        var configuration = KeyCat.Configuration(databasePath: context.databasePath)
        configuration.createIfMissing = false
        configuration.migrates = false
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "database.restore", target: context.databasePath,
            detail: "from \(backup) taken \(manifest.createdAt.formatted(.iso8601)) (schema version \(manifest.schemaVersion))"
                + (force ? ", replacing the existing files" : ""),
            at: keycat.configuration.clock.now()))
        let carried = try await carry(replaced, into: keycat, context)
        let counts = manifest.counts.sorted { $0.key < $1.key }
        context.emit(
            json: .object([
                ("path", .string(context.databasePath)), ("backup", .string(backup)),
                ("created_at", .string(manifest.createdAt.formatted(.iso8601))), ("schema_version", .int(manifest.schemaVersion)),
                ("counts", .object(counts.map { ($0.key, .int($0.value)) })),
                ("simulator_payments", manifest.simulatorPayments.map { .int($0) } ?? .null),
                ("images", .int(manifest.images)), ("replaced", .bool(force)),
            ] + carried.json),
            human: "Restored \(backup) (taken \(manifest.createdAt.formatted(.iso8601))) to \(context.databasePath): "
                + counts.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ", \(manifest.images) image(s)"
                + (manifest.simulatorPayments.map { ", PG simulator with \($0) payments" } ?? ", no PG simulator file")
                + "." + carried.human + "\nNext: keycat-admin payments reconcile --db \(context.databasePath)")
    }
}
