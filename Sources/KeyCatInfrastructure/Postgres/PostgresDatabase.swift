import Foundation
import Synchronization

/// A Postgres database shared by many tasks through a small pool of connections.
///
/// Concurrency in one sentence: each call borrows one connection from the pool for the length
/// of its closure, so a connection is only ever used by one thread, and the server's MVCC and
/// row locks arbitrate between the calls (and between servers sharing the database).
///
/// `write { }` is a transaction, `read { }` a read-only snapshot, as on ``SQLiteDatabase``.
/// Unlike SQLite's single writer, writes run side by side, so a write can lose a race (a
/// serialization failure, or a deadlock); `write` then runs its body again.
///
/// **Nothing here holds the caller's thread** (``SQLDatabase``): a call waits for a free
/// connection suspended, in turn (``AsyncPermits``), pauses between retries with `Task.sleep`,
/// and runs its body — whose statements wait for the network — on the database's own threads,
/// one per connection. A task cancelled while it waits for a connection or a retry stops there;
/// one cancelled while a statement waits cancels the statement (``PostgresConnection``).
package final class PostgresDatabase: Sendable {
    /// How the connections are made.
    package let configuration: PostgresConfiguration
    private let pool: PostgresConnectionPool
    private let turns: AsyncPermits
    private let threads: DedicatedThreads
    private let roundTrips = Atomic<Int>(0)
    private let statements = Atomic<Int>(0)
    /// This process's writes that count for ``changeVersion(channel:)``: every failed one and
    /// every ``withConnection(_:)``, and the committed ones its commit probe (if any) marked.
    private let writesEnded = Atomic<Int64>(0)
    /// The notification counters ``changeVersion(channel:)`` started, by channel; nil once closed.
    private let listeners = Mutex<[String: PostgresNotificationCounter]?>([:])
    /// Fired when a write transaction that asked to be announced
    /// (``SQLConnection/announceOnCommit()``) commits, through this database or, once
    /// ``watchCommits()`` has been called, any server's on the same schema.
    package let commits = ChangeSignal()
    /// The announcer (``PostgresCommitAnnouncer``), made by the first announced commit or
    /// ``watchCommits()``; nil before, and once closed.
    private let announcer = Mutex<PostgresCommitAnnouncer?>(nil)
    private let isClosed = Atomic<Bool>(false)

    /// The channel committed announcements travel on between servers.
    package static let announcementChannel = "keycat_announcements"

    /// Connects once, so a wrong URL, password or host fails here rather than on first use.
    ///
    /// - Throws: ``PostgresError`` when the first connection cannot be made.
    package init(configuration: PostgresConfiguration) throws(PostgresError) {
        self.configuration = configuration
        pool = PostgresConnectionPool(configuration: configuration)
        let connections = max(1, configuration.maximumConnections)
        turns = AsyncPermits(connections)
        threads = DedicatedThreads(count: connections)
        let first = try pool.checkOut()
        pool.checkIn(first)
    }

    /// The threads every call's body runs on, one per connection.
    package var storageExecutor: any TaskExecutor { threads }

    /// Runs `body` in a transaction (`BEGIN ISOLATION LEVEL …`) and commits it, or rolls it back
    /// when `body` throws. Nested calls on the connection inside are savepoints. `write { }`
    /// (``SQLDatabase``'s) is a `SERIALIZABLE` one.
    ///
    /// **`body` may run more than once.** When the transaction fails with a serialization
    /// failure (40001), a deadlock (40P01), or because the connection broke before `COMMIT`
    /// was sent, everything is rolled back and `body` runs again in a new transaction, up to
    /// ``PostgresConfiguration/maximumTransactionAttempts`` times in all, after a short random
    /// pause. So `body` must only read and write through its connection, and build its result
    /// from what it reads: no calls to the payment gateway, no counters kept outside it. The
    /// last failure is thrown when every attempt fails. A connection lost *during* `COMMIT` is
    /// not retried (it may have committed) and throws an error whose
    /// ``PostgresError/isCommitOutcomeUnknown`` is true.
    @discardableResult
    package func write<Result: Sendable>(
        isolation: SQLIsolation, _ body: (PostgresConnection) throws -> Result
    ) async throws -> Result {
        let outcome: (result: Result, counts: Bool, announces: Bool)
        do {
            outcome = try await withRetries { connection throws -> (result: Result, counts: Bool, announces: Bool) in
                let result = try connection.transaction(isolation: isolation, body)
                return (result, Self.counts(probeAnswer: connection.commitProbeAnswer, probing: connection.commitProbe != nil),
                        connection.announcesCommit)
            }
        } catch {
            // It may have committed (an unknown outcome) or changed something before failing:
            // count it, as a cache may only err towards reading again.
            writesEnded.add(1, ordering: .releasing)
            throw error
        }
        if outcome.counts { writesEnded.add(1, ordering: .releasing) }
        if outcome.announces {
            // A write the commit probe saw change the catalog has notified already (its trigger).
            let notified = configuration.commitProbe != nil && configuration.commitProbeChannel != nil && outcome.counts
            startedAnnouncer()?.announce(alreadyNotified: notified)
        }
        return outcome.result
    }

    /// ``commits``, fired from now on also when another server's announced write commits (one
    /// network hop after it), not only this database's.
    package func watchCommits() -> ChangeSignal {
        _ = startedAnnouncer()
        return commits
    }

    private func startedAnnouncer() -> PostgresCommitAnnouncer? {
        announcer.withLock { announcer in
            guard !isClosed.load(ordering: .acquiring) else { return nil }
            if announcer == nil {
                announcer = PostgresCommitAnnouncer(configuration: configuration, channel: Self.announcementChannel,
                                                    alsoListeningTo: configuration.commitProbeChannel, signal: commits)
            }
            return announcer
        }
    }

    /// Whether a committed write counts for ``changeVersion(channel:)``: always without a
    /// ``PostgresConfiguration/commitProbe``; with one, when the probe answered something other
    /// than NULL or "" (a transaction-local setting reads "" once the session has seen it set).
    private static func counts(probeAnswer: String?, probing: Bool) -> Bool {
        guard probing else { return true }
        return !(probeAnswer ?? "").isEmpty
    }

    /// Runs `body` in a read-only transaction, so all its queries see one consistent snapshot.
    /// A connection lost before the end runs `body` again on a fresh one (reads are safe to
    /// repeat), like ``write(isolation:_:)``.
    @discardableResult
    package func read<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) async throws -> Result {
        try await withRetries { connection throws -> Result in try connection.readTransaction(body) }
    }

    /// Runs `body`, which only reads, on a connection without an explicit transaction: each
    /// statement is its own snapshot. For single statements, as ``SQLiteDatabase/readStatement(_:)``:
    /// `BEGIN` and `COMMIT` would be two more round trips (a one-row read on loopback takes about
    /// 35 µs bare and 90 µs in a transaction). Run again on a fresh connection if the one it had
    /// was lost.
    @discardableResult
    package func readStatement<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) async throws -> Result {
        try await withRetries(body)
    }

    /// Runs `body` on a connection without an explicit transaction: each statement is its own
    /// transaction. For work that manages its own transactions. Run once: nothing is retried.
    @discardableResult
    package func withConnection<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) async throws -> Result {
        defer { writesEnded.add(1, ordering: .releasing) }
        return try await turns.withPermit(on: threads) { try blockingWithConnection(body) }
    }

    /// A number that grows whenever a change announced on `channel` commits — by
    /// `pg_notify(channel, current_schema())`, typically from a trigger, in any session of any
    /// server — and whenever a write of this process ends: every ``withConnection(_:)``, every
    /// failed ``write(isolation:_:)``, and every committed one, or with a
    /// ``PostgresConfiguration/commitProbe`` only those whose probe answered (the trigger sets
    /// what it reads). Nil while a change could go unseen: until the first call's
    /// listener has started (``PostgresNotificationCounter``), while its connection is lost, and
    /// once the database is closed.
    ///
    /// A write of this process counts as soon as it returns, whatever it touched; another
    /// server's, once its notification arrives (one network hop after its commit). Read it before
    /// reading the rows an answer is built from, and keep the answer under the number read.
    package func changeVersion(channel: String) -> Int64? {
        let counter = listeners.withLock { listeners -> PostgresNotificationCounter? in
            guard listeners != nil else { return nil }
            if let counter = listeners?[channel] { return counter }
            let counter = PostgresNotificationCounter(configuration: configuration, channel: channel)
            listeners?[channel] = counter
            return counter
        }
        let writes = writesEnded.load(ordering: .acquiring)
        return counter?.count.map { $0 + writes }
    }

    /// ``withConnection(_:)`` on the calling thread, waiting there for a connection: for opening
    /// and migrating, before the database serves anyone.
    @discardableResult
    package func blockingWithConnection<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        let connection = try pool.checkOut()
        let before = (connection.roundTripCount, connection.statementCount)
        defer { giveBack(connection, countingFrom: before) }
        return try body(connection)
    }

    /// Runs `attempt` on a borrowed connection, again on transient failures.
    private func withRetries<Result>(_ attempt: (PostgresConnection) throws -> Result) async throws -> Result {
        let attempts = max(1, configuration.maximumTransactionAttempts)
        return try await withTaskExecutorPreference(threads) {
            for number in 1... {
                try await turns.acquire()
                do {
                    defer { turns.release() }
                    let connection = try pool.checkOut()
                    let before = (connection.roundTripCount, connection.statementCount)
                    defer { giveBack(connection, countingFrom: before) }
                    return try attempt(connection)
                } catch let error as PostgresError where error.isTransientTransactionFailure && number < attempts {
                    // Spread the retries of transactions that collided, so they do not collide
                    // again; the pause holds no thread and no connection.
                    let pause = Int.random(in: 1...2_000) << min(number - 1, 5)
                    try await Task.sleep(for: .microseconds(pause))
                }
            }
            fatalError("unreachable: the loop returns or throws")
        }
    }

    /// Returns `connection` to the pool, adding the round trips and statements it made since
    /// `before` to ``roundTripCount`` and ``statementCount``.
    private func giveBack(_ connection: PostgresConnection, countingFrom before: (roundTrips: Int, statements: Int)) {
        roundTrips.add(connection.roundTripCount - before.roundTrips, ordering: .relaxed)
        statements.add(connection.statementCount - before.statements, ordering: .relaxed)
        pool.checkIn(connection)
    }

    /// The round trips the calls on this database have made (an exchange of any number of
    /// statements counts once), for tests that pin what a use case costs.
    package var roundTripCount: Int { roundTrips.load(ordering: .relaxed) }

    /// The statements the calls on this database have sent (``PostgresConnection/statementCount``):
    /// the server's work, where ``roundTripCount`` is the waits.
    package var statementCount: Int { statements.load(ordering: .relaxed) }

    /// The number of connections open right now (at most
    /// ``PostgresConfiguration/maximumConnections``).
    package var connectionCount: Int { pool.connectionCount }

    /// Closes every connection (those in use as they come back). Using the database afterwards
    /// fails with an error whose ``PostgresError/isClosed`` is true. Closing twice is harmless.
    package func close() {
        isClosed.store(true, ordering: .releasing)
        // First, so a write's announcement still reaches the other servers; outside the lock,
        // as it may wait for the send.
        announcer.withLock { announcer in
            defer { announcer = nil }
            return announcer
        }?.close()
        threads.shutdown()
        pool.close()
        listeners.withLock { listeners in
            for counter in listeners?.values ?? [:].values { counter.close() }
            listeners = nil
        }
    }
}
