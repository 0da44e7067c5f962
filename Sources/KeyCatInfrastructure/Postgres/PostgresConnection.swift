internal import CLibPQ
import Foundation
import Synchronization

/// One Postgres connection (libpq's `PGconn *`), owned by this object and closed in `deinit`.
///
/// Not `Sendable`: a connection is used by one thread at a time. ``PostgresDatabase`` shares
/// connections between tasks by handing each to one caller at a time.
///
/// The API has the shape of ``SQLiteConnection``'s (`run`, `query`, `queryOne`, `forEach`,
/// `execute`, and `batch` for statements sent together) so repositories can share code.
/// Statements run through them travel in libpq's pipeline mode (``exchange(_:)``): prepared on
/// the server once per SQL text, under a generated name, in the same exchange that first runs
/// them, and then only executed for the life of the connection; parameters always travel apart
/// from the SQL. SQLite's `?` markers are numbered for Postgres on the way (``PostgresPlaceholders``), so
/// the same SQL text runs on both where the dialects agree.
package final class PostgresConnection {
    var handle: OpaquePointer?
    /// Prepared statement names by the SQL text the caller passed.
    var statementNames: [SQLStatementKey: String] = [:]
    var statementsPrepared = 0
    /// How many transactions and savepoints are open (``SQLTransactionSteps``).
    package var transactionDepth = 0
    /// Whether the write transaction in progress asked to be announced when it commits
    /// (``announceOnCommit()``).
    package var announcesCommit = false
    /// The `BEGIN` of a transaction that has not run a statement yet: sent with its first one, so
    /// starting a transaction costs no round trip (and one that runs none costs nothing).
    var pendingBegin: String?
    /// Whether a read-only `COMMIT` was sent and its answer is still to be read
    /// (``commitWithoutWaiting()``).
    var hasUnansweredCommit = false
    /// Whether the outermost transaction's last batch carried its `COMMIT`, which succeeded
    /// (``SQLConnection/batch(_:endingTransaction:)``): the transaction is over on the server.
    var transactionCommitted = false
    /// Whether the exchange under way may be cancelled when its task is: false while it ends a
    /// transaction (`COMMIT`, whose outcome must be known, or `ROLLBACK`).
    var isCancellable = true
    /// ``PostgresConfiguration/commitProbe``, and its answer in the last write transaction that
    /// committed (nil for a NULL, or when there was none).
    let commitProbe: String?
    package internal(set) var commitProbeAnswer: String?
    /// The requests this connection sent and waited for (an exchange of any number of
    /// statements counts one), for tests that pin a path's round trips.
    package internal(set) var roundTripCount = 0
    /// The statements this connection sent (a `BEGIN` and a `COMMIT` count; preparing one does
    /// not, as it goes in the same exchange as the statement's first run).
    package internal(set) var statementCount = 0

    /// Connects as `configuration` says, with its connect timeout, and sets its `search_path`.
    ///
    /// - Throws: ``PostgresError``: ``PostgresError/isInvalidConnectionString`` for a malformed
    ///   URL, ``PostgresError/isAuthenticationFailure`` for refused credentials,
    ///   ``PostgresError/isConnectionFailure`` when no server answers in time. Nothing is left
    ///   open on failure.
    package init(configuration: PostgresConfiguration) throws(PostgresError) {
        commitProbe = configuration.commitProbe
        // TCP keepalives after 30 s idle, every 10 s, 3 unanswered: a peer gone without a word (a
        // NAT or load balancer that dropped an idle flow, a failover without a reset) is found
        // in about a minute, not the kernel's two hours. The listener that keeps a server's
        // catalog cache fresh only reads, and would otherwise wait on a dead connection while
        // other servers' changes went unheard.
        var keywords = ["connect_timeout", "application_name", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count"]
        var values = [String(max(configuration.connectTimeoutSeconds, 1)), configuration.applicationName, "1", "30", "10", "3"]
        if let url = configuration.url {
            try Self.validate(url)
            // Later keywords override earlier ones: the URL's own settings win over the defaults
            // above, and the client encoding below is always UTF-8, which Swift strings are.
            keywords.append("dbname")
            values.append(url)
        }
        keywords.append("client_encoding")
        values.append("UTF8")
        let connection = withCStringArray(keywords) { keywords in
            withCStringArray(values) { values in
                PQconnectdbParams(keywords.map { UnsafePointer($0) }, values.map { UnsafePointer($0) }, 1)
            }
        }
        guard let connection else { throw .connectionFailed("out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw .connectionFailed(message)
        }
        // Notices (e.g. "relation … already exists, skipping") would go to stderr by default.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
        // JIT compiles a plan whose estimated cost passes `jit_above_cost`: 14 ms (180 ms with
        // its optimisation) for a search page run in 0.1 ms, whose generic plan's estimate of a
        // term's postings is an average. KeyCat's statements are short; it stays off.
        // A transaction left open by a client that hung or lost its way holds its locks, and
        // every checkout of those listings waits behind it, until the server ends the session
        // after `idle_in_transaction_session_timeout`. Postgres never does by default; KeyCat's
        // transactions never wait on anything but the database, so a minute idle inside one is
        // a fault, and the session is ended (its transaction rolled back; the pool replaces a
        // connection that broke). A value set anywhere else (the server, the role, the URL's
        // `options`), 0 included, stands; a session meant to idle (a backup's snapshot, held
        // while pg_dump copies) sets 0 for its transaction. One exchange with the search path,
        // when there is one.
        let settings = """
            SELECT set_config('jit', 'off', false),
                   set_config('idle_in_transaction_session_timeout',
                              CASE (SELECT source FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout')
                                   WHEN 'default' THEN '\(Self.idleInTransactionTimeout)'
                                   ELSE current_setting('idle_in_transaction_session_timeout') END, false)
            """
        let onConnect = configuration.onConnect.map { ", " + $0 } ?? ""
        do {
            if let searchPath = configuration.searchPath {
                try run(settings + ", set_config('search_path', $1, false)" + onConnect, [.text(searchPath)])
            } else {
                try run(settings + onConnect, [])
            }
        } catch {
            close()
            throw error
        }
    }

    /// How long a session may sit idle inside a transaction before the server ends it, unless
    /// the server, the role or the URL says otherwise.
    package static let idleInTransactionTimeout = "1min"

    /// The value of the connection option `keyword` this connection was made with
    /// (`PQconninfo`), such as `keepalives_idle`; nil when it has none.
    package func option(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Connects to `url`, or with libpq's environment variables when it is nil.
    package convenience init(url: String?) throws(PostgresError) {
        try self.init(configuration: PostgresConfiguration(url: url))
    }

    deinit { close() }

    /// Closes the connection. Closing twice is harmless.
    package func close() {
        if let handle {
            PQfinish(handle)
            self.handle = nil
        }
        statementNames.removeAll()
        pendingBegin = nil
        hasUnansweredCommit = false
    }

    /// Runs one or more `;`-separated statements without parameters or preparing: for schema
    /// changes and session settings.
    package func execute(_ sql: String) throws(PostgresError) {
        let connection = try open()
        if pendingBegin != nil { _ = try exchange([]) }
        try leavePipelineMode(on: connection)
        countRoundTrip(statements: 1)
        _ = try PostgresResult(PQexec(connection, sql), on: connection, statement: sql)
    }

    /// Runs one statement with `arguments` bound to its parameters, ignoring any rows.
    ///
    /// - Returns: the number of rows the statement inserted, updated or deleted (or returned).
    @discardableResult
    package func run(_ sql: String, _ arguments: [SQLValue] = []) throws(PostgresError) -> Int {
        try exchange([PostgresStatement(sql, arguments)])[0].affectedRows
    }

    /// Runs a query and decodes every row with `decode`.
    package func query<Row>(
        _ sql: String, _ arguments: [SQLValue] = [], _ decode: (PostgresRow) throws -> Row
    ) throws -> [Row] {
        let result = try exchange([PostgresStatement(sql, arguments)])[0]
        var rows: [Row] = []
        rows.reserveCapacity(result.rowCount)
        for index in 0..<result.rowCount { rows.append(try decode(result.row(index))) }
        return rows
    }

    /// Runs a query and decodes its first row, or returns nil when there is none.
    package func queryOne<Row>(
        _ sql: String, _ arguments: [SQLValue] = [], _ decode: (PostgresRow) throws -> Row
    ) throws -> Row? {
        let result = try exchange([PostgresStatement(sql, arguments)])[0]
        return result.rowCount > 0 ? try decode(result.row(0)) : nil
    }

    /// Runs a query and hands each row to `body`, without collecting them.
    package func forEach(
        _ sql: String, _ arguments: [SQLValue] = [], _ body: (PostgresRow) throws -> Void
    ) throws {
        let result = try exchange([PostgresStatement(sql, arguments)])[0]
        for index in 0..<result.rowCount { try body(result.row(index)) }
    }

    /// Whether the server has a transaction open on this connection (libpq's view, not only ours),
    /// including one that failed and waits for `ROLLBACK`. A read-only `COMMIT` whose answer is
    /// still to be read counts as ended.
    package var isInTransaction: Bool {
        guard let handle, !hasUnansweredCommit else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the connection is open and unbroken, as far as is known without asking the server.
    package var isOpen: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Whether the connection is still usable, reading anything the server sent while it sat
    /// idle: a session ended by the server (`pg_terminate_backend`, a restart) has sent its
    /// farewell and closed the socket, which this notices without a round trip.
    ///
    /// One `poll(2)` with no wait when nothing arrived (the usual case, on every borrow from the
    /// pool); the reads only when something did.
    package func checkUsable() -> Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        if poll(&socket, 1, 0) == 0 { return true }
        // The first read may take the server's error message, the second the end of the stream.
        for _ in 0..<2 where PQconsumeInput(handle) == 0 { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The server process serving this connection (`pg_backend_pid()`), 0 when closed.
    package var backendProcessID: Int32 { handle.map { PQbackendPID($0) } ?? 0 }

    /// The number of statements prepared on this connection, for tests that check reuse.
    package var cachedStatementCount: Int { statementNames.count }

    func open() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw .closed() }
        return handle
    }

    /// Checks a URL or key=value string before connecting, so a malformed one is reported as such
    /// rather than as a failed connection.
    private static func validate(_ url: String) throws(PostgresError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(url, &errorMessage) {
            PQconninfoFree(options)
            return
        }
        var message = errorMessage.map { trimmed($0) } ?? "the connection string cannot be parsed"
        if let errorMessage { PQfreemem(errorMessage) }
        // libpq quotes the part it could not read, which may be the password
        // (`invalid percent-encoded token: "Sup3r%Secret"`): with a password in the string,
        // nothing quoted is repeated.
        if PostgresURL.separatingPassword(url).password != nil || url.contains("password") {
            message = message.replacingOccurrences(of: #""[^"]*""#, with: "\"…\"", options: .regularExpression)
        }
        throw .invalidConnectionString(message)
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension PostgresConnection {
    /// Every time KeyCat's connections sent a server something and waited for its answer (an
    /// exchange of any number of statements counts once), process-wide: `keycat-bench` divides it
    /// by the operations it ran to report round trips per operation.
    package static let roundTrips = Atomic<Int>(0)
    /// Every statement KeyCat's connections sent, process-wide (``statementCount``).
    package static let statements = Atomic<Int>(0)

    /// Counts an exchange that carried `statements` and was waited for.
    func countRoundTrip(statements: Int) {
        roundTripCount += 1
        Self.roundTrips.add(1, ordering: .relaxed)
        countStatements(statements)
    }

    /// Counts statements sent without waiting for their answer.
    func countStatements(_ count: Int) {
        statementCount += count
        Self.statements.add(count, ordering: .relaxed)
    }
}

extension PostgresConnection {
    /// `name` as a double-quoted SQL identifier (a channel for `LISTEN`, which takes no parameter).
    package static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
