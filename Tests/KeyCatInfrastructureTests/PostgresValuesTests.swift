import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// What only Postgres does with values: its own `boolean` and `integer` columns, NaN, `numeric`, and
/// text it cannot hold. What every store does is `StoreValueContractTests`.
@Suite("Postgres values", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresValuesTests {
    private func withTable(_ body: (PostgresConnection) throws -> Void) async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            try connection.execute("""
                CREATE TABLE v (
                    id bigserial PRIMARY KEY,
                    big bigint, small integer, real double precision, words text, blob bytea, flag boolean
                )
                """)
            try body(connection)
        }
    }

    @Test("integers, doubles, booleans and NULL come back as they went in", arguments: [
        (Int64.max, Double.greatestFiniteMagnitude, true),
        (Int64.min, -Double.leastNonzeroMagnitude, false),
        (0, 0.1, true),
        (-1, Double.infinity, false),
        (42, -Double.infinity, true),
    ])
    func scalars(big: Int64, real: Double, flag: Bool) async throws {
        try await withTable { connection in
            try connection.run(
                "INSERT INTO v (big, small, real, flag) VALUES (?, ?, ?, ?)",
                [.integer(big), .int(Int32.min), .real(real), .bool(flag)])
            try connection.run("INSERT INTO v (big, small, real, flag, words) VALUES (NULL, ?, ?, NULL, ?)", [nil, nil, nil])
            let rows = try connection.query("SELECT big, small, real, flag, words FROM v ORDER BY id") { row in
                (row.optionalInt64(0), row.int(1), row.optionalDouble(2), row.bool(3), row.optionalString(4), row.isNull(3))
            }
            #expect(rows.count == 2)
            #expect(rows[0].0 == big && rows[0].1 == Int(Int32.min) && rows[0].2 == real && rows[0].3 == flag)
            #expect(rows[1].0 == nil && rows[1].2 == nil && rows[1].4 == nil && rows[1].5)
            #expect(rows[1].1 == 0 && rows[1].3 == false)  // NULL reads as 0 and false, as in SQLite
        }
    }

    @Test("NaN survives the trip, and numeric columns read as integers and doubles")
    func notANumberAndNumeric() async throws {
        try await withTable { connection in
            #expect(try connection.queryOne("SELECT ?::float8", [.real(.nan)]) { $0.double(0) }?.isNaN == true)
            let row = try connection.queryOne("SELECT 12345678901234::numeric, 2.5::numeric, count(*) FROM v") {
                ($0.int64(0), $0.double(1), $0.int(2))
            }
            #expect(row?.0 == 12_345_678_901_234 && row?.1 == 2.5 && row?.2 == 0)
        }
    }

    @Test("a NUL in text is a typed error that writes nothing and leaves the connection usable")
    func nulInText() async throws {
        try await withTable { connection in
            let error = try #require(throws: PostgresError.self) {
                try connection.run("INSERT INTO v (words) VALUES (?)", [.text("before\u{0}after")])
            }
            #expect(error.isInvalidText)
            #expect(error.sqlState == "22021")
            #expect(try connection.queryOne("SELECT count(*) FROM v") { $0.int(0) } == 0)
        }
    }

    @Test("an append that holds a NUL in text, or a row of the wrong width, is a typed error that writes nothing")
    func appendRefusedByTheClient() async throws {
        try await withTable { connection in
            let nul = try #require(throws: PostgresError.self) {
                try connection.copy(into: "v", columns: ["words"], count: 3) { index, arguments in
                    arguments.append(.text(index == 1 ? "before\u{0}after" : "fine"))
                }
            }
            #expect(nul.isInvalidText)
            let width = try #require(throws: PostgresError.self) {
                try connection.copy(into: "v", columns: ["words", "big"], count: 2) { index, arguments in
                    arguments.append(.text("only one value"))
                }
            }
            #expect(width.message.contains("row 0 has 1 values for 2 columns"), "\(width)")
            let unknown = try #require(throws: PostgresError.self) {
                try connection.copy(into: "v", columns: ["no_such_column"], count: 1) { _, arguments in arguments.append(.null) }
            }
            #expect(unknown.sqlState == "42703", "\(unknown)")
            // The connection is still usable, and the copies above left nothing.
            try connection.copy(into: "v", columns: ["words", "flag"], count: 2) { index, arguments in
                arguments += [.text("row \(index)"), .bool(index == 1)]
            }
            #expect(try connection.query("SELECT words, flag FROM v ORDER BY id") { "\($0.string(0)) \($0.bool(1))" }
                    == ["row 0 false", "row 1 true"])
        }
    }

    @Test("an append whose connection is lost midway is an error, and the server keeps none of it")
    func appendLosingItsConnection() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            defer { connection.close() }
            try connection.execute("CREATE TABLE v (id bigint PRIMARY KEY, words text)")
            let killer = try PostgresConnection(configuration: configuration)
            defer { killer.close() }
            let processID = connection.backendProcessID
            // Several chunks of the copy are sent before the server process is ended under it.
            #expect(throws: PostgresError.self) {
                try connection.copy(into: "v", columns: ["id", "words"], count: 50_000) { index, arguments in
                    if index == 25_000 {
                        _ = try? killer.queryOne("SELECT pg_terminate_backend(?)", [.int(processID)]) { $0.bool(0) }
                    }
                    arguments += [.int(index), .text("row \(index) of a copy cut short")]
                }
            }
            #expect(try killer.queryOne("SELECT count(*) FROM v") { $0.int(0) } == 0)
        }
    }

    @Test("invalid UTF-8 made into text is refused by the server with the same typed error")
    func invalidUTF8AsText() async throws {
        try await withTable { connection in
            for invalid: [UInt8] in [[0x66, 0x6F, 0xFF], [0xC3, 0x28], [0x61, 0x00, 0x62]] {
                let error = try #require(throws: PostgresError.self) {
                    try connection.run("INSERT INTO v (words) VALUES (convert_from(?, 'UTF8'))", [.blob(invalid)])
                }
                #expect(error.isInvalidText, "\(error)")
            }
            #expect(try connection.queryOne("SELECT count(*) FROM v") { $0.int(0) } == 0)
        }
    }
}
