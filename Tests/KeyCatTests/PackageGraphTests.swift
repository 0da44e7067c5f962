import Foundation
import Testing

/// The layers as Package.swift declares them are the layers the code imports and the documents
/// draw. Swift 6.3.1's `--explicit-target-dependency-import-check error` (which scripts/test
/// passes) lets a target import a module it reaches only through another target, so each
/// target's `import` lines are compared with its declared dependencies here; and the graphs the
/// README and docs/architecture.md draw are compared with the manifest, edge by edge.
@Suite("Package.swift, the imports and the drawn graphs agree")
struct PackageGraphTests {
    static let root = DocumentationSnippetTests.root

    /// KeyCat's own manifest, and the example server's, which depends on it by path.
    static let packages = ["", "Examples/HummingbirdServer"]

    static var drawings: [URL] {
        [root.appendingPathComponent("README.md"), root.appendingPathComponent("docs/architecture.md")]
    }

    @Test("every target imports only targets its manifest entry names")
    func importsAreDeclared() throws {
        let keycat = try PackageManifest(contentsOf: Self.root.appendingPathComponent("Package.swift"))
        let ours = Set(keycat.targets.map(\.moduleName))
        // (target, module) → where, in order.
        var undeclared: [String: [String]] = [:]
        var order: [String] = []
        for package in Self.packages {
            let folder = Self.root.appendingPathComponent(package)
            let manifest = try PackageManifest(contentsOf: folder.appendingPathComponent("Package.swift"))
            let modules = ours.union(manifest.targets.map(\.moduleName))
            for target in manifest.targets {
                let allowed = Set([target.moduleName] + (target.dependencies + target.productDependencies).map {
                    $0.replacingOccurrences(of: "-", with: "_")
                })
                for file in Self.swiftFiles(under: folder.appendingPathComponent(target.path)) {
                    for (line, module) in try Self.imports(of: file) where modules.contains(module) && !allowed.contains(module) {
                        let key = "\(target.name) imports \(module), which \(package.isEmpty ? "" : package + "/")Package.swift does not declare for it"
                        if undeclared[key] == nil { order.append(key) }
                        undeclared[key, default: []].append("\(file.path.dropFirst(Self.root.path.count + 1)):\(line)")
                    }
                }
            }
        }
        let report = order.map { key in
            let places = undeclared[key] ?? []
            return "\(key): \(places[0])" + (places.count > 1 ? " and \(places.count - 1) more" : "")
        }
        #expect(report.isEmpty, "\(report.joined(separator: "\n"))")
    }

    @Test("the README and docs/architecture.md draw exactly the targets' dependencies", arguments: drawings)
    func drawnGraph(_ document: URL) throws {
        let manifest = try PackageManifest(contentsOf: Self.root.appendingPathComponent("Package.swift"))
        let graphs = try DrawnTargetGraph.all(in: document)
        #expect(graphs.count == 1, "\(document.lastPathComponent) draws its target graph once, after `\(DrawnTargetGraph.marker) -->`")
        for graph in graphs {
            let differences = graph.differences(from: manifest)
            #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        }
    }

    @Test("the reader finds the layers in Package.swift")
    func readerReadsTheManifest() throws {
        let manifest = try PackageManifest(contentsOf: Self.root.appendingPathComponent("Package.swift"))
        #expect(manifest.target(named: "KeyCatDomain")?.dependencies == [])
        #expect(manifest.target(named: "KeyCatData")?.dependencies == ["KeyCatDomain", "KeyCatInfrastructure"])
        #expect(manifest.target(named: "CSQLite")?.kind == .systemLibrary)
        #expect(manifest.target(named: "KeyCatTestSupport")?.path == "Tests/KeyCatTestSupport")
        #expect(manifest.target(named: "KeyCatTests")?.kind == .testTarget)
        #expect(manifest.target(named: "keycat-admin")?.moduleName == "keycat_admin")
        let example = try PackageManifest(contentsOf: Self.root.appendingPathComponent("Examples/HummingbirdServer/Package.swift"))
        #expect(example.target(named: "keycat-server")?.productDependencies.contains("KeyCatAPI") == true)
        #expect(example.target(named: "keycat-server")?.dependencies == ["PGPaymentWindow"])
    }

    @Test("a drawing that adds an edge or misses one is reported")
    func drawingCanFail() throws {
        let manifest = try PackageManifest(source: """
            let package = Package(name: "P", targets: [
                .target(name: "Inner"),
                // a comment naming .target(name: "Ghost")
                .target(name: "Middle", dependencies: ["Inner"]),
                .executableTarget(name: "outer-tool", dependencies: ["Middle", .product(name: "X", package: "x")], path: "Sources/Tool"),
                .testTarget(name: "MiddleTests", dependencies: ["Middle"]),
            ])
            """)
        #expect(manifest.targets.map(\.name) == ["Inner", "Middle", "outer-tool", "MiddleTests"])
        #expect(manifest.target(named: "outer-tool")?.path == "Sources/Tool")
        let document = URL(fileURLWithPath: "/drawn.md")
        let drawn = try DrawnTargetGraph.all(in: """
            \(DrawnTargetGraph.marker) -->
            ```
            outer-tool → Inner
            Inner      → (nothing of ours)
            ```
            """, of: document)
        #expect(drawn.count == 1)
        #expect(drawn.first?.differences(from: manifest) == [
            "drawn.md does not draw Middle, which Package.swift has depend on Inner",
            "drawn.md draws outer-tool → Inner, which Package.swift does not declare",
            "drawn.md misses outer-tool → Middle, which Package.swift declares",
        ])
    }

    static func swiftFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    /// The modules `file` imports, with their lines: `import X`, `@testable import X`,
    /// `package import X`, `import struct X.Y`.
    static func imports(of file: URL) throws -> [(line: Int, module: String)] {
        let pattern = #/^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?(\w+)/#
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().compactMap { index, line in
                line.firstMatch(of: pattern).map { (index + 1, String($0.1)) }
            }
    }
}
