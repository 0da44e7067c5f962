import Foundation
import KeyCatInfrastructure

/// The simulator's state in SQLite: in memory (`:memory:`) or in a file several processes share.
///
/// Every change runs in one `BEGIN IMMEDIATE` transaction, so two simulators on one file never
/// interleave a read-check-write (e.g. two cancels of one payment). Thread safety comes from
/// ``SQLiteDatabase``, which hands its connections out under locks.
final class PGStore: Sendable {
    private let database: SQLiteDatabase

    /// The simulator's `PRAGMA application_id`, "KCPG" in ASCII: its file is never taken for
    /// a KeyCat database (a mistyped `--db keycat.pg.db`), nor a KeyCat database for its file.
    package static let application = SQLiteApplication(
        id: 0x4B43_5047, name: "the PG simulator", firstMigrationName: migrations[0].name)

    /// Opens (creating when missing) the simulator's file, or an in-memory store for `:memory:`.
    ///
    /// - Throws: ``SQLiteForeignFileError`` for any other application's file (a KeyCat
    ///   database), left untouched; ``SQLiteError`` when the file cannot be opened.
    init(path: String) throws {
        var configuration = SQLiteConfiguration()
        configuration.synchronous = .normal  // a simulator needs no power-loss durability
        configuration.application = Self.application
        configuration.threadName = "keycat-pg-sim"
        database = try SQLiteDatabase(path: path, configuration: configuration)
        try SchemaMigrator(migrations: Self.migrations).migrate(database)
    }

    func close() { database.close() }

    /// The database's own threads: the simulator's HTTP answers run there, since every call
    /// below waits for SQLite (its lock, its disk) holding the thread it runs on.
    var executor: any TaskExecutor { database.storageExecutor }

    static let migrations = [
        SQLiteMigration(version: 1, name: "pg simulator state", sql: """
            CREATE TABLE pg_tokens (token TEXT PRIMARY KEY, expires_at REAL NOT NULL) STRICT;
            CREATE TABLE pg_payments (
                imp_uid       TEXT PRIMARY KEY,
                merchant_uid  TEXT NOT NULL,
                amount        INTEGER NOT NULL,
                cancel_amount INTEGER NOT NULL DEFAULT 0,
                status        TEXT NOT NULL,
                fail_reason   TEXT,
                card_last4    TEXT,
                paid_at       REAL,
                cancelled_at  REAL,
                seq           INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX pg_payments_by_merchant ON pg_payments (merchant_uid, seq);
            CREATE TABLE pg_cancels (
                id INTEGER PRIMARY KEY, imp_uid TEXT NOT NULL, amount INTEGER NOT NULL,
                reason TEXT NOT NULL, cancelled_at REAL NOT NULL
            ) STRICT;
            CREATE TABLE pg_idempotency (
                key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body BLOB NOT NULL
            ) STRICT;
            """),
        SQLiteMigration(version: 2, name: "payments listed by status and start time", sql: """
            ALTER TABLE pg_payments ADD COLUMN started_at REAL NOT NULL DEFAULT 0;
            UPDATE pg_payments SET started_at = coalesce(paid_at, cancelled_at, 0);
            CREATE INDEX pg_payments_by_status_time ON pg_payments (status, started_at, seq);
            CREATE INDEX pg_payments_by_time ON pg_payments (started_at, seq);
            """),
        // v1's prepare registers an amount, not a payment: the payment appears when the buyer
        // opens the window. An older file's latest attempt per merchant UID is its registration.
        // v1 has no idempotency keys, so neither has the simulator any more.
        SQLiteMigration(version: 3, name: "prepared amounts apart from payments, failure times", sql: """
            CREATE TABLE pg_prepared (
                merchant_uid TEXT PRIMARY KEY, amount INTEGER NOT NULL, prepared_at REAL NOT NULL
            ) STRICT;
            INSERT OR IGNORE INTO pg_prepared (merchant_uid, amount, prepared_at)
                SELECT merchant_uid, amount, started_at FROM pg_payments ORDER BY seq DESC;
            ALTER TABLE pg_payments ADD COLUMN failed_at REAL;
            DROP TABLE pg_idempotency;
            """),
        // Each payment takes the next sequence number, max(seq) + 1: without this index that
        // read every payment ever made, so a busy sandbox slowed with every order it had taken.
        SQLiteMigration(version: 4, name: "payments' sequence numbers indexed", sql: """
            CREATE INDEX pg_payments_by_seq ON pg_payments (seq);
            """),
    ]

    // MARK: Tokens

    func insertToken(_ token: String, expiresAt: Date) throws {
        _ = try database.blockingWrite {
            try $0.run("INSERT INTO pg_tokens (token, expires_at) VALUES (?, ?)",
                       [.text(token), .real(expiresAt.timeIntervalSince1970)])
        }
    }

    func isTokenValid(_ token: String, at now: Date) throws -> Bool {
        try database.blockingRead {
            try $0.queryOne("SELECT expires_at FROM pg_tokens WHERE token = ?", [.text(token)]) { $0.double(0) }
        }.map { $0 > now.timeIntervalSince1970 } ?? false
    }

    func expireAllTokens() throws {
        _ = try database.blockingWrite { try $0.run("UPDATE pg_tokens SET expires_at = 0") }
    }

    /// Forgets every token, prepared amount, payment and cancellation.
    func reset() throws {
        _ = try database.blockingWrite {
            try $0.execute("DELETE FROM pg_tokens; DELETE FROM pg_prepared; DELETE FROM pg_payments; DELETE FROM pg_cancels;")
        }
    }

    // MARK: Prepared amounts

    /// The amount registered for `merchantUID` and when.
    func prepared(merchantUID: String) throws -> PGPrepared? {
        try database.blockingRead { try Self.prepared(merchantUID: merchantUID, on: $0) }
    }

    static func prepared(merchantUID: String, on connection: SQLiteConnection) throws -> PGPrepared? {
        try connection.queryOne(
            "SELECT amount, prepared_at FROM pg_prepared WHERE merchant_uid = ?", [.text(merchantUID)]) {
            PGPrepared(merchantUID: merchantUID, amount: $0.int64(0), preparedAt: Date(timeIntervalSince1970: $0.double(1)))
        }
    }

    /// Registers (or re-registers) the amount of `prepared.merchantUID`.
    static func save(_ prepared: PGPrepared, on connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO pg_prepared (merchant_uid, amount, prepared_at) VALUES (?, ?, ?)
            ON CONFLICT (merchant_uid) DO UPDATE SET amount = excluded.amount, prepared_at = excluded.prepared_at
            """, [.text(prepared.merchantUID), .integer(prepared.amount), .real(prepared.preparedAt.timeIntervalSince1970)])
    }

    // MARK: Payments

    /// Runs `body` in one write transaction.
    func write<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try database.blockingWrite(body)
    }

    func payment(impUID: String) throws -> PGPaymentRecord? {
        try database.blockingRead { try Self.payment(impUID: impUID, on: $0) }
    }

    func latestPayment(merchantUID: String) throws -> PGPaymentRecord? {
        try database.blockingRead { try Self.latestPayment(merchantUID: merchantUID, on: $0) }
    }

    func cancellations(impUID: String) throws -> [PGCancellation] {
        try database.blockingRead { try Self.cancellations(impUID: impUID, on: $0) }
    }

    static func cancellations(impUID: String, on connection: SQLiteConnection) throws -> [PGCancellation] {
        try connection.query("SELECT id, amount, reason, cancelled_at FROM pg_cancels WHERE imp_uid = ? ORDER BY id",
                             [.text(impUID)]) {
            PGCancellation(cancellationID: "cancel_\($0.int64(0))", impUID: impUID, amount: $0.int64(1),
                           reason: $0.string(2), cancelledAt: Date(timeIntervalSince1970: $0.double(3)))
        }
    }

    private static let columns =
        "imp_uid, merchant_uid, amount, cancel_amount, status, fail_reason, card_last4, paid_at, cancelled_at, started_at, failed_at"

    static func payment(impUID: String, on connection: SQLiteConnection) throws -> PGPaymentRecord? {
        try connection.queryOne("SELECT \(columns) FROM pg_payments WHERE imp_uid = ?", [.text(impUID)], decode)
    }

    static func latestPayment(merchantUID: String, on connection: SQLiteConnection) throws -> PGPaymentRecord? {
        try connection.queryOne(
            "SELECT \(columns) FROM pg_payments WHERE merchant_uid = ? ORDER BY seq DESC LIMIT 1",
            [.text(merchantUID)], decode)
    }

    static func insert(_ payment: PGPaymentRecord, on connection: SQLiteConnection) throws {
        try connection.run(insertPaymentSQL, values(of: payment))
    }

    /// A payment's insert, numbering it after the last (a test checks its plan uses the index).
    static let insertPaymentSQL = """
        INSERT INTO pg_payments (\(columns), seq)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM pg_payments))
        """

    static func update(_ payment: PGPaymentRecord, on connection: SQLiteConnection) throws {
        var arguments = Array(values(of: payment).dropFirst())
        arguments.remove(at: 8)  // started_at never changes
        arguments.append(.text(payment.impUID))
        try connection.run("""
            UPDATE pg_payments SET merchant_uid = ?, amount = ?, cancel_amount = ?, status = ?, fail_reason = ?,
                card_last4 = ?, paid_at = ?, cancelled_at = ?, failed_at = ? WHERE imp_uid = ?
            """, arguments)
    }

    static func insertCancellation(_ cancellation: PGCancellation, on connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO pg_cancels (imp_uid, amount, reason, cancelled_at) VALUES (?, ?, ?, ?)",
            [.text(cancellation.impUID), .integer(cancellation.amount), .text(cancellation.reason),
             .real(cancellation.cancelledAt.timeIntervalSince1970)])
    }

    private static func values(of payment: PGPaymentRecord) -> [SQLValue] {
        [.text(payment.impUID), .text(payment.merchantUID), .integer(payment.amount),
         .integer(payment.cancelledAmount), .text(payment.status.rawValue),
         .optional(payment.failureReason.map(SQLValue.text)), .optional(payment.cardLast4.map(SQLValue.text)),
         .optional(payment.paidAt.map { .real($0.timeIntervalSince1970) }),
         .optional(payment.cancelledAt.map { .real($0.timeIntervalSince1970) }), .real(payment.startedAt.timeIntervalSince1970),
         .optional(payment.failedAt.map { .real($0.timeIntervalSince1970) })]
    }

    static func decode(_ row: SQLiteRow) -> PGPaymentRecord {
        PGPaymentRecord(
            impUID: row.string(0), merchantUID: row.string(1), amount: row.int64(2), cancelledAmount: row.int64(3),
            status: PGPaymentRecord.Status(rawValue: row.string(4)) ?? .failed,
            failureReason: row.optionalString(5), cardLast4: row.optionalString(6),
            paidAt: row.optionalDouble(7).map(Date.init(timeIntervalSince1970:)),
            cancelledAt: row.optionalDouble(8).map(Date.init(timeIntervalSince1970:)),
            startedAt: Date(timeIntervalSince1970: row.double(9)),
            failedAt: row.optionalDouble(10).map(Date.init(timeIntervalSince1970:)))
    }

    /// One page of the payments `query` selects, in its order, each with its cancellations, and
    /// how many it selects in all, all read in one snapshot (a cancel landing meanwhile cannot
    /// make a payment's `cancel_amount` disagree with its history). A listing by time is served
    /// by `pg_payments_by_status_time` or `pg_payments_by_time`, one by merchant UID by
    /// `pg_payments_by_merchant`.
    func payments(_ query: PGPaymentQuery) throws
        -> (total: Int, page: [(payment: PGPaymentRecord, cancellations: [PGCancellation])]) {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let merchantUID = query.merchantUID {
            conditions.append("merchant_uid = ?")
            arguments.append(.text(merchantUID))
        }
        if let status = query.status {
            conditions.append("status = ?")
            arguments.append(.text(status.rawValue))
        }
        if let started = query.started {
            conditions.append("started_at >= ? AND started_at <= ?")
            arguments += [.real(started.lowerBound.timeIntervalSince1970), .real(started.upperBound.timeIntervalSince1970)]
        }
        let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let direction = query.sorting.descending ? "DESC" : "ASC"
        let key = switch query.sorting.key {
        case .started: "started_at"
        case .paid: "coalesce(paid_at, 0)"
        case .updated: "max(started_at, coalesce(paid_at, 0), coalesce(failed_at, 0), coalesce(cancelled_at, 0))"
        }
        return try database.blockingRead { connection in
            let total = try connection.queryOne("SELECT count(*) FROM pg_payments \(condition)", arguments) { $0.int(0) } ?? 0
            let page = try connection.query(
                "SELECT \(Self.columns) FROM pg_payments \(condition) ORDER BY \(key) \(direction), seq \(direction) LIMIT ? OFFSET ?",
                arguments + [.int(query.limit), .int(query.offset)], Self.decode)
            return (total, try page.map { ($0, try Self.cancellations(impUID: $0.impUID, on: connection)) })
        }
    }
}

/// What a listing of payments selects: v1's `/payments/status/…`, `/payments/find/…` and
/// `/payments/findAll/…` are all one of these.
struct PGPaymentQuery {
    var merchantUID: String?
    var status: PGPaymentRecord.Status?
    /// The window the attempt started in, both ends included.
    var started: ClosedRange<Date>?
    var sorting = PGSorting.newestStarted
    var offset = 0
    var limit = 20
}

/// v1's `sorting` parameter: `-started` (the default), `started`, `-paid`, `paid`, `-updated`,
/// `updated`.
struct PGSorting: Equatable {
    enum Key: String { case started, paid, updated }

    var key: Key
    var descending: Bool

    static let newestStarted = PGSorting(key: .started, descending: true)

    init(key: Key, descending: Bool) {
        self.key = key
        self.descending = descending
    }

    /// Nil for a value v1 does not know.
    init?(_ text: String) {
        let descending = text.hasPrefix("-")
        guard let key = Key(rawValue: descending ? String(text.dropFirst()) : text) else { return nil }
        self.init(key: key, descending: descending)
    }
}
