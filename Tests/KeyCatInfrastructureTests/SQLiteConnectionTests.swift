import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("SQLite connections")
struct SQLiteConnectionTests {
    private func withConnection(_ body: (SQLiteConnection, URL) throws -> Void) throws {
        try withTemporaryDirectory { directory throws in
            let path = directory.appendingPathComponent("test.db").path
            let connection = try SQLiteConnection(path: path, configuration: SQLiteConfiguration())
            defer { connection.close() }
            try body(connection, directory)
        }
    }

    @Test("opens in WAL mode with foreign keys on and synchronous=FULL by default")
    func pragmas() throws {
        try withConnection { connection, _ throws in
            #expect(try connection.queryOne("PRAGMA journal_mode") { $0.string(0) } == "wal")
            #expect(try connection.queryOne("PRAGMA foreign_keys") { $0.int(0) } == 1)
            #expect(try connection.queryOne("PRAGMA synchronous") { $0.int(0) } == 2)  // FULL
            #expect(try connection.queryOne("PRAGMA busy_timeout") { $0.int(0) } == 5_000)
        }
    }

    @Test("synchronous is configurable")
    func synchronousNormal() throws {
        try withTemporaryDirectory { directory throws in
            var configuration = SQLiteConfiguration()
            configuration.synchronous = .normal
            let connection = try SQLiteConnection(
                path: directory.appendingPathComponent("n.db").path, configuration: configuration)
            #expect(try connection.queryOne("PRAGMA synchronous") { $0.int(0) } == 1)  // NORMAL
        }
    }

    @Test("closing twice is harmless, and a closed connection reports misuse")
    func closeTwice() throws {
        try withConnection { connection, _ throws in
            connection.close()
            connection.close()
            #expect(throws: SQLiteError.self) { try connection.run("SELECT 1") }
        }
    }

    @Test("binds and reads every storage class without loss")
    func roundTrip() throws {
        try withConnection { connection, _ throws in
            try connection.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
            let text = "키캣 ⌨️ \"quoted\" \u{0}nul"
            try connection.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                               [.integer(.min), .real(0.1), .text(text), .blob([0, 255, 7]), .null])
            try connection.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                               [.integer(.max), .real(-1e300), .text(""), .blob([]), .text("x")])
            let rows = try connection.query("SELECT i, r, s, b, n FROM t ORDER BY rowid") { row in
                (row.int64(0), row.double(1), row.string(2), row.bytes(3), row.optionalString(4))
            }
            #expect(rows.count == 2)
            #expect(rows[0].0 == .min && rows[0].1 == 0.1 && rows[0].2 == text)
            #expect(rows[0].3 == [0, 255, 7] && rows[0].4 == nil)
            #expect(rows[1].0 == .max && rows[1].1 == -1e300 && rows[1].2 == "")
            #expect(rows[1].3 == [] && rows[1].4 == "x")
            // An empty blob stays a blob, not NULL.
            #expect(try connection.queryOne("SELECT typeof(b) FROM t WHERE i = ?", [.integer(.max)]) { $0.string(0) } == "blob")
        }
    }

    /// Text is bound from room the statement keeps (``SQLiteStatement/textRoom``): each value
    /// must be read from its own bytes, the room reused and grown from one run to the next, an
    /// empty text must stay text, and text too long for the room is copied by SQLite instead.
    @Test("binds text in place across runs, as the room grows, and past it")
    func textInPlace() throws {
        try withConnection { connection, _ throws in
            try connection.execute("CREATE TABLE t (run INTEGER, a TEXT, b TEXT, c TEXT)")
            let long = String(repeating: "갈축", count: SQLiteStatement.textRoom / 6 + 1)  // 6 bytes each: past the room
            let runs: [[String]] = [
                ["a", "", "키보드"],
                ["무접점 키보드", "gateron", ""],
                ["", "", ""],
                [String(repeating: "x", count: 300), "적축", "y"],  // grows the room past its first 256 bytes
                [long, "", "c"],
                ["z", "저소음", "Q798"],  // back in the room after the fallback
            ]
            for (run, texts) in runs.enumerated() {
                try connection.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.int(run)] + texts.map(SQLValue.text))
            }
            let rows = try connection.query("SELECT a, b, c, typeof(a) || typeof(b) || typeof(c) FROM t ORDER BY run") { row in
                ([row.string(0), row.string(1), row.string(2)], row.string(3))
            }
            #expect(rows.map(\.0) == runs)
            #expect(rows.allSatisfy { $0.1 == "texttexttext" })
            // The same texts, read back by a query that binds them.
            for texts in runs {
                let found = try connection.queryOne("SELECT count(*) FROM t WHERE a = ? AND b = ? AND c = ?", texts.map(SQLValue.text)) {
                    $0.int(0)
                }
                #expect(found == 1)
            }
        }
    }

    /// A statement still stepping keeps its text while the same SQL runs again inside it (on a
    /// statement of its own), and after a bind that fails.
    @Test("text bound in place survives a nested use of the same SQL and a failed bind")
    func textInPlaceNested() throws {
        try withConnection { connection, _ throws in
            try connection.execute("CREATE TABLE t (x TEXT)")
            try connection.run("INSERT INTO t VALUES ('a'), ('b')")
            let sql = "SELECT x, ? FROM t WHERE x >= ? ORDER BY x"
            var seen: [String] = []
            try connection.forEach(sql, [.text("outer"), .text("a")]) { row in
                let inner = try connection.query(sql, [.text("inner"), .text("b")]) { "\($0.string(0)) \($0.string(1))" }
                seen.append("\(row.string(0)) \(row.string(1)) / \(inner.joined(separator: ","))")
            }
            #expect(seen == ["a outer / b inner", "b outer / b inner"])
            #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (?)", [.text("c"), .text("extra")]) }
            try connection.run("INSERT INTO t VALUES (?)", [.text("갈축")])
            #expect(try connection.queryOne("SELECT count(*) FROM t WHERE x = ?", [.text("갈축")]) { $0.int(0) } == 1)
        }
    }

    @Test("prepares each statement once and reuses it")
    func statementCache() throws {
        try withConnection { connection, _ throws in
            try connection.execute("CREATE TABLE t (x INTEGER)")
            let before = connection.cachedStatementCount
            for value in 0..<100 {
                try connection.run("INSERT INTO t (x) VALUES (?)", [.int(value)])
            }
            #expect(connection.cachedStatementCount == before + 1)
            #expect(try connection.queryOne("SELECT sum(x) FROM t") { $0.int(0) } == 4_950)
        }
    }

    /// The cache hashes a sample of a statement's bytes (``SQLStatementKey``): two texts of one
    /// length that differ only where it does not look share a hash, and must still be two
    /// statements.
    @Test("statements whose texts sample alike are cached apart")
    func statementKeysThatCollide() throws {
        let padding = String(repeating: " ", count: 1_000)
        let (one, two) = ("SELECT 1 AS x" + padding, "SELECT 2 AS x" + padding)
        #expect(SQLStatementKey(one).hashValue == SQLStatementKey(two).hashValue, "the texts must collide, or the test shows nothing")
        #expect(SQLStatementKey(one) != SQLStatementKey(two))
        try withConnection { connection, _ throws in
            let before = connection.cachedStatementCount
            for _ in 0..<3 {
                #expect(try connection.queryOne(one) { $0.int(0) } == 1)
                #expect(try connection.queryOne(two) { $0.int(0) } == 2)
            }
            #expect(connection.cachedStatementCount == before + 2)
        }
    }

    /// Texts the stores read as different bytes are different keys, even where `String` calls
    /// them equal (NFC 가 and NFD ᄀ+ᅡ), so a key's hash and its equality agree.
    @Test("statement keys compare bytes, not canonical equivalence")
    func statementKeysCompareBytes() throws {
        let (composed, decomposed) = ("SELECT '\u{AC00}'", "SELECT '\u{1100}\u{1161}'")
        #expect(composed == decomposed)
        #expect(SQLStatementKey(composed) != SQLStatementKey(decomposed))
        #expect(SQLStatementKey(composed) == SQLStatementKey(String(decoding: Array(composed.utf8), as: UTF8.self)))
        try withConnection { connection, _ throws in
            #expect(try connection.queryOne(composed) { $0.string(0) }.map { Array($0.utf8) } == Array("\u{AC00}".utf8))
            #expect(try connection.queryOne(decomposed) { $0.string(0) }.map { Array($0.utf8) } == Array("\u{1100}\u{1161}".utf8))
        }
    }

    @Test("running the same SQL inside its own row loop uses a second statement")
    func reentrantStatement() throws {
        try withConnection { connection, _ throws in
            try connection.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);")
            var pairs: [(Int, Int)] = []
            try connection.forEach("SELECT x FROM t ORDER BY x") { outer in
                let x = outer.int(0)
                let inner = try connection.query("SELECT x FROM t ORDER BY x") { $0.int(0) }
                pairs.append((x, inner.count))
            }
            #expect(pairs.map(\.0) == [1, 2, 3])
            #expect(pairs.allSatisfy { $0.1 == 3 })
        }
    }

    @Test("errors carry the extended code, SQLite's message and the SQL")
    func errorsKeepTheirCause() throws {
        try withConnection { connection, _ throws in
            try connection.execute("CREATE TABLE t (x INTEGER UNIQUE)")
            try connection.run("INSERT INTO t VALUES (1)")
            do {
                try connection.run("INSERT INTO t VALUES (?)", [1])
                Issue.record("a duplicate insert succeeded")
            } catch let error as SQLiteError {
                #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
                #expect(error.isUniqueViolation)
                #expect(error.message.contains("UNIQUE"))
                #expect(error.sql == "INSERT INTO t VALUES (?)")
            }
            #expect(throws: SQLiteError.self) { try connection.run("SELEKT 1") }
            #expect(throws: SQLiteError.self) { try connection.run("SELECT ?", []) }
        }
    }

    @Test("a file that is not a database is refused and left untouched")
    func notADatabase() throws {
        try withTemporaryDirectory { directory throws in
            let url = directory.appendingPathComponent("notes.db")
            let content = Data(String(repeating: "not a database, just text. ", count: 200).utf8)
            try content.write(to: url)
            do {
                _ = try SQLiteConnection(path: url.path, configuration: SQLiteConfiguration())
                Issue.record("opened a text file as a database")
            } catch let error as SQLiteError {
                #expect(error.isNotADatabase)
            }
            #expect(try Data(contentsOf: url) == content)
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        }
    }

    @Test("a missing file is an error when creation is off, and nothing is created")
    func missingFile() throws {
        try withTemporaryDirectory { directory throws in
            var configuration = SQLiteConfiguration()
            configuration.createIfMissing = false
            let path = directory.appendingPathComponent("absent.db").path
            #expect(throws: SQLiteError.self) { try SQLiteConnection(path: path, configuration: configuration) }
            #expect(!FileManager.default.fileExists(atPath: path))
            let nowhere = directory.appendingPathComponent("no/such/dir/x.db").path
            #expect(throws: SQLiteError.self) { try SQLiteConnection(path: nowhere, configuration: SQLiteConfiguration()) }
        }
    }
}
