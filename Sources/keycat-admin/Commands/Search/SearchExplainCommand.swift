import KeyCat

/// `keycat-admin search explain "…" [filters] [--limit N]`: the first results by relevance, each
/// with what its place is made of (``SearchPresenter/explanation(_:rank:)``).
struct SearchExplainCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "explain", abstract: "Show why the top results of a search rank where they do.",
        discussion: """
            For each result: its text score (each group of the query's terms with the score it
            earned, the whole words it has, the bonus when its title holds the whole query), then
            in stock, units sold, bookmarks and rating, which break ties in that order, and the
            relevance key they pack into (higher first; ties by id). Terms are as the index keeps
            them: = marks a whole word, * a prefix, ~ a forgiven typo, | alternatives (synonyms).
            """,
        arguments: [ArgumentSpec(name: "QUERY", help: "The search text, as for 'search'.")],
        options: ProductFilterOptions.options + [
            OptionSpec(name: "limit", valueName: "N", help: "How many results to explain, 1–100 (default 10)."),
        ],
        flags: ProductFilterOptions.flags)

    let text: String
    let filter: ProductFilterOptions
    let limit: PageLimit

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        text = arguments.positionals[0]
        filter = try ProductFilterOptions(parsing: arguments)
        let count = try arguments.int("limit", in: PageLimit.range) ?? 10
        do {
            limit = try PageLimit(count)
        } catch {
            throw UsageError(error.message, commandPath: arguments.commandPath)  // in range: checked above
        }
    }

    func run(_ context: CommandContext) async throws {
        let request = ProductListRequest(filter: try filter.filter(text: try SearchQuery(text)), sort: .relevance, limit: limit)
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let explanations = try await keycat.search.explain(request)
        if context.json {
            context.console.print(JSONValue.object([
                ("query", .string(text)),
                ("items", .array(explanations.enumerated().map { SearchPresenter.json($1, rank: $0 + 1) })),
            ]).serialized())
        } else if explanations.isEmpty {
            context.console.print("No listing matches «\(text)».")
        } else {
            context.console.print(explanations.enumerated().map { SearchPresenter.explanation($1, rank: $0 + 1) }.joined(separator: "\n"))
        }
    }
}
