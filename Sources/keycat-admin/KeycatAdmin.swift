import Foundation

/// `keycat-admin`: the operators' command-line tool over KeyCat's use cases (docs/architecture.md §8).
@main
enum KeycatAdmin {
    static func main() async {
        let code = await run(
            Array(CommandLine.arguments.dropFirst()), console: .system(),
            environment: ProcessInfo.processInfo.environment)
        exit(code.rawValue)
    }

    /// Parses `arguments`, runs the command, reports any error; returns the exit code.
    static func run(
        _ arguments: [String], console: Console, environment: [String: String],
        readSecret: @escaping (_ prompt: String) -> String? = { SecretInput.read(prompt: $0) }
    ) async -> ExitCode {
        let json = arguments.contains("--json")
        do {
            switch try CommandLineParser(root: RootCommand.self).parse(arguments) {
            case let .help(command, commandPath):
                console.print(HelpFormatter.help(for: command, commandPath: commandPath))
                return .success
            case let .version(globals):
                VersionPresenter.emit(json: globals.json, to: console)
                return .success
            case let .run(commandType, parsed, globals):
                let command = try commandType.init(parsing: parsed)
                let context = CommandContext(
                    globals: globals, console: console, environment: environment,
                    readSecret: readSecret)
                try await command.run(context)
                return .success
            }
        } catch let failure as CommandFailure {
            return failure.exitCode
        } catch {
            return ErrorReporter.report(error, json: json, to: console)
        }
    }
}

/// Thrown by a command that already printed its own result and only needs a non-zero exit
/// (e.g. `db check` finding problems).
struct CommandFailure: Error {
    var exitCode: ExitCode
}
