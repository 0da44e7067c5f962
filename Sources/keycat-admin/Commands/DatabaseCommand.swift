/// `keycat-admin db`: checks and backups of the database file.
struct DatabaseCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "db",
        abstract: "Check or back up the database.",
        subcommands: [DatabaseCheckCommand.self, DatabaseBackupCommand.self])
}
