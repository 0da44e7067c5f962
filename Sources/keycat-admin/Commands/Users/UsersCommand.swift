/// `keycat-admin users`: accounts.
struct UsersCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "users", abstract: "List, show, create, suspend and reinstate accounts; set roles and passwords.",
        subcommands: [UsersListCommand.self, UsersShowCommand.self, UsersCreateCommand.self, UsersSuspendCommand.self,
                      UsersReinstateCommand.self, UsersSetRoleCommand.self, UsersResetPasswordCommand.self])
}
