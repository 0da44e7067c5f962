import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Another process's change wakes a server's subscriber: `keycat-admin` suspends a user and
/// exits at once, and the server, caught up and waiting, receives `user.suspended` — by inotify
/// on a SQLite file, by the announcement the CLI sends as it closes on Postgres.
@Suite("Events across processes")
struct AdminEventTests {
    @Test("a keycat-admin process's change wakes a subscriber in this process", arguments: TestStore.allCases)
    func wakeAcrossProcesses(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let created = try database.run(["users", "create", "--db", database.argument, "--email", "kim@example.com",
                                            "--nick", "kim"], input: "keycat2026\n")
            #expect(created.status == 0, "\(created.standardError)")
            var configuration = database.configuration
            configuration.passwordIterations = 1_000
            let keycat = try await KeyCat.open(configuration)
            defer { keycat.close() }
            let user = try #require(try await keycat.accounts.listUsers(by: .operatorConsole("tester")).items
                .first { $0.email == "kim@example.com" })
            var position = EventPosition.start
            while let last = try await keycat.eventLog.page(after: position, limit: 1_000).events.last?.position { position = last }

            // Caught up; its safety-net re-read is an hour away. (The five minutes allowed below
            // are for a shared test server, where another suite's long transaction holds every
            // newer event back until it ends: docs/events.md.)
            let stream = EventStream(log: keycat.eventLog, after: position, idleCheck: .seconds(3_600))
            let received = Task { () throws -> DomainEvent? in
                var iterator = stream.makeAsyncIterator()
                return try await iterator.next()
            }
            try await Task.sleep(for: .milliseconds(300))
            let suspended = try database.run(["users", "suspend", String(user.id.rawValue), "--db", database.argument])
            #expect(suspended.status == 0, "\(suspended.standardError)")
            let event = try await withThrowingTaskGroup(of: DomainEvent?.self) { group in
                group.addTask { try await received.value }
                group.addTask {
                    try await Task.sleep(for: .seconds(300))
                    received.cancel()
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(event?.type == .userSuspended && event?.aggregate == EventAggregate(.user, user.id.rawValue),
                    "\(String(describing: event))")
        }
    }
}
