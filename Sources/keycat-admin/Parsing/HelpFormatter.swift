/// Writes `--help` text from a command's configuration.
enum HelpFormatter {
    static func help(for command: any AdminCommand.Type, commandPath: String) -> String {
        let configuration = command.configuration
        var lines: [String] = []
        lines.append(configuration.abstract)
        lines.append("")

        var usage = "Usage: \(commandPath)"
        if !configuration.subcommands.isEmpty {
            usage += " <command>"
            if !configuration.arguments.isEmpty {
                // A command that also runs on its own (`search`): one line for each way.
                lines.append(usage + " …")
                usage = "       \(commandPath)"
            }
        }
        for argument in configuration.arguments {
            usage += argument.isOptional ? " [\(argument.name)]" : " <\(argument.name)>"
        }
        for option in configuration.options {
            usage += option.isRequired
                ? " --\(option.name) \(option.valueName)"
                : " [--\(option.name) \(option.valueName)]"
        }
        for flag in configuration.flags { usage += " [--\(flag.name)]" }
        usage += " [--db PATH] [--json]"
        lines.append(usage)

        if !configuration.discussion.isEmpty {
            lines.append("")
            lines.append(configuration.discussion)
        }

        var rows: [(String, String)] = []
        if !configuration.subcommands.isEmpty {
            lines.append("")
            lines.append("Commands:")
            rows = configuration.subcommands.map { ($0.configuration.name, $0.configuration.abstract) }
            lines.append(contentsOf: aligned(rows))
        }
        if !configuration.arguments.isEmpty {
            lines.append("")
            lines.append("Arguments:")
            lines.append(contentsOf: aligned(configuration.arguments.map { ("<\($0.name)>", $0.help) }))
        }
        lines.append("")
        lines.append("Options:")
        rows = configuration.options.map { ("--\($0.name) \($0.valueName)", $0.help) }
            + configuration.flags.map { ("--\($0.name)", $0.help) }
            + GlobalOptions.options.map { ("--\($0.name) \($0.valueName)", $0.help) }
            + GlobalOptions.flags.map { ("--\($0.name)", $0.help) }
        lines.append(contentsOf: aligned(rows))
        if !configuration.subcommands.isEmpty {
            lines.append("")
            lines.append("Run '\(commandPath) <command> --help' for a command's own options.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func aligned(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { name, help in
            "  " + name + String(repeating: " ", count: width - name.count + 2) + help
        }
    }
}
