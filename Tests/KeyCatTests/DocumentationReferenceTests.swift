import Foundation
import Testing

/// What the README, `docs/` and the doc comments name in backticks exists, so a renamed file or
/// type cannot leave them pointing at nothing (the snippet tests do this for code blocks).
///
/// - A `*.swift` path must be a file: from the repository root when it starts with a top-level
///   folder (`Sources/KeyCat/KeyCat.swift`), else the end of some file's path
///   (`Baseline/RawPostgres.swift`, `KeyCat.swift`); `*` matches within a name.
/// - A code span starting with a compound capitalised name (`SQLiteWebhookEventStore`,
///   `KeyCat.open(_:)`, `PGSimulator`) must name a type declared in `Sources/`, `Tests/` or
///   `Examples/*/Sources/`, or a target; one-word names (`Money`, `Allow`) are not checked.
/// - A DocC link in a doc comment (` ``KeyCat/open(_:)`` `, ` ``Money`` `) must start with
///   such a type or a target.
/// - Names from outside KeyCat are listed in ``external``, each under where it comes from.
@Suite("What the documentation names in backticks exists")
struct DocumentationReferenceTests {
    static let root = DocumentationSnippetTests.root

    /// Types and functions of other code that the documents name. Keep it to names from outside:
    /// a test below fails if KeyCat declares one of them.
    static let external: Set<String> = [
        // The Swift standard library and its concurrency.
        "AsyncSequence", "CancellationError", "DecodingError", "OpaquePointer", "TaskExecutor",
        // Foundation and Dispatch.
        "CocoaError", "DispatchQueue", "JSONEncoder", "JSONSerialization", "NSNull", "NSNumber",
        "TimeInterval", "URLComponents", "URLError", "URLSession",
        // SwiftNIO, swift-log and Hummingbird (the example server, and what the docs compare with).
        "HTTP1Channel", "HTTPError", "HTTPHeaders", "NIOThreadPool", "StreamLogHandler",
        // HTTP header and cookie names.
        "ETag", "HttpOnly",
        // Python (PortOne's clients, schemathesis).
        "NoRoute", "TypeError",
        // Bytes and values, not types: image signatures, a float.
        "GIF87a", "GIF89a", "NaN",
    ]

    /// libpq's C API: functions `PQ…` and types `PG…` in lower case (`PQexec`, `PGresult`).
    static func isLibPQ(_ name: String) -> Bool {
        name.wholeMatch(of: #/P[QG][a-z]\w*/#) != nil
    }

    /// Every file of the repository, relative to its root (no `.build`, no hidden folders).
    static let files: [String] = {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        var files: [String] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasPrefix(".") || name == "node_modules" {
                walker.skipDescendants()
                continue
            }
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == false {
                files.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
            }
        }
        return files
    }()

    /// The Swift files whose declarations count: KeyCat's sources and tests, the examples' sources.
    static var declaringFiles: [String] {
        files.filter { $0.hasSuffix(".swift") && ($0.hasPrefix("Sources/") || $0.hasPrefix("Tests/") || $0.firstMatch(of: #/^Examples\/[^\/]+\/Sources\//#) != nil) }
    }

    /// The names of every type, protocol and type alias declared (at any depth), and every target.
    static let declared: Set<String> = {
        var names = Set<String>()
        let declaration = #/\b(?:struct|class|enum|protocol|actor|typealias|associatedtype)\s+(\w+)/#
        for file in declaringFiles {
            guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
            for match in text.matches(of: declaration) { names.insert(String(match.1)) }
        }
        let manifests = ["Package.swift", "Examples/HummingbirdServer/Package.swift"]
        for manifest in manifests {
            if let package = try? PackageManifest(contentsOf: root.appendingPathComponent(manifest)) {
                names.formUnion(package.targets.flatMap { [$0.name, $0.moduleName] })
            }
        }
        return names
    }()

    /// The README and `docs/*.md`, and every `///` comment under `Sources/` and the examples' `Sources/`.
    static func references() throws -> [DocumentationReference] {
        var references: [DocumentationReference] = []
        for document in DocumentationSnippetTests.documents {
            let path = String(document.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            references += DocumentationReference.inMarkdown(try String(contentsOf: document, encoding: .utf8), location: path)
        }
        for file in declaringFiles where !file.hasPrefix("Tests/") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            references += DocumentationReference.inDocComments(text, location: file)
        }
        return references
    }

    /// Whether what `reference` names exists in `files` and `declared`.
    static func exists(_ reference: DocumentationReference, files: [String], declared: Set<String>) -> Bool {
        switch reference.kind {
        case let .file(path):
            let topLevel = Set(files.compactMap { $0.split(separator: "/").first.map(String.init) })
            let anchored = path.split(separator: "/").first.map { topLevel.contains(String($0)) && path.contains("/") } ?? false
            let pattern = "^" + (anchored ? "" : "(?:.*/)?") + NSRegularExpression.escapedPattern(for: path)
                .replacingOccurrences(of: "\\*", with: "[^/]*") + "$"
            guard let regex = try? Regex(pattern) else { return false }
            return files.contains { $0.wholeMatch(of: regex) != nil }
        case let .type(name), let .symbolLink(name):
            return declared.contains(name) || external.contains(name) || isLibPQ(name)
        }
    }

    @Test("every Swift file and KeyCat type the documents and doc comments name exists")
    func referencesExist() throws {
        let references = try Self.references()
        #expect(references.count > 1_000, "the reader finds the references (\(references.count))")
        let missing = references.filter { !Self.exists($0, files: Self.files, declared: Self.declared) }
        #expect(missing.isEmpty, """
            named in backticks but not in the repository (rename the reference, or if the name is \
            from outside KeyCat add it to DocumentationReferenceTests.external):
            \(missing.map(\.description).joined(separator: "\n"))
            """)
    }

    @Test("the allowlist names only what KeyCat does not declare")
    func externalNamesAreExternal() {
        #expect(Self.external.intersection(Self.declared).isEmpty)
    }

    @Test("what counts as a reference, and what does not", arguments: [
        ("see `Sources/KeyCat/KeyCat.swift`", [DocumentationReference.Kind.file("Sources/KeyCat/KeyCat.swift")]),
        ("`Baseline/RawPostgres*.swift` and `KeyCat.swift`", [.file("Baseline/RawPostgres*.swift"), .file("KeyCat.swift")]),
        ("`SQLiteWebhookEventStore` over `KeyCat.open(_:)`", [.type("SQLiteWebhookEventStore"), .type("KeyCat")]),
        ("`Page<Product>`, `PGSimulator`, `ETag`", [.type("ETag"), .type("PGSimulator")]),
        ("one word: `Money`, `Allow`; prose: `BEGIN IMMEDIATE`, `KeyCat is`", []),
        ("not Swift: `manifest.json`, `Asia/Seoul`, `sqlite3_stmt`, `EVP_*`, `ERR_get_error`", []),
        ("a span with a backtick: `` `KeyCatMissing` `` is one span", [.type("KeyCatMissing")]),
    ])
    func markdownReferences(line: String, expected: [DocumentationReference.Kind]) {
        let found = DocumentationReference.inMarkdown(line, location: "t.md").map(\.kind)
        #expect(found.sorted { "\($0)" < "\($1)" } == expected.sorted { "\($0)" < "\($1)" })
    }

    @Test("doc comments: code spans and DocC links, not plain comments or fenced code")
    func docCommentReferences() {
        let source = """
            // `NotADocComment` in a plain comment
            /// Runs on ``SQLiteDatabase/write(_:)``, ``Money`` and ``open(_:)``; see `OrderBody`.
            /// ```
            /// let x = `FencedName`
            /// ```
            """
        let found = DocumentationReference.inDocComments(source, location: "t.swift")
        #expect(found.map(\.kind) == [.symbolLink("SQLiteDatabase"), .symbolLink("Money"), .type("OrderBody")])
        #expect(found.first?.location == "t.swift:2")
    }

    @Test("a renamed file or type is reported")
    func missingIsReported() {
        let files = ["Sources/KeyCat/KeyCat.swift", "Sources/keycat-bench/Baseline/RawPostgres.swift"]
        let declared: Set<String> = ["KeyCat"]
        func exists(_ kind: DocumentationReference.Kind) -> Bool {
            Self.exists(.init(kind: kind, location: "t.md:1"), files: files, declared: declared)
        }
        #expect(exists(.file("KeyCat.swift")))
        #expect(exists(.file("KeyCat/KeyCat.swift")))
        #expect(exists(.file("Baseline/RawPostgres*.swift")))
        #expect(!exists(.file("Sources/KeyCat.swift")), "a path from a top-level folder is read from the root")
        #expect(!exists(.file("eyCat.swift")), "a bare name matches whole names only")
        #expect(!exists(.file("Baseline/RawSQLite*.swift")))
        #expect(exists(.type("KeyCat")))
        #expect(exists(.type("PQexec")) && exists(.type("URLSession")))
        #expect(!exists(.type("PaymentPage")))
        #expect(!exists(.symbolLink("KeyCatGone")))
    }
}
