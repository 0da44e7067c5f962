import Foundation
import KeyCatTestSupport
import Testing

/// An installed `keycat-admin` is a lone binary run from anywhere: nothing of the repository
/// may be needed beside it.
///
/// SQLite only: it runs the demo, which builds a SQLite file.
@Suite("keycat-admin installed elsewhere")
struct AdminInstalledTests {
    /// Copies the built binary into `directory/bin`, as `scripts/install` does.
    private func install(into directory: URL) throws -> URL {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let installed = bin.appendingPathComponent("keycat-admin")
        try FileManager.default.copyItem(at: AdminProcess.binary, to: installed)
        return installed
    }

    @Test("from a folder outside the repository: --version, demo, every command the demo suggests, and seed")
    func runsFromAnywhere() throws {
        try withTemporaryDirectory { directory in
            let binary = try install(into: directory)
            let work = directory.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let run = { (arguments: [String]) in
                try AdminProcess.run(arguments, environment: ["PATH": binary.deletingLastPathComponent().path + ":/usr/bin:/bin"],
                                     currentDirectory: work, binary: binary)
            }

            let version = try run(["--version"])
            #expect(version.status == 0)
            #expect(version.standardOutput.contains("keycat-admin "))
            #expect(version.standardOutput.contains("schema version "))
            #expect(version.standardOutput.contains("SQLite 3."))
            #expect(version.standardOutput.contains("OpenSSL"))

            let demo = try run(["demo"])
            #expect(demo.status == 0, "\(demo.standardError)")
            let suggested = demo.standardOutput.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("keycat-admin ") }
            #expect(suggested.count >= 5)
            for line in suggested {
                // The demo prints shell words without quotes for its default path.
                let words = line.split(separator: " ").dropFirst().map(String.init)
                let outcome = try run(words)
                #expect(outcome.status == 0, "«\(line)» failed: \(outcome.standardError)")
            }

            #expect(try run(["init", "--db", "shop.db"]).status == 0)
            let seed = try run(["seed", "--db", "shop.db", "--json"])
            #expect(seed.status == 0, "\(seed.standardError)")
            let created = try jsonObject(seed.standardOutput)["products_created"] as? Int
            #expect((created ?? 0) > 100)
        }
    }
}
