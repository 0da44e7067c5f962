/// What the command line asked for.
enum ParseResult {
    /// Run `command` with `arguments`.
    case run(any AdminCommand.Type, ParsedArguments, GlobalSettings)
    /// Print help for the command at `commandPath`.
    case help(any AdminCommand.Type, commandPath: String)
    /// Print the versions of KeyCat, its schema and the libraries it runs on.
    case version(GlobalSettings)
}

/// The global options, wherever they appeared on the line.
struct GlobalSettings: Equatable {
    var databasePath: String?
    var json = false
}

/// Parses `keycat-admin` command lines against the tree of ``CommandConfiguration``s.
///
/// Global options (`--db`, `--json`, `--help`, `--version`) are accepted before or after the subcommand
/// words; `--name value` and `--name=value` are both accepted; `--` ends option parsing.
/// An unknown word or option is a ``UsageError`` that names the closest valid one. A command
/// with both subcommands and arguments (`search "갈축"`, `search explain "갈축"`) runs itself
/// when its first word names no subcommand; after `--` every word is an argument, so
/// `search -- explain` searches for the word.
struct CommandLineParser {
    let root: any AdminCommand.Type

    func parse(_ words: [String]) throws(UsageError) -> ParseResult {
        var command = root
        var path = root.configuration.name
        var parsed = ParsedArguments(commandPath: path)
        var globals = GlobalSettings()
        var wantsHelp = false
        var wantsVersion = false
        var onlyPositionals = false
        var index = 0

        while index < words.count {
            let word = words[index]
            index += 1
            let configuration = command.configuration

            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                if !onlyPositionals, !configuration.subcommands.isEmpty, parsed.positionals.isEmpty {
                    if let sub = configuration.subcommands.first(where: { $0.configuration.name == word }) {
                        command = sub
                        path += " " + word
                        parsed.commandPath = path
                        try requireDeclared(parsed, by: sub.configuration, path: path)
                        continue
                    }
                    // A command that also runs on its own (`search "갈축"`) takes any other word as
                    // its first argument; a group only has its subcommands.
                    guard !configuration.arguments.isEmpty else {
                        let names = configuration.subcommands.map { $0.configuration.name }
                        var message = "unknown command '\(word)' for '\(path)'"
                        if let near = closestMatch(to: word, in: names) { message += "; did you mean '\(near)'?" }
                        throw UsageError(message, commandPath: path)
                    }
                }
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            if word == "-h" {
                wantsHelp = true
                continue
            }
            guard word.hasPrefix("--") else {
                throw UsageError("unknown option '\(word)' for '\(path)' (options are spelt --name)", commandPath: path)
            }

            let body = word.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }

            let options = configuration.options + GlobalOptions.options
            let flags = configuration.flags + GlobalOptions.flags
            if options.contains(where: { $0.name == name }) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < words.count, !words[index].hasPrefix("--") else {
                        let valueName = options.first { $0.name == name }?.valueName ?? "VALUE"
                        throw UsageError("--\(name) needs a value (\(valueName))", commandPath: path)
                    }
                    value = words[index]
                    index += 1
                }
                // A second value would silently replace the first: say so instead.
                if name == GlobalOptions.database.name {
                    guard !value.isEmpty else { throw UsageError("--db needs a path", commandPath: path) }
                    guard globals.databasePath == nil else { throw UsageError("--db is given twice", commandPath: path) }
                    globals.databasePath = value
                } else {
                    guard parsed.options[name] == nil else { throw UsageError("--\(name) is given twice", commandPath: path) }
                    parsed.options[name] = value
                }
            } else if flags.contains(where: { $0.name == name }) {
                guard inlineValue == nil else {
                    throw UsageError("--\(name) takes no value", commandPath: path)
                }
                switch name {
                case GlobalOptions.json.name: globals.json = true
                case GlobalOptions.help.name: wantsHelp = true
                case GlobalOptions.version.name: wantsVersion = true
                default: parsed.flags.insert(name)
                }
            } else {
                let names = (options.map(\.name) + flags.map(\.name))
                var message = "unknown option '--\(name)' for '\(path)'"
                if let near = closestMatch(to: name, in: names) { message += "; did you mean '--\(near)'?" }
                throw UsageError(message, commandPath: path)
            }
        }

        if wantsHelp { return .help(command, commandPath: path) }
        if wantsVersion { return .version(globals) }
        let configuration = command.configuration
        if configuration.subcommands.isEmpty || !configuration.arguments.isEmpty {
            try validate(parsed, against: configuration, path: path)
        }
        return .run(command, parsed, globals)
    }

    /// Checks counts of positionals and required options; the command's own init checks values.
    private func validate(_ parsed: ParsedArguments, against configuration: CommandConfiguration, path: String) throws(UsageError) {
        // A command that runs on its own and has subcommands says what else the word could be.
        let commands = configuration.subcommands.map { $0.configuration.name }
        let alternatively = commands.isEmpty ? "" : " (or a command: \(commands.joined(separator: ", ")))"
        let required = configuration.arguments.filter { !$0.isOptional }
        if parsed.positionals.count < required.count {
            let missing = required[parsed.positionals.count]
            throw UsageError("missing \(missing.name)" + alternatively, commandPath: path)
        }
        if parsed.positionals.count > configuration.arguments.count {
            let extra = parsed.positionals[configuration.arguments.count]
            let hint = commands.isEmpty ? "" : "; quote an argument of several words, or give a command: \(commands.joined(separator: ", "))"
            throw UsageError("unexpected argument '\(extra)' for '\(path)'" + hint, commandPath: path)
        }
        for option in configuration.options where option.isRequired && parsed.options[option.name] == nil {
            throw UsageError("missing --\(option.name) \(option.valueName)", commandPath: path)
        }
    }

    /// Options given before a subcommand's word belong to the command above it: each must mean
    /// something to the subcommand too, rather than be carried along and ignored.
    private func requireDeclared(_ parsed: ParsedArguments, by configuration: CommandConfiguration, path: String) throws(UsageError) {
        let names = Set(configuration.options.map(\.name) + configuration.flags.map(\.name))
        if let name = (parsed.options.keys.sorted() + parsed.flags.sorted()).first(where: { !names.contains($0) }) {
            throw UsageError("unknown option '--\(name)' for '\(path)'", commandPath: path)
        }
    }
}
