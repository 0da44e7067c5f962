import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Every type that KeyCat's public declarations name can be named by a server that imports only
/// the package's products (`KeyCat`, `KeyCatAPI`, `KeyCatPGSimulator`), not by a module SwiftPM
/// happens to leave on the search path. The declarations come from the compiler's symbol graphs of
/// the built modules; each type they mention is then written as a `typealias` in a file with only
/// those three imports, and type-checked.
@Suite("Every type in the public API can be named with the products' imports")
struct PublicReachabilityTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The product modules, and KeyCatDomain, which `KeyCat` re-exports whole.
    static let surfaceModules = ["KeyCat", "KeyCatDomain", "KeyCatAPI", "KeyCatPGSimulator"]
    static let internalModules = ["KeyCatInfrastructure", "KeyCatData"]
    static let imports = ["KeyCat", "KeyCatAPI", "KeyCatPGSimulator"]

    @Test("each type a public declaration mentions is reachable; a type kept inside is reported")
    func everyMentionedTypeIsReachable() throws {
        let checker = try SwiftTypeChecker(buildPlan: Self.root.appendingPathComponent(".build/debug.yaml"),
                                           module: "keycat-admin")
        try withTemporaryDirectory { directory in
            var graphs: [String: SymbolGraph] = [:]
            for module in Self.surfaceModules + Self.internalModules {
                graphs[module] = try SymbolGraph.extract(module: module, with: checker, into: directory)
            }
            var typePaths: [String: String] = [:]    // USR → the type's path, for our modules' types
            for graph in graphs.values {
                for symbol in graph.symbols where symbol.isType { typePaths[symbol.usr] = symbol.path }
            }
            let reExported = try Self.reExportedInfrastructureTypes()
            let surface = Self.surfaceModules.flatMap { graphs[$0]?.symbols ?? [] }
                + (graphs["KeyCatInfrastructure"]?.symbols ?? []).filter { reExported.contains($0.pathComponents[0]) }

            var mentioned: [String: String] = [:]    // type path → a declaration that mentions it
            for symbol in surface {
                for usr in symbol.mentionedTypes {
                    guard let path = typePaths[usr] else { continue }  // the standard library, Foundation
                    if mentioned[path] == nil { mentioned[path] = symbol.path }
                }
            }
            #expect(mentioned.count > 60, "the symbol graphs name the public API's types")

            // The control: a public type of KeyCatInfrastructure no product exports.
            let control = "SQLiteConnection"
            let names = mentioned.keys.sorted() + [control]
            let source = directory.appendingPathComponent("Reachability.swift")
            try (Self.imports.map { "import \($0)" } + names.enumerated().map { "typealias Mentioned\($0.offset) = \($0.element)" })
                .joined(separator: "\n").write(to: source, atomically: true, encoding: .utf8)
            let diagnostics = try checker.diagnostics(typeChecking: [source])
            let unreachable = Set(diagnostics.problems.compactMap { problem -> String? in
                guard problem.hasPrefix(source.path), problem.contains("cannot find") || problem.contains("is not a member type"),
                      let line = Int(problem.dropFirst(source.path.count + 1).prefix { $0.isNumber }) else { return nil }
                return names[line - Self.imports.count - 1]
            })
            #expect(unreachable.contains(control), "the check must see a type kept inside: \(diagnostics.text)")
            let leaks = unreachable.subtracting([control]).sorted().map { "\($0) (in \(mentioned[$0] ?? "?"))" }
            #expect(leaks.isEmpty, "named by public API but not importable: \(leaks)")
        }
    }

    /// The names the products re-export one by one from KeyCatInfrastructure
    /// (`@_exported import struct KeyCatInfrastructure.TransportRequest`).
    static func reExportedInfrastructureTypes() throws -> Set<String> {
        var names: Set<String> = []
        for module in imports {
            let directory = root.appendingPathComponent("Sources/\(module)")
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("@_exported import ") {
                    if let dot = line.range(of: "KeyCatInfrastructure.") { names.insert(String(line[dot.upperBound...])) }
                }
            }
        }
        return names
    }
}

/// The parts of a compiler symbol graph (`swift-symbolgraph-extract`) this check reads.
struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Identifier: Decodable { var precise: String }
        struct Kind: Decodable { var identifier: String }
        struct Fragment: Decodable {
            var kind: String
            var preciseIdentifier: String?
        }
        var identifier: Identifier
        var kind: Kind
        var pathComponents: [String]
        var declarationFragments: [Fragment]?

        var usr: String { identifier.precise }
        var path: String { pathComponents.joined(separator: ".") }
        var isType: Bool {
            ["swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"].contains(kind.identifier)
        }
        var mentionedTypes: [String] {
            (declarationFragments ?? []).filter { $0.kind == "typeIdentifier" }.compactMap(\.preciseIdentifier)
        }
    }
    var symbols: [Symbol]

    static func extract(module: String, with checker: SwiftTypeChecker, into directory: URL) throws -> SymbolGraph {
        let output = directory.appendingPathComponent("graphs-\(module)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let extractor = try ChildProcess(
            URL(fileURLWithPath: checker.compiler).deletingLastPathComponent().appendingPathComponent("swift-symbolgraph-extract").path,
            ["-module-name", module, "-minimum-access-level", "public", "-output-dir", output.path] + checker.searchFlags,
            standardError: .pipe)
        let finished = extractor.finish()
        let message = String(decoding: finished.error, as: UTF8.self)
        let file = output.appendingPathComponent("\(module).symbols.json")
        guard finished.termination.succeeded, let data = try? Data(contentsOf: file) else {
            throw SwiftTypeChecker.Unavailable(description: "swift-symbolgraph-extract failed for \(module): \(message)")
        }
        return try JSONDecoder().decode(SymbolGraph.self, from: data)
    }
}
