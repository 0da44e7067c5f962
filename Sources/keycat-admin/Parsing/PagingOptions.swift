import KeyCat

/// `--limit N` and `--cursor C`, shared by every list command.
enum PagingOptions {
    static let options = [
        OptionSpec(name: "limit", valueName: "N", help: "Items per page, 1–100 (default 20)."),
        OptionSpec(name: "cursor", valueName: "C", help: "The next_cursor of the previous page."),
    ]

    /// The page size and cursor from the parsed line.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> (PageLimit, String?) {
        let limit: PageLimit
        do {
            limit = try arguments.int("limit").map { value throws(KeyCatError) in try PageLimit(value) } ?? .default
        } catch {
            throw UsageError("--limit must be between 1 and 100", commandPath: arguments.commandPath)
        }
        return (limit, arguments.string("cursor"))
    }
}

extension CommandContext {
    /// Prints a page: an aligned table (and the next cursor) for people, or
    /// `{"items": [...], "next_cursor": ...}` with `--json`.
    func emitPage<Item>(_ page: Page<Item>, headers: [String], row: (Item) -> [String], json: (Item) -> JSONValue) {
        if self.json {
            console.print(JSONValue.object([
                ("items", .array(page.items.map(json))),
                ("next_cursor", .optional(page.nextCursor)),
            ]).serialized())
            return
        }
        var table = TextTable(headers)
        for item in page.items { table.append(row(item)) }
        var text = table.rendered()
        if let next = page.nextCursor { text += "next page: --cursor \(next)\n" }
        console.print(text)
    }
}
