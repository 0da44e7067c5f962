import Foundation
import KeyCat

extension DatabaseBackupCommand {
    /// `db backup` on Postgres: ``KeyCat/backUpPostgres(_:to:databaseOnly:)`` (`pg_dump` in one
    /// exported snapshot, the simulator's file, the images from before they moved into the
    /// database, a manifest), then what it wrote.
    func runPostgres(_ context: CommandContext) throws {
        let backup = try KeyCat.backUpPostgres(KeyCat.PostgresStore(url: context.databasePath, filesBeside: context.filesBeside),
                                               to: destination, databaseOnly: databaseOnly)
        context.emit(
            json: .object([
                ("source", .string(context.databaseName)), ("path", .string(destination)), ("store", .string("postgres")),
                ("dump", .string(backup.dumpPath)), ("dump_bytes", backup.dumpBytes.map { .int($0) } ?? .null),
                ("schema", backup.schema.map { .string($0) } ?? .null),
                ("simulator_payments", backup.simulatorPayments.map { .int($0) } ?? .null), ("images", .int(backup.images)),
                ("counts", backup.manifest.map { manifest in
                    .object(manifest.counts.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
                } ?? .null),
                ("manifest", backup.manifest == nil ? .null : .string(destination + "/" + BackupManifest.fileName)),
            ]),
            human: "Backed up \(context.databaseName) to \(destination)" + (databaseOnly ? "" : "/")
                + ": pg_dump " + (backup.schema.map { "of schema \($0) " } ?? "") + "(\(backup.dumpBytes ?? 0) bytes)"
                + (databaseOnly ? "" : (backup.simulatorPayments.map { ", PG simulator (\($0) payments)" } ?? ", no PG simulator file")
                    + ", \(backup.images) image file(s) from before images moved into the database, manifest.json")
                + (databaseOnly
                    // db restore takes a backup directory; a dump alone goes back with pg_restore.
                    ? ".\nRestore it with every server stopped: pg_restore --single-transaction --exit-on-error --no-owner "
                        + "--dbname=URL \(destination), then keycat-admin payments reconcile --db URL"
                    : ".\nRestore it with: keycat-admin db restore \(destination) --db URL"))
    }
}
