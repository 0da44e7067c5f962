/// `keycat-admin users`: accounts.
struct UsersCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "users", abstract: "List, show and create accounts.",
        subcommands: [UsersListCommand.self, UsersShowCommand.self, UsersCreateCommand.self])
}
