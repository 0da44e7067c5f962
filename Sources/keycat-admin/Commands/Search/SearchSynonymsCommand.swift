import KeyCat

/// `keycat-admin search synonyms list|add|remove`: the operators' synonym table (키크론 ↔
/// Keychron, 저소음 ↔ silent). A pair works both ways, and searches use a change at once.
struct SearchSynonymsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "synonyms", abstract: "The words search treats as the same: list, add, remove.",
        subcommands: [SearchSynonymsListCommand.self, SearchSynonymsAddCommand.self, SearchSynonymsRemoveCommand.self])

    /// The two words of `add` and `remove`.
    static let arguments = [
        ArgumentSpec(name: "WORD", help: "One word of letters or digits, up to 30 characters."),
        ArgumentSpec(name: "SYNONYM", help: "Another word meaning the same, likewise."),
    ]

    static func json(_ pair: SynonymPair) -> JSONValue {
        .object([("word", .string(pair.word)), ("synonym", .string(pair.synonym))])
    }
}

/// `keycat-admin search synonyms list`: every pair, each once, as search keeps it (normalised:
/// `Keychron` is `keychron`).
struct SearchSynonymsListCommand: AdminCommand {
    static let configuration = CommandConfiguration(name: "list", abstract: "List every synonym pair.")

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let pairs = try await keycat.search.synonyms()
        var table = TextTable(["WORD", "SYNONYM"])
        for pair in pairs { table.append([pair.word, pair.synonym]) }
        context.emit(json: .object([("items", .array(pairs.map(SearchSynonymsCommand.json)))]),
                     human: pairs.isEmpty ? "No synonyms yet: add one with 'keycat-admin search synonyms add WORD SYNONYM'." : table.rendered())
    }
}

/// `keycat-admin search synonyms add WORD SYNONYM`: audited as `search.synonym.add`.
struct SearchSynonymsAddCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "add", abstract: "Make two words the same for search, both ways.", arguments: SearchSynonymsCommand.arguments)

    let word: String
    let synonym: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        (word, synonym) = (arguments.positionals[0], arguments.positionals[1])
    }

    func run(_ context: CommandContext) async throws {
        let pair = try SynonymPair(word, synonym)  // checked before the database is opened
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let added = try await keycat.search.addSynonym(word, synonym, by: context.principal)
        context.emit(json: .object([("word", .string(pair.word)), ("synonym", .string(pair.synonym)), ("added", .bool(added))]),
                     human: added ? "Added: \(pair.word) ↔ \(pair.synonym)." : "Already there: \(pair.word) ↔ \(pair.synonym).")
    }
}

/// `keycat-admin search synonyms remove WORD SYNONYM`: audited as `search.synonym.remove`; removing
/// a pair that is not there changes nothing and says so (exit 0, as a second `add` does).
struct SearchSynonymsRemoveCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "remove", abstract: "Stop treating two words as the same.", arguments: SearchSynonymsCommand.arguments)

    let word: String
    let synonym: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        (word, synonym) = (arguments.positionals[0], arguments.positionals[1])
    }

    func run(_ context: CommandContext) async throws {
        let pair = try SynonymPair(word, synonym)
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let removed = try await keycat.search.removeSynonym(word, synonym, by: context.principal)
        context.emit(json: .object([("word", .string(pair.word)), ("synonym", .string(pair.synonym)), ("removed", .bool(removed))]),
                     human: removed ? "Removed: \(pair.word) ↔ \(pair.synonym)." : "No such pair: \(pair.word) ↔ \(pair.synonym).")
    }
}
