import Foundation

/// Up to ``PostgresConfiguration/maximumConnections`` connections, opened when first needed and
/// lent to one caller at a time.
///
/// A connection that comes back broken, or is found broken when lent again (the server ended
/// its session, or restarted), is closed and a fresh one takes its place.
///
/// `@unchecked Sendable`: the stored `var`s are read and written only while `condition` is
/// locked, and a connection is touched only by the one caller it is lent to, between
/// ``checkOut()`` and ``checkIn(_:)``: never by two threads at once.
///
/// A caller waiting for a connection here waits on `condition`, holding its thread. Only the
/// blocking path used while opening waits here: ``PostgresDatabase``'s async calls first wait
/// for one of its permits, suspended, and a permit holder always finds a connection idle or room
/// to open one.
final class PostgresConnectionPool: @unchecked Sendable {
    private let configuration: PostgresConfiguration
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    /// Connections lent out or idle; connections being opened count too.
    private var openCount = 0
    private var isClosed = false

    init(configuration: PostgresConfiguration) {
        self.configuration = configuration
    }

    /// Lends a usable connection: an idle one, a new one while there are fewer than the maximum,
    /// or the next one returned. Pair every call with ``checkIn(_:)``.
    ///
    /// - Throws: ``PostgresError`` when a new connection cannot be made or the pool is closed.
    func checkOut() throws(PostgresError) -> PostgresConnection {
        while true {
            condition.lock()
            if isClosed {
                condition.unlock()
                throw .closed()
            }
            if let connection = idle.popLast() {
                condition.unlock()
                if connection.checkUsable() { return connection }
                discard(connection)
                continue
            }
            if openCount < max(1, configuration.maximumConnections) {
                openCount += 1
                condition.unlock()
                do {
                    return try PostgresConnection(configuration: configuration)
                } catch {
                    condition.lock()
                    openCount -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
            condition.unlock()
        }
    }

    /// Takes back a connection lent by ``checkOut()``; a broken one is closed instead of kept.
    func checkIn(_ connection: PostgresConnection) {
        guard connection.isOpen, !connection.isInTransaction, connection.transactionDepth == 0 else {
            discard(connection)
            return
        }
        condition.lock()
        if isClosed {
            openCount -= 1
            condition.unlock()
            connection.close()
            return
        }
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }

    /// Closes a connection that will not be lent again, making room for a new one.
    private func discard(_ connection: PostgresConnection) {
        connection.close()
        condition.lock()
        openCount -= 1
        condition.signal()
        condition.unlock()
    }

    /// The number of connections open or being opened.
    var connectionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return openCount
    }

    /// Closes the idle connections now and the lent ones as they come back; checking out
    /// afterwards fails. Closing twice is harmless.
    func close() {
        condition.lock()
        isClosed = true
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        condition.broadcast()
        condition.unlock()
        for connection in closing { connection.close() }
    }
}
