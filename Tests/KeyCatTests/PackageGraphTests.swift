import Foundation
import Testing

/// The layers as Package.swift declares them are the layers the code imports. Swift 6.3.1's
/// `--explicit-target-dependency-import-check error` (which scripts/test passes) lets a target
/// import a module it reaches only through another target, so each target's `import` lines are
/// compared with its declared dependencies here.
@Suite("Package.swift and the imports agree")
struct PackageGraphTests {
    static let root = DocumentationSnippetTests.root

    /// KeyCat's own manifest, and the example server's, which depends on it by path.
    static let packages = ["", "Examples/HummingbirdServer"]

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
