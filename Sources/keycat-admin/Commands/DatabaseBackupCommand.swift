import Foundation
import KeyCat

/// `keycat-admin db backup PATH`: a consistent copy of the database, taken with SQLite's online
/// backup while servers keep writing. Refuses to overwrite anything at PATH (exit 3): remove
/// the old file or pick another name. Progress shows on a terminal only.
struct DatabaseBackupCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "backup",
        abstract: "Copy the database to a new file with SQLite's online backup (never overwrites).",
        discussion: """
            The copy is one consistent snapshot, taken without stopping writers. PATH must not
            exist (exit 3 otherwise). The PG simulator file (.pg.db) and images are not copied.
            """,
        arguments: [ArgumentSpec(name: "PATH", help: "The new backup file.")])

    let destination: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard let path = arguments.positionals.first, !path.isEmpty else {
            throw UsageError("missing PATH", commandPath: arguments.commandPath)
        }
        guard arguments.positionals.count == 1 else {
            throw UsageError("give one PATH", commandPath: arguments.commandPath)
        }
        destination = path
    }

    func run(_ context: CommandContext) throws {
        let keycat = try context.openExisting(migrate: false)
        defer { keycat.close() }
        let showProgress = context.console.isTerminal && !context.json
        var last = BackupProgress(copiedPages: 0, totalPages: 0)
        try keycat.backup(to: destination, by: context.principal) { step in
            last = step
            if showProgress {
                context.console.progress("backup: \(step.copiedPages) / \(step.totalPages) pages (\(Int(step.fraction * 100))%)")
            }
        }
        if showProgress { context.console.endProgress() }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? nil
        context.emit(
            json: .object([
                ("source", .string(context.databasePath)), ("path", .string(destination)),
                ("pages", .int(last.totalPages)), ("bytes", bytes.map { .int($0) } ?? .null),
            ]),
            human: "Backed up \(context.databasePath) to \(destination) (\(last.totalPages) pages"
                + (bytes.map { ", \($0) bytes" } ?? "") + "). Check it with: keycat-admin db check --db \(destination)")
    }
}
