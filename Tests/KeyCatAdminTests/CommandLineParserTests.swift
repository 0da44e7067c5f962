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
        ("search", "missing QUERY (or a command: explain, synonyms, reindex)"),
        ("search 저소음 적축", "unexpected argument '적축' for 'keycat-admin search'; quote an argument of several words, "
            + "or give a command: explain, synonyms, reindex"),
        ("search --sort newest synonyms list", "unknown option '--sort' for 'keycat-admin search synonyms'"),
        ("search synonyms lst", "unknown command 'lst' for 'keycat-admin search synonyms'; did you mean 'list'?"),
        ("webhooks replay --since 2026-11-01 --endpoint 0", "--endpoint takes an id, a positive whole number, got '0'"),
        ("orders list --seller -4", "--seller takes an id, a positive whole number, got '-4'"),
        ("reviews list --product 0", "--product takes an id, a positive whole number, got '0'"),
        ("products add --seller x7 --file a.json", "--seller takes an id, a positive whole number, got 'x7'"),
        ("webhooks add https://example.com/h --events * --secret whsec_abc",
         "--secret takes -, with the secret on standard input: an argument shows in ps to every user of the machine"),
        ("settlements run --period 2026-13", "--period: a period is a month written YYYY-MM, such as 2026-11"),
        ("products adjust-stock 7 --reason count", "missing --by ±N"),
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

    @Test("a command with subcommands that also runs on its own takes any other word as its argument", arguments: [
        ("search 갈축", "keycat-admin search", ["갈축"]),
        ("search explain 갈축 --limit 3", "keycat-admin search explain", ["갈축"]),
        ("search --category keyboard explain 갈축", "keycat-admin search explain", ["갈축"]),
        ("search -- explain", "keycat-admin search", ["explain"]),
        ("search synonyms add 키크론 keychron", "keycat-admin search synonyms add", ["키크론", "keychron"]),
    ])
    func commandWithSubcommands(line: String, path: String, positionals: [String]) throws {
        guard case let .run(command, parsed, _) = try parse(line) else {
            Issue.record("expected a command to run")
            return
        }
        #expect(parsed.commandPath == path)
        #expect(parsed.positionals == positionals)
        _ = try command.init(parsing: parsed)
    }

    @Test("help for a command that also runs on its own shows both ways to call it")
    func helpForCommandWithSubcommands() {
        let text = HelpFormatter.help(for: SearchCommand.self, commandPath: "keycat-admin search")
        #expect(text.contains("Usage: keycat-admin search <command> …\n       keycat-admin search <QUERY> [--category C]"))
        #expect(text.contains("explain"))
        #expect(text.contains("<QUERY>"))
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
