import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// The wake-up readers wait on: a generation that moves when an announced write commits — in
/// this database at once, in another handle on the same file or schema once told — and never for
/// a write that rolled back or did not ask.
@Suite("Commit signals")
struct CommitSignalTests {
    @Test("a waiter wakes when the generation moves, when its timeout passes, and at once when cancelled")
    func waiting() async throws {
        let signal = ChangeSignal()
        let generation = signal.generation
        let waiter = Task { await signal.wait(past: generation, timeout: .seconds(3_600)) }
        try await Task.sleep(for: .milliseconds(50))
        signal.fire()
        await waiter.value
        #expect(signal.generation == generation + 1)
        // Past a generation that has already moved: no wait at all.
        await signal.wait(past: generation, timeout: .seconds(3_600))
        // The timeout ends a wait nothing fires.
        await signal.wait(past: signal.generation, timeout: .milliseconds(20))
        let cancelled = Task { await signal.wait(past: signal.generation, timeout: .seconds(3_600)) }
        cancelled.cancel()
        await cancelled.value
    }

    @Test("an announced commit fires its own database's signal; a write that did not ask, or rolled back, does not",
          arguments: TestStore.allCases)
    func ownCommits(_ store: TestStore) async throws {
        // The database's own signal, not watching others: a watcher would also fire for the
        // writes that did not ask (inotify sees every write to the file).
        try await store.withDatabases { databases in
            if let database = databases[0] as? SQLiteDatabase { try await Self.ownCommits(database, database.commits) }
            if let database = databases[0] as? PostgresDatabase { try await Self.ownCommits(database, database.commits) }
        }
    }

    private struct Refused: Error {}

    private static func ownCommits<Database: SQLDatabase>(_ database: Database, _ signal: ChangeSignal) async throws {
        try database.blockingWithConnection { try $0.execute("CREATE TABLE notes (id BIGINT PRIMARY KEY)") }
        let start = signal.generation
        try await database.write { try $0.run("INSERT INTO notes (id) VALUES (1)", []) }
        #expect(signal.generation == start, "a write that did not ask")
        await #expect(throws: Refused.self) {
            try await database.write { connection in
                try connection.run("INSERT INTO notes (id) VALUES (2)", [])
                connection.announceOnCommit()
                throw Refused()
            }
        }
        #expect(signal.generation == start, "a write that rolled back")
        try await database.write { connection in
            try connection.run("INSERT INTO notes (id) VALUES (3)", [])
            connection.announceOnCommit()
        }
        #expect(signal.generation > start)
    }

    @Test("another handle's announced commit on the same file or schema wakes a waiter", arguments: TestStore.allCases)
    func otherHandles(_ store: TestStore) async throws {
        try await store.withDatabases(2) { databases in try await Self.otherHandles(databases[0], databases[1]) }
    }

    private static func otherHandles<Database: SQLDatabase>(_ reader: Database, _ other: any SQLDatabase) async throws {
        let writer = try #require(other as? Database)
        try writer.blockingWithConnection { try $0.execute("CREATE TABLE notes (id BIGINT PRIMARY KEY)") }
        let signal = reader.watchCommits()
        // The watcher (a thread with inotify, or a listening connection) takes a moment to start;
        // a write before then is caught up by a reader's own reading, not by the signal.
        try await Task.sleep(for: .milliseconds(500))
        let generation = signal.generation
        let woken = Task { await signal.wait(past: generation, timeout: .seconds(60)) }
        try await writer.write { connection in
            try connection.run("INSERT INTO notes (id) VALUES (1)", [])
            connection.announceOnCommit()
        }
        await woken.value
        #expect(signal.generation > generation, "the other handle's commit woke the waiter before its minute ran out")
    }
}
