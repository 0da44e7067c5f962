import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// What every store promises about values (``SQLValue`` in, ``SQLRow`` out) in columns of the
/// schema's types (``SQLDialect/ColumnTypes``), checked the same way on each: the store contract
/// for values. What only one store does (SQLite keeps a NUL in text, Postgres refuses it; NaN)
/// is tested beside that store.
@Suite("Store contract: values")
struct StoreValueContractTests {
    struct Values: Sendable, CustomTestStringConvertible {
        let integer: Int64
        let real: Double
        let text: String
        let blob: [UInt8]
        var testDescription: String { "\(integer), \(real), \(text.prefix(12).debugDescription) (\(text.utf8.count) bytes), \(blob.count) bytes" }
    }

    static let values: [Values] = [
        Values(integer: .min, real: 0.1, text: String(repeating: "키캣 keycaps ", count: 2_400), blob: Array(0...255)),
        Values(integer: .max, real: -1e300, text: "O'Reilly's \"quoted\" \\backslash\\ 'unterminated", blob: []),
        Values(integer: 0, real: .greatestFiniteMagnitude, text: "'); DROP TABLE t; --", blob: [0x00]),
        Values(integer: -1, real: -.leastNonzeroMagnitude, text: "; -- ? $1 /* not a parameter */", blob: [0xFF, 0xFE, 0x00, 0xC3, 0x28]),
        Values(integer: 42, real: .infinity, text: "", blob: Array(repeating: 0xAB, count: 30_000)),
        Values(integer: 7, real: -.infinity, text: "🐱⌨️ e\u{301} ﷽", blob: [1]),
    ]

    private static func withTable(_ store: TestStore, _ check: (any SQLDatabase) async throws -> Void) async throws {
        try await store.withDatabases { databases in
            try await createTable(databases[0])
            try await check(databases[0])
        }
    }

    private static func createTable<Database: SQLDatabase>(_ database: Database) async throws {
        try await database.write { connection in
            let type = connection.dialect.columnTypes
            try connection.execute("""
                CREATE TABLE t (
                    id \(type.rowID), i \(type.integer), r \(type.real), s \(type.text), b \(type.blob)
                )\(type.tableOptions)
                """)
        }
    }

    @Test("integers, doubles, text and bytes come back as they went in, and NULL as NULL",
          arguments: TestStore.allCases, values)
    func roundTrip(_ store: TestStore, _ values: Values) async throws {
        try await Self.withTable(store) { try await Self.roundTrip($0, values) }
    }

    static func roundTrip<Database: SQLDatabase>(_ database: Database, _ values: Values) async throws {
        let id = try await database.write { connection in
            try connection.run("INSERT INTO t (i, r, s, b) VALUES (NULL, NULL, NULL, NULL)", [])
            return try connection.insertReturningID(
                "INSERT INTO t (i, r, s, b) VALUES (?, ?, ?, ?)",
                [.integer(values.integer), .real(values.real), .text(values.text), .blob(values.blob)])
        }
        let rows = try await database.read { connection in
            try connection.query("SELECT i, r, s, b, id FROM t ORDER BY id", []) { row in
                (row.optionalInt64(0), row.optionalDouble(1), row.optionalString(2), row.isNull(3) ? nil : row.bytes(3), row.int64(4))
            }
        }
        #expect(rows.count == 2)
        #expect(rows[0].0 == nil && rows[0].1 == nil && rows[0].2 == nil && rows[0].3 == nil)
        #expect(rows[1].4 == id)
        #expect(rows[1].0 == values.integer)
        #expect(rows[1].1 == values.real)
        #expect(rows[1].2 == values.text)
        #expect(rows[1].3 == values.blob)
        // The same values find the row again as parameters.
        let found = try await database.read { connection in
            try connection.queryOne("SELECT count(*) FROM t WHERE i = ? AND s = ? AND b = ?",
                                    [.integer(values.integer), .text(values.text), .blob(values.blob)]) { $0.int(0) }
        }
        #expect(found == 1)
    }

    @Test("text sorts and compares by code point, whatever the server's locale; booleans are 0 and 1",
          arguments: TestStore.allCases)
    func textOrderAndBooleans(_ store: TestStore) async throws {
        try await Self.withTable(store) { try await Self.textOrderAndBooleans($0) }
    }

    static func textOrderAndBooleans<Database: SQLDatabase>(_ database: Database) async throws {
        let words = ["가", "é", "a", "B", "Z", "b", "A", "e", "🐱", "a b", "ab"]
        try await database.write { connection in
            for word in words { try connection.run("INSERT INTO t (s, i) VALUES (?, ?)", [.text(word), .bool(word == "a")]) }
        }
        let sorted = try await database.read { try $0.query("SELECT s FROM t ORDER BY s", []) { $0.string(0) } }
        #expect(sorted == words.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) })
        let (caseSensitive, marked) = try await database.read { connection in
            (try connection.queryOne("SELECT count(*) FROM t WHERE s = ?", ["A"]) { $0.int(0) },
             try connection.query("SELECT s, i FROM t WHERE i = 1", []) { ($0.string(0), $0.bool(1)) })
        }
        #expect(caseSensitive == 1)
        #expect(marked.count == 1 && marked[0].0 == "a" && marked[0].1)
    }

    @Test("rows appended together come back as they went in, and a refused row keeps none of them",
          arguments: TestStore.allCases)
    func append(_ store: TestStore) async throws {
        try await Self.withTable(store) { try await Self.append($0) }
    }

    static func append<Database: SQLDatabase>(_ database: Database) async throws {
        // What COPY's text format must escape, beside the values above: its separators, its
        // NULL and its end marker, as text.
        let awkward = ["tab\there", "line\nbreak\r\n", "\\N", "\\.", "\\", "\t\\n", "키보드\t갈축"]
        var rows = values.map { [SQLValue.integer($0.integer), .real($0.real), .text($0.text), .blob($0.blob)] }
        rows += awkward.enumerated().map { [.int($0.offset), .null, .text($0.element), .null] }
        rows.append([.null, .null, .null, .null])
        let count = rows.count
        try await database.write { connection in
            try connection.append(into: "t", columns: ["id", "i", "r", "s", "b"], count: count) { index, arguments in
                arguments.append(.int(index + 1))
                arguments += rows[index]
            }
        }
        let stored = try await database.read { connection in
            try connection.query("SELECT i, r, s, b FROM t ORDER BY id", []) { row in
                [row.isNull(0) ? .null : .integer(row.int64(0)), row.isNull(1) ? .null : .real(row.double(1)),
                 row.isNull(2) ? .null : .text(row.string(2)), row.isNull(3) ? .null : .blob(row.bytes(3))] as [SQLValue]
            }
        }
        #expect(stored == rows)

        // A second append whose last row repeats an id: the table refuses it, and the write
        // keeps none of its rows.
        await #expect(throws: (any Error).self) {
            try await database.write { connection in
                try connection.append(into: "t", columns: ["id", "s"], count: 3) { index, arguments in
                    arguments += [.int(index == 2 ? 1 : count + 1 + index), .text("again \(index)")]
                }
            }
        }
        let after = try await database.read { try $0.queryOne("SELECT count(*) FROM t", []) { $0.int(0) } }
        #expect(after == count)
    }
}
