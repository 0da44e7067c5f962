import Foundation
import KeyCatTestSupport
import Testing

/// Every Swift block in the README and `docs/` is compiled as a server's own code would be, so the
/// documentation cannot drift from the API. A block is type-checked inside a function of its own,
/// against the built package as another package sees it (no `package` access). An HTML comment
/// on the line before a block says what it needs:
///
///     <!-- snippet given: key: String, buyer: Principal | returns: (Int, Data) -->
///     <!-- snippet in: Examples/HummingbirdServer -->          compiled with that package's build and sources
///     <!-- snippet excerpt of: Examples/HummingbirdServer/Sources/KeyCatServer/KeyCatAPIMiddleware.swift -->
///
/// `given` names what the surrounding code would have (the function's parameters); `returns`
/// is the type the block returns, if it does; an excerpt is not compiled on its own but must
/// appear, line by line and in order, in the file it names. Errors are reported at the
/// document's own lines. Warnings count as failures, except a value the block never uses.
@Suite("The documentation's Swift compiles as written")
struct DocumentationSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var documents: [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [root.appendingPathComponent("README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    static var snippets: [DocumentationSnippet] {
        get throws { try documents.flatMap { try DocumentationSnippet.all(in: $0) } }
    }

    @Test("every Swift block that speaks to KeyCat type-checks against the built package, warning-free")
    func keycatSnippets() throws {
        let snippets = try Self.snippets.filter { $0.package == nil && $0.excerptOf == nil }
        #expect(snippets.count >= 8, "the README and docs/ hold at least eight such blocks")
        let checker = try SwiftTypeChecker(buildPlan: Self.root.appendingPathComponent(".build/debug.yaml"),
                                           module: "keycat-admin")
        try withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("Snippets.swift")
            try DocumentationSnippet.program(snippets).write(to: source, atomically: true, encoding: .utf8)
            let diagnostics = try checker.diagnostics(typeChecking: [source])
            let problems = diagnostics.problems.filter { !$0.contains("never used") }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(diagnostics.text)")
            #expect(diagnostics.exitStatus == 0 || !problems.isEmpty)
        }
    }

    @Test("the check can fail: a call to nothing is reported at the document's line")
    func checkCanFail() throws {
        try withTemporaryDirectory { directory in
            let document = directory.appendingPathComponent("broken.md")
            try """
                Some prose.

                <!-- snippet given: name: String -->
                ```swift
                let keycat = try KeyCat.open(.init(databasePath: name))
                keycat.accounts.noSuchThing()
                ```
                """.write(to: document, atomically: true, encoding: .utf8)
            let snippets = try DocumentationSnippet.all(in: document)
            #expect(snippets.count == 1)
            let source = directory.appendingPathComponent("Snippets.swift")
            try DocumentationSnippet.program(snippets).write(to: source, atomically: true, encoding: .utf8)
            let checker = try SwiftTypeChecker(buildPlan: Self.root.appendingPathComponent(".build/debug.yaml"),
                                               module: "keycat-admin")
            let diagnostics = try checker.diagnostics(typeChecking: [source])
            #expect(diagnostics.exitStatus != 0)
            #expect(diagnostics.problems.contains { $0.contains("broken.md:6:") && $0.contains("noSuchThing") })
        }
    }

    @Test("every excerpt appears, line by line and in order, in the file it names")
    func excerpts() throws {
        let excerpts = try Self.snippets.filter { $0.excerptOf != nil }
        #expect(!excerpts.isEmpty)
        for excerpt in excerpts {
            let path = try #require(excerpt.excerptOf)
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let missing = excerpt.missingLines(from: file)
            #expect(missing.isEmpty, "\(excerpt.location): not in \(path), in this order: \(missing)")
        }
    }

    /// The example server is built by `scripts/test` before the suite runs; CI must have it.
    static let exampleBuilt = FileManager.default.fileExists(
        atPath: root.appendingPathComponent("Examples/HummingbirdServer/.build/debug.yaml").path)
        || ProcessInfo.processInfo.environment["CI"] == "true"

    @Test("the Hummingbird blocks type-check with the example server's build and sources",
          .enabled(if: exampleBuilt, "build Examples/HummingbirdServer (scripts/test does) to check its snippets"))
    func exampleServerSnippets() throws {
        let example = Self.root.appendingPathComponent("Examples/HummingbirdServer")
        let snippets = try Self.snippets.filter { $0.package == "Examples/HummingbirdServer" }
        #expect(!snippets.isEmpty)
        let checker = try SwiftTypeChecker(buildPlan: example.appendingPathComponent(".build/debug.yaml"),
                                           module: "keycat-server")
        let sourcesDirectory = example.appendingPathComponent("Sources/KeyCatServer")
        let sources = try FileManager.default.contentsOfDirectory(atPath: sourcesDirectory.path)
            .filter { $0.hasSuffix(".swift") }.map { sourcesDirectory.appendingPathComponent($0) }
        try withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("Snippets.swift")
            try DocumentationSnippet.program(snippets, imports: ["Foundation"]).write(to: source, atomically: true, encoding: .utf8)
            let diagnostics = try checker.diagnostics(typeChecking: sources + [source])
            let problems = diagnostics.problems.filter { !$0.contains("never used") }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(diagnostics.text)")
        }
    }
}
