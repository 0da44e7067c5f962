/// What a command looks like on the command line: its name, help text, options, flags,
/// positional arguments and subcommands. The parser and the help text are both generated from
/// it, so they cannot disagree.
struct CommandConfiguration: Sendable {
    /// The word that selects the command, e.g. `check` in `keycat-admin db check`.
    var name: String
    /// One line for the parent's command list and the top of `--help`.
    var abstract: String
    /// More text for `--help`, after the usage line.
    var discussion: String = ""
    /// Positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// Options that take a value (`--limit 20`, `--limit=20`).
    var options: [OptionSpec] = []
    /// Options without a value (`--restock`).
    var flags: [FlagSpec] = []
    /// Subcommands; a command with subcommands only groups them.
    var subcommands: [any AdminCommand.Type] = []
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isOptional = false
}

/// An option with a value.
struct OptionSpec: Sendable {
    var name: String
    var valueName: String
    var help: String
    var isRequired = false
}

/// A flag: present or not.
struct FlagSpec: Sendable {
    var name: String
    var help: String
}

/// The options every command accepts, defined once.
enum GlobalOptions {
    static let database = OptionSpec(
        name: "db", valueName: "PATH",
        help: "The database file (else $KEYCAT_DB, else ./keycat.db).")
    static let json = FlagSpec(name: "json", help: "Machine-readable output on stdout; errors as JSON on stderr.")
    static let help = FlagSpec(name: "help", help: "Show help for this command.")
    static let version = FlagSpec(name: "version", help: "Show the versions of KeyCat, its schema, SQLite and OpenSSL.")

    static let options = [database]
    static let flags = [json, help, version]
}
