/// A `keycat-admin` command: a small type that says how it looks (``configuration``), turns
/// parsed arguments into validated fields (`init(parsing:)`, before any work), and does its work
/// (``run(_:)``).
protocol AdminCommand: Sendable {
    static var configuration: CommandConfiguration { get }

    /// Validates the arguments. Throws ``UsageError`` for anything wrong, before any work.
    init(parsing arguments: ParsedArguments) throws(UsageError)

    /// Does the work. Domain errors, storage errors and I/O errors are reported by the caller.
    func run(_ context: CommandContext) async throws
}

/// A command that only groups subcommands: running it without one is a usage error.
protocol CommandGroup: AdminCommand {}

extension CommandGroup {
    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let names = Self.configuration.subcommands.map { $0.configuration.name }
        throw UsageError(
            "'\(arguments.commandPath)' needs a subcommand: \(names.joined(separator: ", "))",
            commandPath: arguments.commandPath)
    }

    func run(_ context: CommandContext) async throws {}
}
