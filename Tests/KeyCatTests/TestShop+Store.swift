import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure

extension TestShop {
    /// Opens KeyCat on `store` (from ``withConfiguration(_:_:)``) as a test process would: with
    /// `clock`, cheap hashing and quiet, quick gateway retries. Closing it is the caller's.
    static func open(_ store: KeyCat.Configuration, clock: TestClock) async throws -> KeyCat {
        var configuration = store
        configuration.clock = clock
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        configuration.gatewayInitialBackoff = .milliseconds(1)
        return try await KeyCat.open(configuration)
    }

    /// Runs `sql` (one or more `;`-separated statements) on the shop's own store, beside the use
    /// cases: to break what they keep, or to set up what no use case writes.
    func execute(_ sql: String) async throws {
        try await Self.execute(sql, on: keycat.store.database)
    }

    private static func execute(_ sql: String, on database: some SQLDatabase) async throws {
        try await database.write { try $0.execute(sql) }
    }

    /// Mends the search index's postings and counts as a rebuild's last step does, running
    /// `between` after its first survey and before that survey's repair
    /// (``SearchMaintenance/mend(betweenSurveyAndRepair:)``); whether it ended clean.
    @discardableResult
    func mendSearch(between: () async -> Void = {}) async throws -> Bool {
        try await Self.mendSearch(on: keycat.store.database, between: between)
    }

    private static func mendSearch(on database: some SQLDatabase, between: () async -> Void) async throws -> Bool {
        try await SearchMaintenance(database: database).mend(betweenSurveyAndRepair: between)
    }

    /// The first column of the first row of `sql`, an integer, read from the shop's store.
    func integer(_ sql: String) async throws -> Int {
        try await Self.integer(sql, in: keycat.store.database)
    }

    private static func integer(_ sql: String, in database: some SQLDatabase) async throws -> Int {
        try await database.read { try $0.queryOne(sql, []) { $0.int(0) } } ?? 0
    }

    /// Every table's row count, `table: count` a line: what a refused request must leave as it was.
    func rowCounts() async throws -> String {
        let tables = try await Self.strings(
            isPostgres ? "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
                : "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            in: keycat.store.database)
        var lines: [String] = []
        for table in tables { lines.append("\(table): \(try await integer("SELECT count(*) FROM \(table)"))") }
        return lines.joined(separator: "\n")
    }

    private static func strings(_ sql: String, in database: some SQLDatabase) async throws -> [String] {
        try await database.read { try $0.query(sql, []) { $0.string(0) } }
    }

    /// Whether the shop's rows are in Postgres.
    var isPostgres: Bool { keycat.store.file == nil }
}
