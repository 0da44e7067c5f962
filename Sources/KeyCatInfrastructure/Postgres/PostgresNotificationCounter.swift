internal import CLibPQ
import Foundation
import Synchronization

/// Counts the notifications (`NOTIFY`, `pg_notify`) sent on one channel, by any session of any
/// server, that name this connection's schema as their payload: the way a process learns that
/// other servers changed rows it keeps answers of.
///
/// It listens (`LISTEN`) over a connection of its own, on a thread of its own that waits for the
/// socket with `poll(2)` in short slices, so it holds no thread of anyone else's and stops soon
/// after ``close()``. A lost connection is made again after a pause that grows to two seconds.
///
/// ``count`` is nil whenever a notification could be missed unseen: before the first `LISTEN`
/// has taken effect, and from a lost connection until the next `LISTEN`. Each new `LISTEN` adds
/// one, so a count read before a gap never equals one read after it. Notifications are sent when
/// their transaction commits, in commit order, and reach this process one network hop later.
package final class PostgresNotificationCounter: Sendable {
    private struct State {
        var count: Int64 = 0
        var isListening = false
        var isClosed = false
        /// The listening session's server process, 0 while there is none.
        var processID: Int32 = 0
    }

    /// The state the listening thread and the counter's users share. (The thread holds this, not
    /// the counter, so a counter nobody holds closes in `deinit`.)
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()

    /// Starts listening on `channel` with `configuration`'s connection settings (its URL and
    /// search path decide the schema that payloads must name).
    package init(configuration: PostgresConfiguration, channel: String) {
        var settings = configuration
        settings.applicationName = configuration.applicationName + " listener"
        let thread = Thread { [shared, settings] in Self.listen(settings, channel: channel, shared: shared) }
        thread.name = "keycat-postgres-listener"
        thread.start()
    }

    deinit { close() }

    /// How many notifications (plus `LISTEN`s) arrived so far; nil when one could have been
    /// missed (see the type's documentation).
    package var count: Int64? {
        shared.state.withLock { $0.isListening ? $0.count : nil }
    }

    /// The listening session's server process (`pg_backend_pid()`), nil while not listening: for
    /// tests that end it.
    package var listenerProcessID: Int32? {
        shared.state.withLock { $0.isListening ? $0.processID : nil }
    }

    /// Stops listening; the thread closes its connection within a tenth of a second.
    package func close() {
        shared.state.withLock {
            $0.isClosed = true
            $0.isListening = false
        }
    }

    private static func listen(_ configuration: PostgresConfiguration, channel: String, shared: Shared) {
        var pause = 0.05
        while !shared.state.withLock({ $0.isClosed }) {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                let schema = try connection.queryOne("SELECT current_schema()", []) { $0.optionalString(0) } ?? nil
                try connection.execute("LISTEN \(PostgresConnection.quotedIdentifier(channel))")
                pause = 0.05
                shared.state.withLock {
                    $0.count += 1
                    $0.isListening = !$0.isClosed
                    $0.processID = connection.backendProcessID
                }
                try receive(on: connection, schema: schema ?? "", shared: shared)
                connection.close()
            } catch {
                // Reconnected below, after the pause.
            }
            shared.state.withLock {
                $0.isListening = false
                $0.processID = 0
            }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 2)
        }
    }

    /// Waits for notifications until the counter closes or the connection is lost (thrown).
    private static func receive(on connection: PostgresConnection, schema: String, shared: Shared) throws {
        let handle = try connection.open()
        while !shared.state.withLock({ $0.isClosed }) {
            var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            let ready = poll(&socket, 1, 100)
            guard ready != 0 else { continue }
            guard ready > 0 || errno == EINTR else { throw PostgresError.connectionFailed("poll failed: errno \(errno)") }
            guard PQconsumeInput(handle) != 0, PQstatus(handle) == CONNECTION_OK else {
                throw PostgresError.connectionFailed(PostgresConnection.trimmed(PQerrorMessage(handle)))
            }
            var arrived: Int64 = 0
            while let notification = PQnotifies(handle) {
                if String(cString: notification.pointee.extra) == schema { arrived += 1 }
                PQfreemem(notification)
            }
            if arrived > 0 { shared.state.withLock { $0.count += arrived } }
        }
    }

}
