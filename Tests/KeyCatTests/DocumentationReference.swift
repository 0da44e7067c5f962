import Foundation

/// A name in backticks in a Markdown document or a `///` comment that says something exists: a
/// Swift file (`` `SQLOrderRepository.swift` ``, `` `Sources/KeyCat/KeyCat.swift` ``), a type
/// (`` `SQLiteWebhookEventStore` ``, `` `KeyCat.open(_:)` ``) or, in a doc comment, a DocC symbol
/// link (` ``KeyCat/open(_:)`` `). See ``DocumentationReferenceTests`` for the rules.
struct DocumentationReference: Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        /// A `*.swift` path, possibly with `*` wildcards.
        case file(String)
        /// The type a code span starts with.
        case type(String)
        /// The type (or module) a DocC link's path starts with.
        case symbolLink(String)
    }

    var kind: Kind
    /// `file:line` where it is written, relative to the repository.
    var location: String

    var description: String {
        switch kind {
        case let .file(path): "\(location): `\(path)`"
        case let .type(name): "\(location): `\(name)`"
        case let .symbolLink(name): "\(location): ``\(name)``"
        }
    }

    /// The references in a Markdown document: every code span outside fenced blocks.
    static func inMarkdown(_ text: String, location: String) -> [DocumentationReference] {
        var references: [DocumentationReference] = []
        var fenced = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            for (ticks, content) in spans(in: line) where ticks <= 2 {
                references += codeSpan(content, location: "\(location):\(index + 1)")
            }
        }
        return references
    }

    /// The references in a Swift file's `///` comments: code spans, and DocC links.
    static func inDocComments(_ text: String, location: String) -> [DocumentationReference] {
        var references: [DocumentationReference] = []
        var fenced = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else { continue }
            let comment = trimmed.dropFirst(3)
            if comment.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            let here = "\(location):\(index + 1)"
            for (ticks, content) in spans(in: comment) {
                switch ticks {
                case 1: references += codeSpan(content, location: here)
                case 2: references += symbolLink(content, location: here)
                default: break
                }
            }
        }
        return references
    }

    /// Each code span of `line` with the length of its backtick run: a run opens a span that the
    /// next run of the same length closes (CommonMark), so ` `` `x` `` ` is one span.
    static func spans(in line: Substring) -> [(ticks: Int, content: Substring)] {
        var spans: [(Int, Substring)] = []
        var index = line.startIndex
        while let open = line[index...].firstIndex(of: "`") {
            let run = line[open...].prefix { $0 == "`" }
            var search = run.endIndex
            var closed = false
            while let close = line[search...].firstIndex(of: "`") {
                let closing = line[close...].prefix { $0 == "`" }
                if closing.count == run.count {
                    spans.append((run.count, line[run.endIndex..<close]))
                    index = closing.endIndex
                    closed = true
                    break
                }
                search = closing.endIndex
            }
            if !closed { index = run.endIndex }
        }
        return spans
    }

    private static var swiftPath: Regex<Substring> { #/^[\w.+*\/-]+\.swift$/# }
    /// A span that starts with a capitalised identifier, alone or followed by a member, a call or
    /// generic arguments: `SQLOrderRepository`, `KeyCat.open(_:)`, `Page<Product>`. Not a C
    /// name with underscores (`ERR_get_error`, `EVP_MD_CTX_copy_ex`).
    private static var leadingIdentifier: Regex<(Substring, Substring)> { #/^([A-Z][A-Za-z0-9]*)(?:[.(<\[].*)?$/# }
    /// A file name that is not Swift: `manifest.json`, `README.md`.
    private static var otherFile: Regex<Substring> { #/^[\w+-]+\.[a-z]{1,5}$/# }

    static func codeSpan(_ raw: Substring, location: String) -> [DocumentationReference] {
        let content = raw.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "`")))
        if content.wholeMatch(of: swiftPath) != nil { return [.init(kind: .file(content), location: location)] }
        guard !content.contains("/"), content.wholeMatch(of: otherFile) == nil,
              let name = content.wholeMatch(of: leadingIdentifier)?.1, isCompound(name) else { return [] }
        return [.init(kind: .type(String(name)), location: location)]
    }

    static func symbolLink(_ raw: Substring, location: String) -> [DocumentationReference] {
        guard let first = raw.split(separator: "/").first.map({ $0.prefix { $0.isLetter || $0.isNumber || $0 == "_" } }),
              first.first?.isUppercase == true else { return [] }
        return [.init(kind: .symbolLink(String(first)), location: location)]
    }

    /// Whether `name` reads as a compound type name (`PaymentPage`, `PGSimulator`, `ETag`) rather
    /// than a word (`Money`, `Allow`, `Order`): two capitals and a small letter. A single word in
    /// a code span is as often prose, a header or a JSON key as a type, so only DocC links, which
    /// always name a symbol, are checked when they are one word.
    static func isCompound(_ name: Substring) -> Bool {
        name.filter(\.isUppercase).count >= 2 && name.contains(where: \.isLowercase)
    }
}
