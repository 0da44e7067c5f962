import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

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

    @Test("text comes back byte for byte: long, quoted, SQL-looking, and beyond ASCII", arguments: [
        String(repeating: "키캣 keycaps ", count: 2_400),  // about 30 KB
        "O'Reilly's \"quoted\" \\backslash\\ 'unterminated",
        "'); DROP TABLE v; --",
        "; -- ? $1 /* not a parameter */",
        "",
        "🐱⌨️ e\u{301} ﷽",
    ])
    func text(_ words: String) async throws {
        try await withTable { connection in
            try connection.run("INSERT INTO v (words) VALUES (?)", [.text(words)])
            let back = try connection.queryOne("SELECT words, octet_length(words) FROM v") { ($0.string(0), $0.int(1)) }
            #expect(back?.0 == words)
            #expect(back?.1 == words.utf8.count)
            #expect(try connection.queryOne("SELECT count(*) FROM v WHERE words = ?", [.text(words)]) { $0.int(0) } == 1)
        }
    }

    @Test("bytes come back byte for byte, NULs and invalid UTF-8 included")
    func bytes() async throws {
        try await withTable { connection in
            let every = [UInt8](0...255) + [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0x00]
            for blob in [every, [], [0x00], Array(repeating: 0xAB, count: 30_000)] {
                try connection.run("DELETE FROM v")
                try connection.run("INSERT INTO v (blob) VALUES (?)", [.blob(blob)])
                let back = try connection.queryOne("SELECT blob, length(blob) FROM v") { ($0.bytes(0), $0.int(1)) }
                #expect(back?.0 == blob)
                #expect(back?.1 == blob.count)
            }
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
