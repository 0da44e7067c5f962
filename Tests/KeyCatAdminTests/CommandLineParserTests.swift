import Testing
@testable import keycat_admin

@Suite("The command-line parser")
struct CommandLineParserTests {
    let parser = CommandLineParser(root: RootCommand.self)

    private func parse(_ line: String) throws(UsageError) -> ParseResult {
        try parser.parse(line.split(separator: " ").map(String.init))
    }

    @Test("selects nested subcommands and reads global options anywhere")
    func subcommands() throws {
        guard case let .run(command, parsed, globals) = try parse("--json db check --db x.db") else {
            Issue.record("expected a command to run")
            return
        }
        #expect(ObjectIdentifier(command) == ObjectIdentifier(DatabaseCheckCommand.self))
        #expect(parsed.commandPath == "keycat-admin db check")
        #expect(globals == GlobalSettings(databasePath: "x.db", json: true))
    }

    @Test("accepts --name=value")
    func inlineValue() throws {
        guard case let .run(_, _, globals) = try parse("init --db=/tmp/k.db") else {
            Issue.record("expected a command to run")
            return
        }
        #expect(globals.databasePath == "/tmp/k.db")
    }

    @Test("asks for help at every level", arguments: ["--help", "db --help", "db check -h", "init --help"])
    func help(line: String) throws {
        guard case .help = try parse(line) else {
            Issue.record("expected help")
            return
        }
    }

    @Test("rejects bad lines with a message naming the fix", arguments: [
        ("dbb check", "unknown command 'dbb' for 'keycat-admin'; did you mean 'db'?"),
        ("db chek", "unknown command 'chek' for 'keycat-admin db'; did you mean 'check'?"),
        ("init --jsn", "unknown option '--jsn' for 'keycat-admin init'; did you mean '--json'?"),
        ("init --db", "--db needs a value (PATH)"),
        ("init --json=yes", "--json takes no value"),
        ("init extra", "unexpected argument 'extra' for 'keycat-admin init'"),
        ("db", "'keycat-admin db' needs a subcommand: check, backup, restore"),
        ("init -x", "unknown option '-x' for 'keycat-admin init' (options are spelt --name)"),
        ("init --db a.db --db b.db", "--db is given twice"),
        ("payments simulate --orders 60 --orders=20000", "--orders is given twice"),
    ])
    func usageErrors(line: String, message: String) throws {
        do {
            let result = try parse(line)
            if case let .run(command, parsed, _) = result {
                _ = try command.init(parsing: parsed)
            }
            Issue.record("'\(line)' was accepted")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("help is generated from the command definitions")
    func helpText() {
        let text = HelpFormatter.help(for: DatabaseCommand.self, commandPath: "keycat-admin db")
        #expect(text.contains("Usage: keycat-admin db <command>"))
        #expect(text.contains("check"))
        #expect(text.contains(DatabaseCheckCommand.configuration.abstract))
        #expect(text.contains("--db PATH"))
    }

    @Test("suggestions are only offered for near misses")
    func closest() {
        #expect(closestMatch(to: "prodcts", in: ["products", "orders"]) == "products")
        #expect(closestMatch(to: "zzz", in: ["products", "orders"]) == nil)
        #expect(editDistance("kitten", "sitting") == 3)
    }
}
