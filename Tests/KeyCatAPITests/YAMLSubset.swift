import Foundation

/// A value of the YAML subset openapi.yaml is kept in: block mappings and `- ` lists, plain or
/// quoted scalars, `>-` folded scalars, `[]` and `{}`, `#` comment lines. Anything else (anchors,
/// flow collections with content, tabs) is an error, so the document stays checkable.
indirect enum YAML: Equatable, CustomStringConvertible {
    case scalar(String)
    case list([YAML])
    case map([(key: String, value: YAML)])

    static func == (lhs: YAML, rhs: YAML) -> Bool { lhs.description == rhs.description }

    subscript(_ key: String) -> YAML? {
        guard case let .map(pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    var string: String? {
        if case let .scalar(text) = self { return text }
        return nil
    }

    var list: [YAML] {
        if case let .list(items) = self { return items }
        return []
    }

    var pairs: [(key: String, value: YAML)] {
        if case let .map(pairs) = self { return pairs }
        return []
    }

    var description: String {
        switch self {
        case let .scalar(text): "\"\(text)\""
        case let .list(items): "[\(items.map(\.description).joined(separator: ", "))]"
        case let .map(pairs): "{\(pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", "))}"
        }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// Parses `text`.
    static func parse(_ text: String) throws -> YAML {
        var parser = Parser(text)
        let value = try parser.block(indent: parser.lines.first?.indent ?? 0)
        if parser.index < parser.lines.count {
            throw SyntaxError(line: parser.lines[parser.index].number, reason: "unexpected indentation")
        }
        return value
    }

    private struct Line {
        var number: Int
        var indent: Int
        var text: Substring
    }

    private struct Parser {
        var lines: [Line] = []
        var index = 0

        init(_ text: String) {
            for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = raw.drop { $0 == " " }
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                lines.append(Line(number: offset + 1, indent: raw.count - trimmed.count, text: trimmed))
            }
        }

        mutating func block(indent: Int) throws -> YAML {
            guard index < lines.count else { return .scalar("") }
            let line = lines[index]
            if line.text.contains("\t") { throw SyntaxError(line: line.number, reason: "tabs are not allowed") }
            return line.text == "-" || line.text.hasPrefix("- ") ? try list(indent: indent) : try map(indent: indent)
        }

        mutating func list(indent: Int) throws -> YAML {
            var items: [YAML] = []
            while index < lines.count, lines[index].indent == indent, lines[index].text.hasPrefix("- ") {
                let content = lines[index].text.dropFirst(2)
                if Self.splitKey(content) != nil {
                    // `- key: value` opens a mapping whose other keys sit two columns further in.
                    lines[index].indent = indent + 2
                    lines[index].text = content
                    items.append(try map(indent: indent + 2))
                } else {
                    index += 1
                    items.append(try Self.scalar(content, line: lines[index - 1].number))
                }
            }
            return .list(items)
        }

        mutating func map(indent: Int) throws -> YAML {
            var pairs: [(key: String, value: YAML)] = []
            while index < lines.count, lines[index].indent == indent {
                let line = lines[index]
                guard let (key, rest) = Self.splitKey(line.text) else {
                    throw SyntaxError(line: line.number, reason: "expected `key: value`")
                }
                if pairs.contains(where: { $0.key == key }) { throw SyntaxError(line: line.number, reason: "duplicate key \(key)") }
                index += 1
                if rest == ">-" || rest == ">" || rest == "|" {
                    var parts: [Substring] = []
                    while index < lines.count, lines[index].indent > indent {
                        parts.append(lines[index].text)
                        index += 1
                    }
                    pairs.append((key, .scalar(parts.joined(separator: rest == "|" ? "\n" : " "))))
                } else if rest.isEmpty {
                    guard index < lines.count, lines[index].indent > indent else {
                        throw SyntaxError(line: line.number, reason: "\(key) has no value")
                    }
                    pairs.append((key, try block(indent: lines[index].indent)))
                } else {
                    pairs.append((key, try Self.scalar(rest, line: line.number)))
                }
            }
            if index < lines.count, lines[index].indent > indent {
                throw SyntaxError(line: lines[index].number, reason: "unexpected indentation")
            }
            return .map(pairs)
        }

        /// `key: value` or `key:` (keys may be quoted); nil when the text is not a mapping entry.
        static func splitKey(_ text: Substring) -> (String, Substring)? {
            if let quote = text.first, quote == "'" || quote == "\"" {
                guard let close = text.dropFirst().firstIndex(of: quote) else { return nil }
                let after = text[text.index(after: close)...]
                guard after.hasPrefix(":") else { return nil }
                return (String(text[text.index(after: text.startIndex)..<close]), after.dropFirst().drop { $0 == " " })
            }
            if text.hasSuffix(":") { return (String(text.dropLast()), "") }
            guard let range = text.range(of: ": ") else { return nil }
            return (String(text[..<range.lowerBound]), text[range.upperBound...].drop { $0 == " " })
        }

        static func scalar(_ text: Substring, line: Int) throws -> YAML {
            if text == "[]" { return .list([]) }
            if text == "{}" { return .map([]) }
            if text.hasPrefix("'") {
                guard text.count >= 2, text.hasSuffix("'") else { throw SyntaxError(line: line, reason: "unclosed quote") }
                return .scalar(text.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'"))
            }
            if text.hasPrefix("\"") {
                guard text.count >= 2, text.hasSuffix("\"") else { throw SyntaxError(line: line, reason: "unclosed quote") }
                return .scalar(String(text.dropFirst().dropLast()))
            }
            if text.hasPrefix("[") || text.hasPrefix("{") || text.hasPrefix("&") || text.hasPrefix("*") || text.contains(" #") {
                throw SyntaxError(line: line, reason: "outside the subset: \(text)")
            }
            return .scalar(String(text))
        }
    }
}
