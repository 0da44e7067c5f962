/// `keycat-admin audit`: reading the audit log of operator actions.
struct AuditCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "audit", abstract: "Read the audit log of operator actions.",
        subcommands: [AuditListCommand.self])
}
