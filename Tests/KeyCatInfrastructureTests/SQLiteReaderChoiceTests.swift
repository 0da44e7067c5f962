import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// Which reader connection a read gets. Each reader keeps its own page cache, so the choice
/// decides how warm the cache a read finds is.
@Suite("SQLite's choice of reader")
struct SQLiteReaderChoiceTests {
    private func withDatabase(readers: Int, _ body: (SQLiteDatabase) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory async throws in
            var configuration = SQLiteConfiguration()
            configuration.readerCount = readers
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("r.db").path, configuration: configuration)
            defer { database.close() }
            try await database.write { try $0.execute("CREATE TABLE t (x INTEGER NOT NULL)") }
            try await body(database)
        }
    }

    @Test("reads one after another all get the same reader, so they share one warm page cache")
    func sequentialReadsShareOneReader() async throws {
        try await withDatabase(readers: 3) { database in
            var used = Set<ObjectIdentifier>()
            for _ in 0..<6 {
                used.insert(try await database.readStatement { ObjectIdentifier($0) })
                used.insert(try await database.read { ObjectIdentifier($0) })
                used.insert(try database.blockingReadStatement { ObjectIdentifier($0) })
            }
            // Handed out in turn, six rounds would have used all three (and a random
            // read of a large table missed the cache of the two that sat out).
            #expect(used.count == 1)
        }
    }

    @Test("reads at the same time each get a reader of their own, then the first is reused")
    func overlappingReadsSpread() async throws {
        try await withDatabase(readers: 3) { database in
            let (outer, middle, inner) = try database.blockingReadStatement { outer in
                try database.blockingReadStatement { middle in
                    try database.blockingReadStatement { inner in
                        (ObjectIdentifier(outer), ObjectIdentifier(middle), ObjectIdentifier(inner))
                    }
                }
            }
            #expect(Set([outer, middle, inner]).count == 3)
            #expect(try database.blockingReadStatement { ObjectIdentifier($0) } == outer)
        }
    }
}
