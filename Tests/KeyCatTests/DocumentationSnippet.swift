import Foundation

/// One ```` ```swift ```` block of a Markdown document, with what its `<!-- snippet … -->`
/// comment says it needs (see ``DocumentationSnippetTests``).
struct DocumentationSnippet {
    var document: URL
    /// The 1-based line of the block's first line of code.
    var line: Int
    var code: [String]
    /// The parameters of the function the block is checked in: `key: String, buyer: Principal`.
    var given = ""
    /// The type the block returns, if it returns.
    var returns: String?
    /// The package whose build and sources the block is checked with, relative to the root.
    var package: String?
    /// The file the block is an excerpt of, relative to the root.
    var excerptOf: String?

    var location: String { "\(document.lastPathComponent):\(line)" }

    struct MalformedMarker: Error, CustomStringConvertible {
        var description: String
    }

    static func all(in document: URL) throws -> [DocumentationSnippet] {
        let lines = try String(contentsOf: document, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var snippets: [DocumentationSnippet] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                index += 1
                continue
            }
            let end = lines[(index + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "```" } ?? lines.count
            var snippet = DocumentationSnippet(document: document, line: index + 2, code: Array(lines[(index + 1)..<end]))
            if index > 0 { try snippet.read(marker: lines[index - 1]) }
            snippets.append(snippet)
            index = end + 1
        }
        return snippets
    }

    private mutating func read(marker line: String) throws {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("<!-- snippet ") else { return }
        guard text.hasSuffix("-->") else { throw MalformedMarker(description: "\(location): an unclosed snippet comment") }
        let body = text.dropFirst("<!-- snippet ".count).dropLast(3)
        for clause in body.split(separator: "|") {
            let parts = clause.split(separator: ":", maxSplits: 1)
            let value = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            switch parts.first.map({ $0.trimmingCharacters(in: .whitespaces) }) {
            case "given": given = value
            case "returns": returns = value
            case "in": package = value
            case "excerpt of": excerptOf = value
            default: throw MalformedMarker(description: "\(location): unknown snippet clause '\(clause)'")
            }
        }
    }

    /// One Swift file holding every snippet in a function of its own, its `import` lines lifted
    /// to the top, and `#sourceLocation` pointing each line back at its document.
    static func program(_ snippets: [DocumentationSnippet], imports: [String] = ["Foundation", "KeyCat"]) -> String {
        var modules = imports
        var functions: [String] = []
        for (number, snippet) in snippets.enumerated() {
            var body: [String] = []
            for line in snippet.code {
                let words = line.split(separator: " ")
                if words.first == "import", words.count == 2 {
                    if !modules.contains(String(words[1])) { modules.append(String(words[1])) }
                    body.append("")
                } else {
                    body.append(line)
                }
            }
            functions.append("""
                func snippet\(number)(\(snippet.given)) async throws -> \(snippet.returns ?? "Void") {
                #sourceLocation(file: "\(snippet.document.path)", line: \(snippet.line))
                \(body.joined(separator: "\n"))
                #sourceLocation()
                }
                """)
        }
        return modules.map { "import \($0)" }.joined(separator: "\n") + "\n\n" + functions.joined(separator: "\n\n") + "\n"
    }

    /// The excerpt's lines that are not found, in order, in `file`: blank lines and comment lines
    /// are skipped, and a trailing `  // …` comment is the document's, not the code's.
    func missingLines(from file: String) -> [String] {
        let fileLines = file.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var position = fileLines.startIndex
        var missing: [String] = []
        for line in code {
            var wanted = line
            if let comment = wanted.range(of: "  //") { wanted = String(wanted[..<comment.lowerBound]) }
            wanted = wanted.trimmingCharacters(in: .whitespaces)
            if wanted.isEmpty || wanted.hasPrefix("//") { continue }
            if let found = fileLines[position...].firstIndex(of: wanted) {
                position = found + 1
            } else {
                missing.append(wanted)
            }
        }
        return missing
    }
}
