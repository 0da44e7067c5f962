import Foundation
import Testing
@testable import keycat_bench

/// A run's temporary directory is locked while the run lives; the next run removes those whose
/// runs are gone, and nothing else in `TMPDIR`.
struct BenchDirectoryTests {
    @Test("a new run removes abandoned directories, and keeps live runs' and everything not the bench's")
    func removesAbandoned() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }

        var live: BenchDirectory? = try BenchDirectory(in: parent)
        let liveName = try #require(live).url.lastPathComponent
        try Data("rows".utf8).write(to: try #require(live).url.appendingPathComponent("bench.db"))
        // What a killed run leaves: a directory of the bench's name that nobody holds.
        let abandoned = "keycat-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(at: parent.appendingPathComponent("\(abandoned)/nested"), withIntermediateDirectories: true)
        // Not the bench's, though named alike.
        let others = ["keycat-bench-notes", "keycat-bench-\(UUID().uuidString)x", "keycat-bench-staging-\(UUID().uuidString)"]
        for other in others {
            try FileManager.default.createDirectory(at: parent.appendingPathComponent(other), withIntermediateDirectories: true)
        }

        let next = try BenchDirectory(in: parent)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: parent.path))
        #expect(names == Set(others + [liveName, next.url.lastPathComponent]))
        #expect(FileManager.default.fileExists(atPath: try #require(live).url.appendingPathComponent("bench.db").path))

        // Once the first run's lock is released (its process ended), its directory goes too.
        #expect(BenchDirectory.removeAbandoned(in: parent).isEmpty)
        live = nil
        #expect(BenchDirectory.removeAbandoned(in: parent).map(\.lastPathComponent) == [liveName])
        next.remove()
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path)) == Set(others))
    }
}
