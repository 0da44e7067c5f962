import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// Search pages of 20 by relevance over the synthetic catalog (issue 42's mix: two-syllable
/// words, compounds without their space, two to four words, Latin prefixes, a rare model code,
/// text with filters, one few listings meet, a broad term and a deeper page of it), each through KeyCat and through
/// ``RawSearchReplay`` running the statements KeyCat ran for it.
///
/// Facet counts and suggestions (issue 42, items 4 and 5) have their rows in
/// ``SearchFacetScenarios``, run after the pages against the same catalog and the same kind of
/// baseline.
struct SearchScenarios {
    let keycat: KeyCat
    let raw: any RawSearchReplay
    /// Runs a search on a connection of the store, handing each statement to the closure: what
    /// the baseline replays.
    let trace: (ProductFilter, CursorPosition?, Int, (TracedStatement) -> Void) throws -> [SearchHit]
    let productCount: Int
    let operations: Int
    let log: (String) -> Void

    static var pageSize: Int { 20 }

    /// One row of the mix.
    struct Case {
        var name: String
        var text: String
        var page = 1
        var narrow: (inout ProductFilter) -> Void = { _ in }
    }

    /// The mix, with a model code carried by about five listings of the catalog.
    static func cases(productCount: Int) -> [Case] {
        let code = rareModelCode(productCount: productCount)
        return [
            Case(name: "2 syllables, common: 갈축", text: "갈축"),
            Case(name: "2 syllables, rarer: 은축", text: "은축"),
            Case(name: "2 syllables, in descriptions: 축감", text: "축감"),
            Case(name: "compound without space: 기계식키보드", text: "기계식키보드"),
            Case(name: "compound without space: 저소음적축", text: "저소음적축"),
            Case(name: "2 words: 무접점 키보드", text: "무접점 키보드"),
            Case(name: "3 words: 저소음 적축 키보드", text: "저소음 적축 키보드"),
            Case(name: "4 words: 유무선 알루미늄 기계식 키보드", text: "유무선 알루미늄 기계식 키보드"),
            Case(name: "Latin prefix: gater", text: "gater"),
            Case(name: "Latin prefix: keyc", text: "keyc"),
            Case(name: "Latin and Korean: pbt 키캡", text: "pbt 키캡"),
            Case(name: "rare model code: \(code)", text: code),
            Case(name: "text + filters: 적축 키보드, keyboards ≤ ₩150,000", text: "적축 키보드") {
                $0.category = .keyboard
                $0.maximumPrice = Money(won: 150_000)
            },
            Case(name: "text + filters: 키캡, tag 한글각인", text: "키캡") { $0.tag = try? ProductTags.filterValue("한글각인") },
            // Few keyboards in the word's newest window cost this little: the page looks deeper
            // (``SearchWindow/deepening``).
            Case(name: "text + a filter few meet: 갈축, keyboards ≤ ₩40,000", text: "갈축") {
                $0.category = .keyboard
                $0.maximumPrice = Money(won: 40_000)
            },
            Case(name: "broad term: 키보드", text: "키보드"),
            Case(name: "broad term: 키보드, page 5", text: "키보드", page: 5),
        ]
    }

    /// A model code of three digits or more (so that no longer code starts with it) that about
    /// five of `productCount` synthetic listings carry.
    static func rareModelCode(productCount: Int) -> String {
        var rank = 1
        while true {
            let (code, share) = SyntheticProduct.modelCode(rank: rank)
            let digits = code.drop { $0.isLetter }
            if share * 0.28 * Double(productCount) <= 5, digits.count == 3, digits != "100" { return code }
            rank += 1
        }
    }

    func run() async throws -> [Comparison] {
        var rows: [Comparison] = []
        let selection = SearchRowSelection()
        for searchCase in Self.cases(productCount: productCount) where selection.selects(searchCase.name) {
            rows.append(try await row(for: searchCase))
        }
        return rows
    }

    private func row(for searchCase: Case) async throws -> Comparison {
        var filter = ProductFilter(text: try SearchQuery(searchCase.text))
        searchCase.narrow(&filter)
        var request = ProductListRequest(filter: filter, limit: try PageLimit(Self.pageSize))
        // Walk to the page through KeyCat, and trace the same walk for the baseline.
        var position: CursorPosition?
        var statements: [TracedStatement] = []
        var traced: [SearchHit] = []
        for page in 1...searchCase.page {
            if page > 1 {
                request.cursor = try await keycat.catalog.list(request).nextCursor
                let last = traced[Self.pageSize - 1]
                position = CursorPosition(sortKey: last.key, id: last.product.id.rawValue)
            }
            statements = []
            traced = try trace(filter, position, Self.pageSize + 1) { statements.append($0) }
        }
        // All three must return the same page, or the comparison means nothing.
        let libraryIDs = try await keycat.catalog.list(request).items.map(\.id.rawValue)
        let rawIDs = try raw.replay(statements).prefix(Self.pageSize).map(\.id)
        guard libraryIDs == Array(rawIDs), libraryIDs == traced.prefix(Self.pageSize).map(\.product.id.rawValue) else {
            throw RawDatabase.Failure(description: "\(searchCase.name): library and baseline disagree")
        }
        let floor = traced.first.map { SearchWindow.unpack($0.key).floor } ?? 0
        if let path = ProcessInfo.processInfo.environment["KEYCAT_BENCH_DUMP_SQL"] {
            // Diagnostics: the statements of each row, as JSON lines, for trying them by hand.
            for statement in statements {
                let arguments: [Any] = statement.arguments.map { argument -> Any in
                    switch argument {
                    case let .integer(value): value
                    case let .text(value): value
                    default: NSNull()
                    }
                }
                let line = try JSONSerialization.data(withJSONObject: ["case": searchCase.name, "sql": statement.sql, "arguments": arguments])
                if let handle = FileHandle(forWritingAtPath: path) {
                    handle.seekToEndOfFile()
                    handle.write(line + Data("\n".utf8))
                    handle.closeFile()
                } else {
                    _ = FileManager.default.createFile(atPath: path, contents: line + Data("\n".utf8))
                }
            }
        }
        log("\(searchCase.name): \(libraryIDs.count) results, \(statements.count) statements"
            + (statements.first?.exchange == nil ? "" : " in \(statements.exchanges.count) round trips")
            + (floor > 0 ? ", window from product \(floor)" : ", exact"))
        return try await compare(searchCase.name, operations: operations, warmup: 20,
            library: { _ in _ = try await keycat.catalog.list(request) },
            baseline: { _ in _ = try raw.replay(statements) })
    }
}
