import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// The listener behind KeyCat's catalog version on Postgres, against a real server: it counts
/// the notifications that name its schema and only those, and never shows a count across a gap
/// in which one could have been missed.
@Suite("Postgres notification counter", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresNotificationCounterTests {
    /// Polls `value` until `done` holds, for at most 30 seconds (a bound for a hung test, not a
    /// speed requirement).
    private func eventually<Value>(_ value: () -> Value, until done: (Value) -> Bool) async throws -> Value {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let current = value()
            if done(current) { return current }
            try #require(Date() < deadline, "still \(current) after 30 seconds")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("counts notifications naming its schema, ignores other schemas', and restarts its count after a lost connection")
    func countsAndRecovers() async throws {
        try await withPostgresSchema { configuration in
            let channel = "keycat_test_\(UUID().uuidString.prefix(8).lowercased())"
            let counter = PostgresNotificationCounter(configuration: configuration, channel: channel)
            defer { counter.close() }
            let started = try await eventually({ counter.count }, until: { $0 != nil })!

            let sender = try PostgresConnection(configuration: configuration)
            defer { sender.close() }
            // Another schema's change, then ours: delivered in order, so once ours has counted,
            // the other one was seen and ignored.
            try sender.run("SELECT pg_notify(?, 'some_other_schema')", [.text(channel)])
            try sender.run("SELECT pg_notify(?, current_schema())", [.text(channel)])
            let one = try await eventually({ counter.count }, until: { ($0 ?? started) > started })!
            #expect(one == started + 1)
            // Equal notifications in one transaction are folded into one, as Postgres promises.
            try sender.execute("BEGIN; SELECT pg_notify('\(channel)', current_schema()); SELECT pg_notify('\(channel)', current_schema()); COMMIT")
            let two = try await eventually({ counter.count }, until: { ($0 ?? one) > one })!
            #expect(two == one + 1)

            // The listening session ends: nil until it listens again, then a count never seen before.
            let processID = try #require(counter.listenerProcessID)
            #expect(try sender.queryOne("SELECT pg_terminate_backend(?)", [.int(processID)]) { $0.bool(0) } == true)
            _ = try await eventually({ counter.listenerProcessID }, until: { $0 != processID })
            let again = try await eventually({ counter.count }, until: { $0 != nil })!
            #expect(again > two)
            try sender.run("SELECT pg_notify(?, current_schema())", [.text(channel)])
            _ = try await eventually({ counter.count }, until: { ($0 ?? again) > again })

            counter.close()
            #expect(counter.count == nil)
        }
    }

    @Test("a write of this process counts as soon as it returns if its commit probe answered; another session's on arrival")
    func databaseChangeVersion() async throws {
        try await withPostgresDatabase(configure: { $0.commitProbe = "SELECT current_setting('watched.changed', true)" }) { database in
            let channel = "keycat_test_\(UUID().uuidString.prefix(8).lowercased())"
            try await database.withConnection { connection in
                try connection.execute("""
                    CREATE TABLE watched (id bigint PRIMARY KEY, value bigint NOT NULL);
                    CREATE TABLE unwatched (id bigint PRIMARY KEY);
                    CREATE FUNCTION watched_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_notify('\(channel)', current_schema());
                        PERFORM set_config('watched.changed', 'on', true);
                        RETURN NULL;
                    END $$;
                    CREATE TRIGGER watched_changed AFTER INSERT OR UPDATE OR DELETE ON watched
                        FOR EACH STATEMENT EXECUTE FUNCTION watched_changed();
                    """)
            }
            #expect(database.changeVersion(channel: channel) == nil, "not listening before the first call")
            let first = try await eventually({ database.changeVersion(channel: channel) }, until: { $0 != nil })!
            // The body's last batch carries the COMMIT, and the probe with it.
            try await database.write(isolation: .readCommitted) { connection in
                try connection.batch([.run("INSERT INTO watched VALUES (1, 1)", [])], endingTransaction: true)
            }
            let afterWrite = try #require(database.changeVersion(channel: channel))
            #expect(afterWrite > first, "counted when the write returned, whether or not its notification arrived yet")
            // Its own notification arrives too: the write and the notification, two in all.
            let notified = try await eventually({ database.changeVersion(channel: channel) }, until: { $0 == first + 2 })!

            // A write that leaves the table alone does not count — twice, since after the first
            // the session reads the unset setting as "" rather than NULL.
            for sql in ["INSERT INTO unwatched VALUES (1)", "INSERT INTO unwatched VALUES (2)"] {
                try await database.write(isolation: .readCommitted) { try $0.run(sql) }
            }
            #expect(database.changeVersion(channel: channel) == notified)
            // A COMMIT sent on its own carries the probe as well.
            try await database.write(isolation: .serializable) { try $0.run("UPDATE watched SET value = 3 WHERE id = 1") }
            #expect(try #require(database.changeVersion(channel: channel)) > notified)
            let beforeFailure = try await eventually({ database.changeVersion(channel: channel) }, until: { $0 == notified + 2 })!
            // A failed write counts: it may have changed something before it failed.
            await #expect(throws: PostgresError.self) {
                try await database.write(isolation: .readCommitted) { try $0.run("INSERT INTO unwatched VALUES (1)") }
            }
            let settled = try #require(database.changeVersion(channel: channel))
            #expect(settled == beforeFailure + 1)

            // Another session — another server — changes the table: counted when its notification arrives.
            let other = try PostgresConnection(configuration: database.configuration)
            defer { other.close() }
            try other.run("UPDATE watched SET value = 2 WHERE id = 1")
            _ = try await eventually({ database.changeVersion(channel: channel) }, until: { ($0 ?? settled) > settled })
            database.close()
            #expect(database.changeVersion(channel: channel) == nil, "closed: no count, and no listener started again")
        }
    }
}
