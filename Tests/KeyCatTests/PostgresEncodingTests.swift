import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Search stores and compares Hangul as UTF-8: a Postgres database in another encoding (what a
/// cluster initialised under a non-UTF-8 `LC_CTYPE` gives) is refused at open with what to do.
@Suite("Postgres database encoding", .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI))
struct PostgresEncodingTests {
    @Test("a SQL_ASCII database is refused at open, naming its encoding and LC_CTYPE; nothing is created in it")
    func refusesOtherEncodings() async throws {
        let url = try PostgresTestServer.requireURL()
        // One database kept on the test server from run to run, made when missing: nothing is
        // ever created in it (the test checks that), and dropping it would cost a checkpoint of
        // the whole server, under load a minute or more of a transaction that holds every event
        // reader on the server back. Should a regression ever create a table in it, the test
        // stays red until the database is dropped by hand (`DROP DATABASE keycat_test_sql_ascii`).
        let name = "keycat_test_sql_ascii"
        let admin = try PostgresDatabase(configuration: PostgresConfiguration(url: url))
        defer { admin.close() }
        try await admin.withConnection { connection in
            guard try connection.queryOne("SELECT 1 FROM pg_database WHERE datname = ?", [.text(name)], { _ in true }) == nil else { return }
            do {
                try connection.execute("CREATE DATABASE \(name) ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
            } catch let error as PostgresError where ["42P04", "23505"].contains(error.sqlState) {
                // Another test run made it first (23505 when both were making it at once).
            }
        }
        let other = try #require(URL(string: url)).deletingLastPathComponent().appendingPathComponent(name).absoluteString
        try await withTemporaryDirectory { directory in
            let configuration = KeyCat.Configuration(.postgres(url: other, filesBeside: directory.appendingPathComponent("shop.db").path))
            await expectError(.storage) { try await KeyCat.open(configuration) }
            do {
                _ = try await KeyCat.open(configuration)
            } catch let error as KeyCatError {
                #expect(error.message.contains("SQL_ASCII") && error.message.contains("LC_CTYPE C") && error.message.contains("UTF8"),
                        "\(error.message)")
            }
        }
        let tables = try PostgresDatabase(configuration: PostgresConfiguration(url: other))
        defer { tables.close() }
        let count = try await tables.read { try $0.queryOne("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", []) { $0.int(0) } }
        #expect(count == 0, "the refusal came before any table was created")
    }
}
