import Foundation

/// The targets of a `Package.swift` and the dependencies each declares, read from its text.
///
/// A small purpose-built reader, not Swift: it knows the shape this package writes (each target a
/// `.target(…)`, `.executableTarget(…)`, `.testTarget(…)` or `.systemLibrary(…)` call whose
/// `name:` is a string literal and whose `dependencies:` are string literals or
/// `.product(name:package:)` / `.target(name:)` calls) and throws on anything else, so a manifest it
/// cannot read fails the tests rather than passing them. `swift package dump-package` would know
/// every shape but costs a package resolution per run.
struct PackageManifest: Equatable {
    struct Target: Equatable {
        enum Kind: String {
            case target, executableTarget, testTarget, systemLibrary
        }

        var name: String
        var kind: Kind
        /// The other targets of this package it depends on, in the order written.
        var dependencies: [String]
        /// Products of other packages it depends on.
        var productDependencies: [String] = []
        /// Its folder relative to the package root: `path:` when given, else SwiftPM's default.
        var path: String

        /// The name `import` uses: SwiftPM's c99 name, hyphens as underscores.
        var moduleName: String { name.replacingOccurrences(of: "-", with: "_") }
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    var targets: [Target]

    func target(named name: String) -> Target? { targets.first { $0.name == name } }

    init(contentsOf url: URL) throws {
        try self.init(source: String(contentsOf: url, encoding: .utf8))
    }

    init(source: String) throws {
        let text = Self.withoutComments(source)
        // The package's `targets:`, not a product's: the list that opens with a call.
        guard let list = text.firstMatch(of: #/\btargets:\s*\[(?=\s*\.)/#) else {
            throw Unreadable(description: "no `targets: [.…` in the manifest")
        }
        var rest = text[list.range.upperBound...]
        var targets: [Target] = []
        while let call = rest.firstMatch(of: #/^\s*\.(target|executableTarget|testTarget|systemLibrary)\(/#) {
            guard let kind = Target.Kind(rawValue: String(call.1)) else { break }
            let arguments = try Self.balanced(rest[call.range.upperBound...])
            targets.append(try Self.target(kind, arguments: arguments))
            rest = rest[arguments.endIndex...].dropFirst()
            if let comma = rest.firstMatch(of: #/^\s*,/#) { rest = rest[comma.range.upperBound...] }
        }
        guard rest.firstMatch(of: #/^\s*\]/#) != nil else {
            throw Unreadable(description: "the targets list goes on with something not a target: \(rest.prefix(60))")
        }
        guard !targets.isEmpty else { throw Unreadable(description: "no targets read") }
        self.targets = targets
    }

    private static func target(_ kind: Target.Kind, arguments: Substring) throws -> Target {
        guard let name = arguments.firstMatch(of: #/^\s*name:\s*"([^"]+)"/#)?.1 else {
            throw Unreadable(description: "a .\(kind.rawValue) whose first argument is not `name: \"…\"`: \(arguments.prefix(60))")
        }
        var target = Target(name: String(name), kind: kind, dependencies: [],
                            path: kind == .testTarget ? "Tests/\(name)" : "Sources/\(name)")
        if let path = arguments.firstMatch(of: #/\bpath:\s*"([^"]+)"/#) {
            target.path = String(path.1)
        }
        if let start = arguments.firstMatch(of: #/dependencies:\s*\[/#) {
            let list = try balanced(arguments[start.range.upperBound...], open: "[", close: "]")
            var items = list
            while let item = items.firstMatch(of: #/^\s*(?:"([^"]+)"|\.product\(\s*name:\s*"([^"]+)"[^)]*\)|\.(?:target|byName)\(\s*name:\s*"([^"]+)"\s*\))\s*,?/#) {
                if let product = item.2 {
                    target.productDependencies.append(String(product))
                } else if let name = item.1 ?? item.3 {
                    target.dependencies.append(String(name))
                }
                items = items[item.range.upperBound...]
            }
            guard items.allSatisfy(\.isWhitespace) else {
                throw Unreadable(description: "\(target.name): a dependency this reader does not know: \(items.prefix(60))")
            }
        }
        return target
    }

    /// What lies between an opening bracket already passed and its closing one (string literals
    /// skipped), ending just before the closing one.
    private static func balanced(_ text: Substring, open: Character = "(", close: Character = ")") throws -> Substring {
        var depth = 1
        var inString = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == open {
                depth += 1
            } else if character == close {
                depth -= 1
                if depth == 0 { return text[text.startIndex..<index] }
            }
            index = text.index(after: index)
        }
        throw Unreadable(description: "an unclosed \(open): \(text.prefix(60))")
    }

    /// `source` with its `//` comments blanked (not those inside string literals).
    private static func withoutComments(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            var inString = false
            var previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if character == "\"" && previous != "\\" { inString.toggle() }
                if !inString && character == "/" && previous == "/" { return line[..<line.index(before: index)] }
                previous = character
            }
            return line
        }.joined(separator: "\n")
    }
}
