import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

@Suite("Postgres server for the tests")
struct PostgresServerTests {
    @Test("a CI run has a Postgres server, so the Postgres suites cannot be skipped there")
    func serverIsConfiguredInCI() throws {
        guard PostgresTestServer.isCI else { return }
        #expect(PostgresTestServer.isConfigured, "CI=true but \(PostgresTestServer.skipReason)")
        let connection = try PostgresConnection(url: try PostgresTestServer.requireURL())
        #expect(try connection.queryOne("SELECT 1") { $0.int(0) } == 1)
    }
}

@Suite("Postgres connections", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresConnectionTests {
    /// The test server's URL with one part changed.
    private func url(_ change: (inout URLComponents) -> Void) throws -> String {
        var components = try #require(URLComponents(string: try PostgresTestServer.requireURL()))
        change(&components)
        return try #require(components.string)
    }

    @Test("connects, answers, and closing twice is harmless; a closed connection says so")
    func connectAndCloseTwice() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            #expect(connection.isOpen)
            #expect(connection.backendProcessID != 0)
            #expect(try connection.queryOne("SELECT current_schema()") { $0.string(0) } == configuration.searchPath)
            connection.close()
            connection.close()
            #expect(!connection.isOpen)
            let error = try #require(throws: PostgresError.self) { try connection.run("SELECT 1") }
            #expect(error.isClosed)
        }
    }

    @Test("without a URL, libpq's environment variables say where to connect")
    func environmentVariables() async {
        // In a child process, so setting the variables cannot disturb tests running beside it.
        await #expect(processExitsWith: .success) {
            guard let url = PostgresTestServer.url, let parts = URLComponents(string: url) else { exit(2) }
            let variables = [
                "PGHOST": parts.host, "PGPORT": parts.port.map(String.init), "PGUSER": parts.user,
                "PGPASSWORD": parts.password, "PGDATABASE": String(parts.path.dropFirst()),
            ]
            for case let (name, value?) in variables { setenv(name, value, 1) }
            let connection = try? PostgresConnection(url: nil)
            let user = try? connection?.queryOne("SELECT current_user") { $0.string(0) }
            exit(user == parts.user ? 0 : 1)
        }
    }

    @Test("a connection asks for TCP keepalives after 30 s idle, so a peer gone silent is found in about a minute; the URL may say otherwise")
    func keepalives() throws {
        let url = try PostgresTestServer.requireURL()
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        #expect([connection.option("keepalives"), connection.option("keepalives_idle"), connection.option("keepalives_interval"),
                  connection.option("keepalives_count")] == ["1", "30", "10", "3"])
        let tuned = try PostgresConnection(url: url + (url.contains("?") ? "&" : "?") + "keepalives_idle=5")
        defer { tuned.close() }
        #expect(tuned.option("keepalives_idle") == "5")
    }

    @Test("a session idle for a minute inside a transaction is ended by the server, its locks released; a setting elsewhere stands")
    func idleInTransaction() throws {
        let url = try PostgresTestServer.requireURL()
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        #expect(try connection.queryOne("SHOW idle_in_transaction_session_timeout") { $0.string(0) } == "1min")
        // An operator's 0 (no timeout) stands, as any value set elsewhere does.
        let unbounded = try PostgresConnection(url: url + (url.contains("?") ? "&" : "?")
                                                   + "options=-c%20idle_in_transaction_session_timeout%3D0")
        defer { unbounded.close() }
        #expect(try unbounded.queryOne("SHOW idle_in_transaction_session_timeout") { $0.string(0) } == "0")

        // The URL's own value stands; short here, to see what it does.
        let hung = try PostgresConnection(url: url + (url.contains("?") ? "&" : "?")
                                              + "options=-c%20idle_in_transaction_session_timeout%3D300ms")
        defer { hung.close() }
        #expect(try hung.queryOne("SHOW idle_in_transaction_session_timeout") { $0.string(0) } == "300ms")
        try hung.run("BEGIN", [])
        try hung.run("SELECT pg_advisory_xact_lock(4242)", [])
        #expect(try connection.queryOne("SELECT pg_try_advisory_lock(4242)") { $0.bool(0) } == false)
        Thread.sleep(forTimeInterval: 1)
        let ended = try #require(throws: PostgresError.self) { try hung.run("SELECT 1", []) }
        #expect(ended.isConnectionLost, "\(ended)")
        #expect(try connection.queryOne("SELECT pg_try_advisory_lock(4242)") { $0.bool(0) } == true)
        try connection.run("SELECT pg_advisory_unlock(4242)", [])
    }

    @Test("a malformed URL is a typed error before any connection is tried")
    func malformedURL() throws {
        for url in ["postgres://localhost/db?no_such_option=1", "host='unterminated"] {
            let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
            #expect(error.isInvalidConnectionString, "\(error)")
        }
    }

    @Test("a malformed URL's message does not repeat its password, which libpq quotes when it cannot read it")
    func malformedURLKeepsItsPassword() throws {
        for url in ["postgres://shop:Sup3r%Secret@localhost/db", "postgres://shop@localhost/db?password=Sup3r%Secret"] {
            let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
            #expect(error.isInvalidConnectionString && !"\(error)".contains("Secret"), "\(error)")
        }
    }

    @Test("a wrong password is an authentication failure that does not reveal the password")
    func wrongPassword() throws {
        let url = try url { $0.password = "not-the-password" }
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error.isAuthenticationFailure, "\(error)")
        #expect(!error.isConnectionFailure)
        #expect(!"\(error)".contains("not-the-password"))
    }

    @Test("no server at the address is a connection failure, not a hang")
    func nobodyListening() throws {
        let url = try url {
            $0.host = "127.0.0.1"
            $0.port = 1
            $0.queryItems = [URLQueryItem(name: "connect_timeout", value: "2")]
        }
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error.isConnectionFailure, "\(error)")
        let pool = try #require(throws: PostgresError.self) { try PostgresDatabase(configuration: .init(url: url)) }
        #expect(pool.isConnectionFailure)
    }

    @Test("a statement is prepared on the server once and then only executed")
    func preparedStatementReuse() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            let sql = "SELECT ? + 1 AS next"
            for value in 1...5 {
                #expect(try connection.queryOne(sql, [.int(value)]) { $0.int(0) } == value + 1)
            }
            let prepared = try connection.query(
                "SELECT statement FROM pg_prepared_statements WHERE statement LIKE ?", ["%+ 1 AS next%"]
            ) { $0.string(0) }
            #expect(prepared == ["SELECT $1 + 1 AS next"])
            let before = try connection.queryOne("SELECT count(*) FROM pg_prepared_statements") { $0.int(0) }
            _ = try connection.queryOne(sql, [7]) { $0.int(0) }
            let after = try connection.queryOne("SELECT count(*) FROM pg_prepared_statements") { $0.int(0) }
            #expect(before == after)
            #expect(connection.cachedStatementCount == after)
        }
    }

    @Test("a statement whose cached plan a schema change outdated is prepared afresh on its next use")
    func planOutdatedBySchemaChange() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            try connection.execute("CREATE TABLE t (a integer); INSERT INTO t VALUES (1)")
            let sql = "SELECT * FROM t"
            #expect(try connection.queryOne(sql) { $0.columnCount } == 1)
            try connection.execute("ALTER TABLE t ADD COLUMN b integer")
            let error = try #require(throws: PostgresError.self) { try connection.queryOne(sql) { $0.columnCount } }
            #expect(error.sqlState == "0A000", "\(error)")
            #expect(try connection.queryOne(sql) { $0.columnCount } == 2)
        }
    }

    @Test("runs several statements at once and counts the rows a statement changes")
    func executeAndAffectedRows() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            try connection.execute("""
                CREATE TABLE t (id bigint PRIMARY KEY, n integer NOT NULL);
                INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
                """)
            #expect(try connection.run("UPDATE t SET n = n + 1 WHERE n >= ?", [20]) == 2)
            #expect(try connection.run("DELETE FROM t WHERE id = ?", [99]) == 0)
            var seen: [Int64] = []
            try connection.forEach("SELECT id FROM t ORDER BY id") { seen.append($0.int64(0)) }
            #expect(seen == [1, 2, 3])
            #expect(try connection.queryOne("SELECT n FROM t WHERE id = ?", [42]) { $0.int(0) } == nil)
        }
    }

    @Test("a duplicate key is a unique violation that keeps its SQLSTATE, constraint, detail and statement")
    func uniqueViolation() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            try connection.execute("CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL UNIQUE)")
            let insert = "INSERT INTO users (id, email) VALUES (?, ?)"
            try connection.run(insert, [1, "a@keycat.kr"])
            let error = try #require(throws: PostgresError.self) { try connection.run(insert, [2, "a@keycat.kr"]) }
            #expect(error.isUniqueViolation)
            #expect(error.isConstraintViolation)
            #expect(error.sqlState == "23505")
            #expect(error.constraint == "users_email_key")
            #expect(error.detail?.contains("a@keycat.kr") == true)
            #expect(error.statement == insert)
            #expect(!error.isTransientTransactionFailure && !error.isConnectionLost)
            let notNull = try #require(throws: PostgresError.self) { try connection.run(insert, [3, nil]) }
            #expect(notNull.isNotNullViolation && !notNull.isUniqueViolation)
            #expect(try connection.queryOne("SELECT count(*) FROM users") { $0.int(0) } == 1)
        }
    }

    @Test("a syntax error is a server error with its SQLSTATE, and the connection goes on")
    func syntaxError() async throws {
        try await withPostgresSchema { configuration in
            let connection = try PostgresConnection(configuration: configuration)
            let cached = connection.cachedStatementCount
            let error = try #require(throws: PostgresError.self) { try connection.run("SELEKT 1") }
            #expect(error.sqlState == "42601")
            #expect(error.message.contains("syntax error"))
            #expect(connection.cachedStatementCount == cached)  // a statement that failed to prepare is not kept
            #expect(try connection.queryOne("SELECT 2") { $0.int(0) } == 2)
        }
    }
}
