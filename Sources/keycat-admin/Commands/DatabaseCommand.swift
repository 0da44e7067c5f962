/// `keycat-admin db`: checks, backups and restores of the database file.
struct DatabaseCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "db",
        abstract: "Check, back up or restore the database.",
        subcommands: [DatabaseCheckCommand.self, DatabaseBackupCommand.self, DatabaseRestoreCommand.self])
}
