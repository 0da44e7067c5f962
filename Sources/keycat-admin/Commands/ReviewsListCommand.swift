import Foundation
import KeyCat

/// `keycat-admin reviews list --product ID [--limit N] [--cursor C]`: one page of a product's
/// reviews, newest first.
struct ReviewsListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List a product's reviews, newest first.",
        discussion: "Pass the printed next cursor back with --cursor for the following page.",
        options: [
            OptionSpec(name: "product", valueName: "ID", help: "The product whose reviews to list.", isRequired: true),
            OptionSpec(name: "limit", valueName: "N", help: "Reviews per page, 1–100 (default 20)."),
            OptionSpec(name: "cursor", valueName: "C", help: "The next cursor a previous page printed."),
        ])

    let product: ProductID
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        product = ProductID(try arguments.requiredID("product"))
        let count = try arguments.int("limit", in: PageLimit.range) ?? PageLimit.default.value
        // The range was checked above, so this cannot fail.
        limit = (try? PageLimit(count)) ?? .default
        cursor = arguments.string("cursor")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.reviews.reviews(of: product, limit: limit, cursor: cursor)
        context.emit(json: json(page), human: human(page))
    }

    private func json(_ page: Page<Review>) -> JSONValue {
        .object([
            ("items", .array(page.items.map { review in
                .object([
                    ("id", .int(review.id.rawValue)),
                    ("product_id", .int(review.productID.rawValue)),
                    ("author_id", .int(review.authorID.rawValue)),
                    ("author_nick", .string(review.authorNick)),
                    ("rating", .int(review.rating)),
                    ("content", .string(review.content)),
                    ("created_at", .string(Self.timestamp(review.createdAt))),
                ])
            })),
            ("next_cursor", .optional(page.nextCursor)),
        ])
    }

    private func human(_ page: Page<Review>) -> String {
        guard !page.items.isEmpty else { return "No reviews of product \(product)." }
        var table = TextTable(["ID", "RATING", "AUTHOR", "WRITTEN", "CONTENT"])
        for review in page.items {
            table.append([
                String(review.id.rawValue), String(repeating: "★", count: review.rating),
                "\(review.authorNick) (\(review.authorID))", Self.timestamp(review.createdAt),
                Self.excerpt(review.content),
            ])
        }
        var text = table.rendered()
        if let next = page.nextCursor { text += "next cursor: \(next)\n" }
        return text
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// The content on one line, cut to 40 characters.
    private static func excerpt(_ content: String) -> String {
        let line = content.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 40 ? line : String(line.prefix(39)) + "…"
    }
}
