import Foundation
import KeyCat

extension DatabaseRestoreCommand {
    /// `db restore` on Postgres: ``KeyCat/restorePostgres(_:from:force:)`` (`pg_restore` in one
    /// transaction, the simulator's file and the images beside, the manifest's counts checked),
    /// then the restore is written to the audit log of the restored database.
    func runPostgres(_ context: CommandContext) async throws {
        let restored = try KeyCat.restorePostgres(KeyCat.PostgresStore(url: context.databasePath, filesBeside: context.filesBeside),
                                                  from: backup, force: force)
        var configuration = context.configuration()
        configuration.migrates = false
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "database.restore", target: context.databaseName,
            detail: "from \(backup) with pg_restore" + (force ? ", replacing the existing tables" : ""),
            at: keycat.configuration.clock.now()))
        let carried = try await carry(restored.replacedWithdrawals, into: keycat, context)
        context.emit(
            json: .object([
                ("path", .string(context.databaseName)), ("backup", .string(backup)), ("store", .string("postgres")),
                ("schema", restored.schema.map { .string($0) } ?? .null), ("replaced", .bool(force)),
                ("verified", .bool(restored.verified)),
            ] + carried.json),
            human: "Restored \(backup) to \(context.databaseName) with pg_restore"
                + (restored.schema.map { " (schema \($0))" } ?? "") + ", with the PG simulator file and images beside."
                + carried.human + "\nNext: keycat-admin payments reconcile --db URL")
    }
}
