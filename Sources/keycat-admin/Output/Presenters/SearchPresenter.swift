import Foundation
import KeyCat

/// How search results and their explanations look on the command line.
enum SearchPresenter {
    static let headers = ["ID", "TITLE", "PRICE", "STOCK"]

    /// A result: what a buyer scanning the list needs, the title long enough to tell variants apart.
    static func row(_ product: Product, now: Date) -> [String] {
        [String(product.id.rawValue), String(product.title.prefix(60)), Formatting.won(product.sellingPrice(at: now)),
         String(product.stock)]
    }

    /// One result's explanation for people: the text score and its parts, then the shop's signals
    /// in the order they break ties, then the key they pack into.
    ///
    ///     1. product 48  [공구] Sora TKL 황동 웨이트 커스텀 키보드 - 갈축 빌드
    ///        text score 71
    ///          group 갈축       +26
    ///          whole word 갈축  +13
    ///          phrase in title  +32
    ///        in stock (30) · 0 sold · 0 bookmarks · no reviews
    ///        relevance key 149946368
    ///
    /// A group's terms are as the index keeps them: `=` marks a whole word, `*` a prefix, `~` a
    /// forgiven typo, `|` alternatives (a synonym's terms).
    static func explanation(_ explanation: SearchExplanation, rank: Int) -> String {
        let product = explanation.product
        var parts: [(String, String)] = explanation.groups.map { ("group \($0.terms)", "+\($0.score)") }
        parts += explanation.bonuses.map { ("whole word \($0.term.dropFirst(wholeWordMark.count))", "+\($0.weight)") }
        if explanation.phraseMatched { parts.append(("phrase in title", "+\(SearchPlan.phraseBonus)")) }
        let width = parts.map { TextTable.displayWidth($0.0) }.max() ?? 0
        var lines = ["\(rank). product \(product.id)  \(product.title)", "   text score \(explanation.textScore)"]
        lines += parts.map { label, value in
            "     " + label + String(repeating: " ", count: width - TextTable.displayWidth(label) + 2) + value
        }
        lines.append("   " + signals(explanation).joined(separator: " · "))
        lines.append("   relevance key \(explanation.key)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One result's explanation as JSON, snake_case like every `--json` object.
    static func json(_ explanation: SearchExplanation, rank: Int) -> JSONValue {
        let product = explanation.product
        return .object([
            ("rank", .int(rank)),
            ("id", .int(product.id.rawValue)),
            ("title", .string(product.title)),
            ("text_score", .int(explanation.textScore)),
            ("groups", .array(explanation.groups.map { .object([("terms", .string($0.terms)), ("score", .int($0.score))]) })),
            ("bonuses", .array(explanation.bonuses.map { .object([("term", .string($0.term)), ("weight", .int($0.weight))]) })),
            ("phrase_matched", .bool(explanation.phraseMatched)),
            ("phrase_bonus", .int(explanation.phraseMatched ? SearchPlan.phraseBonus : 0)),
            ("in_stock", .bool(product.stock > 0)),
            ("stock", .int(product.stock)),
            ("units_sold", .int(explanation.sales.units)),
            ("value_sold", .int(explanation.sales.value.won)),
            ("units_ranked", .int(explanation.rankedUnits)),
            ("bookmark_count", .int(product.bookmarkCount)),
            ("rating_average", product.averageRating.map(JSONValue.double) ?? .null),
            ("review_count", .int(product.ratingCount)),
            ("key", .int(explanation.key)),
        ])
    }

    /// How the index marks a whole word (`=갈축`), beside its syllable pairs and prefixes.
    private static let wholeWordMark = "="

    private static func signals(_ explanation: SearchExplanation) -> [String] {
        let product = explanation.product
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return [
            product.stock > 0 ? "in stock (\(product.stock))" : "out of stock",
            explanation.rankedUnits == explanation.sales.units
                ? "\(explanation.sales.units) sold"
                : "\(explanation.sales.units) sold for \(explanation.sales.value), ranked as \(explanation.rankedUnits)",
            count(product.bookmarkCount, "bookmark"),
            product.averageRating.map { "rating " + String(format: "%.1f", $0) + " from " + count(product.ratingCount, "review") } ?? "no reviews",
        ]
    }
}
