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
        database = try SQLiteDatabase(path: path, configuration: configuration)
        try SQLiteMigrator(migrations: Self.migrations).migrate(database)
    }

    func close() { database.close() }

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

    // MARK: Idempotency

    /// The answer first given to an idempotency key, with the fingerprint of that request's body.
    func storedResponse(forKey key: String) throws -> (response: TransportResponse, fingerprint: String)? {
        try database.blockingRead {
            try $0.queryOne("SELECT status, body, fingerprint FROM pg_idempotency WHERE key = ?", [.text(key)]) {
                (TransportResponse(status: $0.int(0), headers: ["Content-Type": "application/json"], body: Data($0.bytes(1))),
                 $0.string(2))
            }
        }
    }

    func store(_ response: TransportResponse, forKey key: String, fingerprint: String) throws {
        _ = try database.blockingWrite {
            try $0.run("INSERT OR IGNORE INTO pg_idempotency (key, fingerprint, status, body) VALUES (?, ?, ?, ?)",
                       [.text(key), .text(fingerprint), .int(response.status), .data(response.body)])
        }
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
        try database.blockingRead {
            try $0.query("SELECT imp_uid, amount, reason, cancelled_at FROM pg_cancels WHERE imp_uid = ? ORDER BY id",
                         [.text(impUID)]) {
                PGCancellation(impUID: $0.string(0), amount: $0.int64(1), reason: $0.string(2),
                               cancelledAt: Date(timeIntervalSince1970: $0.double(3)))
            }
        }
    }

    private static let columns =
        "imp_uid, merchant_uid, amount, cancel_amount, status, fail_reason, card_last4, paid_at, cancelled_at, started_at"

    static func payment(impUID: String, on connection: SQLiteConnection) throws -> PGPaymentRecord? {
        try connection.queryOne("SELECT \(columns) FROM pg_payments WHERE imp_uid = ?", [.text(impUID)], decode)
    }

    static func latestPayment(merchantUID: String, on connection: SQLiteConnection) throws -> PGPaymentRecord? {
        try connection.queryOne(
            "SELECT \(columns) FROM pg_payments WHERE merchant_uid = ? ORDER BY seq DESC LIMIT 1",
            [.text(merchantUID)], decode)
    }

    static func insert(_ payment: PGPaymentRecord, on connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO pg_payments (\(columns), seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM pg_payments))
            """, values(of: payment))
    }

    static func update(_ payment: PGPaymentRecord, on connection: SQLiteConnection) throws {
        var arguments = Array(values(of: payment).dropFirst().dropLast())  // started_at never changes
        arguments.append(.text(payment.impUID))
        try connection.run("""
            UPDATE pg_payments SET merchant_uid = ?, amount = ?, cancel_amount = ?, status = ?, fail_reason = ?,
                card_last4 = ?, paid_at = ?, cancelled_at = ? WHERE imp_uid = ?
            """, arguments)
    }

    static func insertCancellation(_ cancellation: PGCancellation, on connection: SQLiteConnection) throws {
        try connection.run(
            "INSERT INTO pg_cancels (imp_uid, amount, reason, cancelled_at) VALUES (?, ?, ?, ?)",
            [.text(cancellation.impUID), .integer(cancellation.amount), .text(cancellation.reason),
             .real(cancellation.cancelledAt.timeIntervalSince1970)])
    }

    private static func values(of payment: PGPaymentRecord) -> [SQLiteValue] {
        [.text(payment.impUID), .text(payment.merchantUID), .integer(payment.amount),
         .integer(payment.cancelledAmount), .text(payment.status.rawValue),
         .optional(payment.failureReason.map(SQLiteValue.text)), .optional(payment.cardLast4.map(SQLiteValue.text)),
         .optional(payment.paidAt.map { .real($0.timeIntervalSince1970) }),
         .optional(payment.cancelledAt.map { .real($0.timeIntervalSince1970) }), .real(payment.startedAt.timeIntervalSince1970)]
    }

    private static func decode(_ row: SQLiteRow) -> PGPaymentRecord {
        PGPaymentRecord(
            impUID: row.string(0), merchantUID: row.string(1), amount: row.int64(2), cancelledAmount: row.int64(3),
            status: PGPaymentRecord.Status(rawValue: row.string(4)) ?? .failed,
            failureReason: row.optionalString(5), cardLast4: row.optionalString(6),
            paidAt: row.optionalDouble(7).map(Date.init(timeIntervalSince1970:)),
            cancelledAt: row.optionalDouble(8).map(Date.init(timeIntervalSince1970:)),
            startedAt: Date(timeIntervalSince1970: row.double(9)))
    }

    /// One page of payments whose attempt started in `from...to`, newest first, with `status`
    /// (nil: any), and how many match in all. Served by `pg_payments_by_status_time` or
    /// `pg_payments_by_time`.
    func payments(status: PGPaymentRecord.Status?, from: Date, to: Date, offset: Int, limit: Int) throws
        -> (total: Int, page: [PGPaymentRecord]) {
        var condition = "started_at >= ? AND started_at <= ?"
        var arguments: [SQLiteValue] = [.real(from.timeIntervalSince1970), .real(to.timeIntervalSince1970)]
        if let status {
            condition = "status = ? AND " + condition
            arguments.insert(.text(status.rawValue), at: 0)
        }
        return try database.blockingRead { connection in
            let total = try connection.queryOne("SELECT count(*) FROM pg_payments WHERE \(condition)", arguments) { $0.int(0) } ?? 0
            let page = try connection.query(
                "SELECT \(Self.columns) FROM pg_payments WHERE \(condition) ORDER BY started_at DESC, seq DESC LIMIT ? OFFSET ?",
                arguments + [.int(limit), .int(offset)], Self.decode)
            return (total, page)
        }
    }
}
