/// The command line itself is wrong: unknown command or option, missing or malformed value.
/// Reported in one line with a pointer to `--help`; exit code 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    /// The command whose `--help` explains the fix, e.g. `keycat-admin db`.
    var commandPath: String

    init(_ message: String, commandPath: String = "keycat-admin") {
        self.message = message
        self.commandPath = commandPath
    }

    var description: String { message }
}
