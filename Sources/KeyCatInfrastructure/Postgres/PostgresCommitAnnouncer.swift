internal import CLibPQ
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Tells the other servers on a database that this one committed rows they wait for, and tells
/// this one when they did: `NOTIFY` and `LISTEN` on one channel, over a connection of its own.
///
/// **Sent after the commit, coalesced, off the request's path.** A transaction that notified
/// itself would take Postgres's notification lock at its `COMMIT` and hold it to the end, and
/// every other notifying transaction would queue behind it (docs/benchmarks.md found 40% of busy
/// backends waiting there under checkout load). Instead ``announce()`` only marks that a commit
/// is to be told; this object's thread then sends one `pg_notify` in a transaction of its own
/// for however many commits were marked meanwhile — at most one in flight per server, and none
/// on the request's connection or in its time.
///
/// **Received** notifications whose payload names this connection's schema fire `signal`, as do
/// this server's own announcements (at once, before the `NOTIFY` is sent). A lost connection is
/// made again after a pause that grows to two seconds; a notification sent meanwhile is missed,
/// which only delays a reader until its wait times out and it looks at its table anyway.
package final class PostgresCommitAnnouncer: Sendable {
    private struct State {
        var pending = false
        /// A notification taken from `pending` and not yet confirmed sent.
        var inFlight = false
        var isClosed = false
        var isListening = false
        var processID: Int32 = 0
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        /// Signalled once the thread has closed its connection and returned.
        let finished = DispatchSemaphore(value: 0)
        let signal: ChangeSignal
        /// A pipe whose read end wakes the thread's `poll(2)` when there is something to send.
        let wake: Int32
        private let poker: Int32

        init(signal: ChangeSignal) {
            self.signal = signal
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends {
                    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                }
            } else {
                ends = [-1, -1]
            }
            wake = ends[0]
            poker = ends[1]
        }

        func poke() {
            guard poker >= 0 else { return }
            var one: UInt8 = 1
            _ = Glibc.write(poker, &one, 1)
        }

        func drain() {
            guard wake >= 0 else { return }
            var bytes = [UInt8](repeating: 0, count: 64)
            while Glibc.read(wake, &bytes, bytes.count) > 0 {}
        }

        deinit {
            if wake >= 0 { Glibc.close(wake) }
            if poker >= 0 { Glibc.close(poker) }
        }
    }

    private let shared: Shared

    /// Starts listening on `channel` with `configuration`'s connection settings (its search path
    /// decides the schema payloads name), firing `signal` for each arrival.
    package init(configuration: PostgresConfiguration, channel: String, alsoListeningTo other: String? = nil,
                 signal: ChangeSignal) {
        shared = Shared(signal: signal)
        var settings = configuration
        settings.applicationName = configuration.applicationName + " announcer"
        let thread = Thread { [shared, settings] in
            Self.run(settings, channel: channel, other: other, shared: shared)
            shared.finished.signal()
        }
        thread.name = "keycat-postgres-announcer"
        thread.start()
    }

    deinit { close() }

    /// Fires the signal for this server's readers at once and marks that the other servers are
    /// to be told; the thread sends one notification for every mark made before it sends.
    ///
    /// `alreadyNotified`: the transaction notified the other channel this object listens to (the
    /// catalog's trigger did), which wakes the other servers as well; nothing more is sent.
    package func announce(alreadyNotified: Bool = false) {
        shared.signal.fire()
        guard !alreadyNotified else { return }
        shared.state.withLock { $0.pending = true }
        shared.poke()
    }

    /// The listening session's server process, nil while not listening: for tests that end it.
    package var listenerProcessID: Int32? {
        shared.state.withLock { $0.isListening ? $0.processID : nil }
    }

    /// Whether a mark is still waiting to be sent, or being sent.
    package var hasPending: Bool { shared.state.withLock { $0.pending || $0.inFlight } }

    /// Stops, after sending a pending notification, so a short-lived process (`keycat-admin`)
    /// that wrote still wakes the servers: it waits up to a second for that (a database that
    /// cannot be reached costs that second), and not at all when there is nothing to send.
    /// Calls after the first return at once.
    ///
    /// It then waits (up to two seconds more) for the thread to close its connection, so a
    /// process that exits next never tears libpq and OpenSSL down under a connection in use.
    package func close() {
        guard !shared.state.withLock({ $0.isClosed }) else { return }
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline {
            let waits = shared.state.withLock { !$0.isClosed && ($0.pending || $0.inFlight) }
            guard waits else { break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        shared.state.withLock {
            $0.isClosed = true
            $0.isListening = false
        }
        shared.poke()
        if shared.finished.wait(timeout: .now() + 2) == .success { shared.finished.signal() }
    }

    private static func run(_ configuration: PostgresConfiguration, channel: String, other: String?, shared: Shared) {
        var pause = 0.05
        while !shared.state.withLock({ $0.isClosed }) {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                let schema = try connection.queryOne("SELECT current_schema()", []) { $0.optionalString(0) } ?? nil
                try connection.execute("LISTEN \(PostgresConnection.quotedIdentifier(channel))")
                if let other { try connection.execute("LISTEN \(PostgresConnection.quotedIdentifier(other))") }
                pause = 0.05
                shared.state.withLock {
                    $0.isListening = !$0.isClosed
                    $0.processID = connection.backendProcessID
                }
                // Something may have committed while no one listened.
                shared.signal.fire()
                try serve(connection, channel: channel, schema: schema ?? "", shared: shared)
                connection.close()
            } catch {
                // Made again below, after the pause.
            }
            shared.state.withLock {
                $0.isListening = false
                $0.processID = 0
            }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 2)
        }
    }

    /// Sends marked announcements and receives others' until closed or the connection is lost.
    private static func serve(_ connection: PostgresConnection, channel: String, schema: String, shared: Shared) throws {
        let handle = try connection.open()
        while !shared.state.withLock({ $0.isClosed }) {
            let send = shared.state.withLock { state -> Bool in
                guard state.pending else { return false }
                state.pending = false
                state.inFlight = true
                return true
            }
            if send {
                do {
                    try connection.run("SELECT pg_notify(?, current_schema())", [.text(channel)])
                    shared.state.withLock { $0.inFlight = false }
                } catch {
                    shared.state.withLock {
                        $0.pending = true
                        $0.inFlight = false
                    }
                    throw error
                }
                // Its answer may have brought other servers' notifications with it, already
                // read off the socket: take them now, as no poll will report them.
                if takeNotifications(handle, schema: schema) { shared.signal.fire() }
                // One notification at most every 10 ms per server: under load the marks made
                // meanwhile travel together, and notifying commits (which Postgres runs one at a
                // time) stay few.
                usleep(10_000)
            }
            var sockets = [pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0),
                           pollfd(fd: shared.wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&sockets, shared.wake >= 0 ? 2 : 1, 100)
            guard ready != 0 else { continue }
            guard ready > 0 || errno == EINTR else { throw PostgresError.connectionFailed("poll failed: errno \(errno)") }
            if sockets[1].revents != 0 { shared.drain() }
            guard sockets[0].revents != 0 else { continue }
            guard PQconsumeInput(handle) != 0, PQstatus(handle) == CONNECTION_OK else {
                throw PostgresError.connectionFailed(PostgresConnection.trimmed(PQerrorMessage(handle)))
            }
            if takeNotifications(handle, schema: schema) { shared.signal.fire() }
        }
    }

    /// Takes every notification libpq has read, and says whether one came from another session
    /// about this schema.
    private static func takeNotifications(_ handle: OpaquePointer, schema: String) -> Bool {
        var arrived = false
        while let notification = PQnotifies(handle) {
            if String(cString: notification.pointee.extra) == schema, notification.pointee.be_pid != PQbackendPID(handle) {
                arrived = true
            }
            PQfreemem(notification)
        }
        return arrived
    }

}
