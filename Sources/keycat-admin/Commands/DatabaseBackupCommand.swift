import Foundation
import KeyCat
import KeyCatPGSimulator

/// `keycat-admin db backup PATH [--database-only]`: the whole shop into a new directory
/// (database, PG simulator file, images, `manifest.json` with counts and checksums), taken while
/// servers keep writing; with `--database-only`, the database alone into a new file. Refuses
/// to overwrite anything at PATH (exit 3). Progress shows on a terminal only. On Postgres the
/// rows go through `pg_dump` (``runPostgres(_:)``).
struct DatabaseBackupCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "backup",
        abstract: "Back up the database, the PG simulator file and the images into a new directory.",
        discussion: """
            PATH becomes a directory (0700) holding keycat.db, keycat.pg.db, images/ and
            manifest.json (versions, row counts, SHA-256 of every file, time). The database is
            one consistent snapshot taken without stopping writers; the simulator is copied a
            moment later and the images the snapshot references last. PATH must not exist
            (exit 3 otherwise). Restore it with 'keycat-admin db restore PATH --db TARGET'.
            On Postgres, pg_dump --format=custom writes keycat.pgdump instead of keycat.db (of the
            schema the URL's search_path names, if any), with a manifest; a failed pg_dump
            removes PATH (exit 3). Without pg_dump on PATH, the commands to run are printed.
            """,
        arguments: [ArgumentSpec(name: "PATH", help: "The new backup directory (or file, with --database-only).")],
        flags: [FlagSpec(name: "database-only", help: "Copy only the database, into a new file at PATH.")])

    let destination: String
    let databaseOnly: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard let path = arguments.positionals.first, !path.isEmpty else {
            throw UsageError("missing PATH", commandPath: arguments.commandPath)
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError("give one PATH", commandPath: arguments.commandPath)
        }
        destination = path
        databaseOnly = arguments.flag("database-only")
    }

    func run(_ context: CommandContext) async throws {
        if context.isPostgres { return try runPostgres(context) }
        let keycat = try await context.openForReading(allowOutdated: true)
        defer { keycat.close() }
        let showProgress = context.console.isTerminal && !context.json
        var last = BackupProgress(copiedPages: 0, totalPages: 0)
        let report: (BackupProgress) -> Void = { step in
            last = step
            if showProgress {
                context.console.progress("backup: \(step.copiedPages) / \(step.totalPages) pages (\(Int(step.fraction * 100))%)")
            }
        }
        if databaseOnly {
            try await keycat.backup(to: destination, by: context.principal, progress: report)
        } else {
            let manifest = try await keycat.createBackup(in: destination, by: context.principal, progress: report)
            if showProgress { context.console.endProgress() }
            return emit(manifest, pages: last.totalPages, context)
        }
        if showProgress { context.console.endProgress() }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? nil
        context.emit(
            json: .object([
                ("source", .string(context.databaseName)), ("path", .string(destination)),
                ("pages", .int(last.totalPages)), ("bytes", bytes.map { .int($0) } ?? .null),
            ]),
            human: "Backed up \(context.databaseName) to \(destination) (\(last.totalPages) pages"
                + (bytes.map { ", \($0) bytes" } ?? "") + "). Check it with: keycat-admin db check --db \(destination)")
    }

    private func emit(_ manifest: BackupManifest, pages: Int, _ context: CommandContext) {
        let counts = manifest.counts.sorted { $0.key < $1.key }
        context.emit(
            json: .object([
                ("source", .string(context.databaseName)), ("path", .string(destination)), ("pages", .int(pages)),
                ("schema_version", .int(manifest.schemaVersion)),
                ("counts", .object(counts.map { ($0.key, .int($0.value)) })),
                ("simulator_payments", manifest.simulatorPayments.map { .int($0) } ?? .null),
                ("images", .int(manifest.images)), ("missing_images", .array(manifest.missingImages.map(JSONValue.string))),
                ("files", .int(manifest.files.count)),
            ]),
            human: "Backed up \(context.databaseName) to \(destination)/: database (\(pages) pages; "
                + counts.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + "), "
                + (manifest.simulatorPayments.map { "PG simulator (\($0) payments), " } ?? "no PG simulator file, ")
                + "\(manifest.images) image(s)"
                + (manifest.missingImages.isEmpty ? "" : " (\(manifest.missingImages.count) referenced image(s) were missing)")
                + ".\nRestore it with: keycat-admin db restore \(destination) --db TARGET")
    }
}
