import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Seller applications in `seller_applications` (schema version 2).
package struct SQLSellerApplicationRepository<Database: SQLDatabase>: SellerApplicationRepository {
    private let database: Database

    package init(database: Database) { self.database = database }

    static var columns: String {
        """
        id, user_id, business_number, representative_name, opening_date, registry_status, status, reason,
        created_at, decided_at, decided_by
        """
    }

    /// Refuses a user's application once they filed ``SellerApplication/dailyLimit`` in the 24
    /// hours before `now`: their newest that many, read by `seller_applications_by_user`.
    private static func requireDailyLimit(of user: UserID, at now: Date, on connection: some SQLConnection) throws {
        let newest = try connection.query(
            "SELECT created_at FROM seller_applications WHERE user_id = ? ORDER BY id DESC LIMIT ?",
            [.integer(user.rawValue), .int(SellerApplication.dailyLimit)]) { StoredTime.date($0.int64(0)) }
        if let refusal = SellerApplication.dailyLimitReached(filed: newest, at: now) { throw refusal }
    }

    package func insert(_ application: SellerApplication) async throws(KeyCatError) -> SellerApplication {
        do throws(KeyCatError) {
            return try await storage {
                try await database.write { connection in
                    try Self.requireDailyLimit(of: application.userID, at: application.createdAt, on: connection)
                    // An approved number belongs to its seller; pending ones compete (see decide).
                    if application.status != .rejected, try connection.queryOne(
                        "SELECT 1 FROM seller_applications WHERE business_number = ? AND status = 'approved'",
                        [.text(application.businessNumber.digits)], { $0.int(0) }) != nil {
                        throw KeyCatError(.duplicate, "this business number belongs to an approved seller")
                    }
                    let id = try connection.insertReturningID(
                        """
                        INSERT INTO seller_applications (user_id, business_number, representative_name, opening_date,
                            registry_status, status, reason, created_at, decided_at, decided_by)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [.integer(application.userID.rawValue), .text(application.businessNumber.digits),
                         .text(application.representativeName), .text(application.openingDate.description),
                         .text(application.registryStatus.rawValue), .text(application.status.rawValue),
                         .optional(application.reason.map(SQLValue.text)), StoredTime.value(application.createdAt),
                         StoredTime.value(application.decidedAt), .optional(application.decidedBy.map(SQLValue.text))])
                    if application.status == .rejected {
                        // Refused at once by the business registry: told like an operator's refusal.
                        try EventOutbox.append(DomainEvent(.sellerApplicationRejected, at: application.createdAt,
                                                           aggregate: EventAggregate(.sellerApplication, id), data: [
                            "application_id": .integer(id), "user_id": .integer(application.userID.rawValue),
                            "reason": .optional(application.reason),
                        ]), on: connection)
                    }
                    return SellerApplication(
                        id: SellerApplicationID(id), userID: application.userID,
                        businessNumber: application.businessNumber, representativeName: application.representativeName,
                        openingDate: application.openingDate, registryStatus: application.registryStatus,
                        status: application.status, reason: application.reason, createdAt: application.createdAt,
                        decidedAt: application.decidedAt, decidedBy: application.decidedBy)
                }
            }
        } catch where error.code == .duplicate {
            throw KeyCatError(
                .duplicate, "there is already a pending application by this user, or an approved seller with this business number",
                context: ["field": "business_number"])
        }
    }

    package func find(_ id: SellerApplicationID) async throws(KeyCatError) -> SellerApplication? {
        try await storage { try await database.read { try Self.find(id, on: $0) } }
    }

    package func applications(of user: UserID) async throws(KeyCatError) -> [SellerApplication] {
        try await storage {
            try await database.read { connection in
                try connection.query(
                    "SELECT \(Self.columns) FROM seller_applications WHERE user_id = ? ORDER BY id DESC",
                    [.integer(user.rawValue)], Self.decode)
            }
        }
    }

    private static func find(_ id: SellerApplicationID, on connection: some SQLConnection) throws -> SellerApplication? {
        try connection.queryOne(
            "SELECT \(columns) FROM seller_applications WHERE id = ?", [.integer(id.rawValue)], decode)
    }

    package func list(status: SellerApplicationStatus?, after: SellerApplicationID?, limit: Int)
        async throws(KeyCatError) -> [SellerApplication]
    {
        try await storage {
            try await database.read { connection in
                if let status {
                    try connection.query(
                        "SELECT \(Self.columns) FROM seller_applications WHERE status = ? AND id > ? ORDER BY id LIMIT ?",
                        [.text(status.rawValue), .integer(after?.rawValue ?? 0), .int(limit)], Self.decode)
                } else {
                    try connection.query(
                        "SELECT \(Self.columns) FROM seller_applications WHERE id > ? ORDER BY id LIMIT ?",
                        [.integer(after?.rawValue ?? 0), .int(limit)], Self.decode)
                }
            }
        }
    }

    /// Why a decision could not be made, found inside the transaction.
    private enum Refusal: Error {
        case missing
        case notPending(SellerApplicationStatus)
        case inactiveApplicant
    }

    package func decide(
        _ id: SellerApplicationID, _ decision: SellerDecision, by actor: String, at: Date, audit: AuditEntry
    ) async throws(KeyCatError) -> SellerApplication {
        do {
            return try await database.write { connection in
                guard let application = try Self.find(id, on: connection) else { throw Refusal.missing }
                guard application.status == .pending else { throw Refusal.notPending(application.status) }
                let (status, reason): (SellerApplicationStatus, String?) = switch decision {
                case .approve: (.approved, nil)
                case .reject(let reason): (.rejected, reason)
                }
                if status == .approved, try connection.queryOne("""
                    SELECT 1 FROM users WHERE id = ? AND withdrawn_at IS NULL AND suspended_at IS NULL
                    """, [.integer(application.userID.rawValue)], { _ in true }) == nil {
                    throw Refusal.inactiveApplicant
                }
                try connection.run(
                    """
                    UPDATE seller_applications SET status = ?, reason = ?, decided_at = ?, decided_by = ?
                    WHERE id = ? AND status = 'pending'
                    """,
                    [.text(status.rawValue), .optional(reason.map(SQLValue.text)), StoredTime.value(at),
                     .text(actor), .integer(id.rawValue)])
                if status == .approved {
                    // Competing applications for the number lose: one business, one seller.
                    let losers = try connection.query("""
                        UPDATE seller_applications SET status = 'rejected', reason = ?, decided_at = ?, decided_by = ?
                        WHERE business_number = ? AND status = 'pending' AND id <> ?
                        RETURNING id, user_id
                        """, [.text(SellerDecision.competitorApproved), StoredTime.value(at), .text(actor),
                              .text(application.businessNumber.digits), .integer(id.rawValue)]) { (id: $0.int64(0), user: $0.int64(1)) }
                    for loser in losers {
                        try Self.recordRejection(of: loser.id, by: UserID(loser.user), reason: SellerDecision.competitorApproved,
                                                 actor: audit.actor, at: at, on: connection)
                    }
                    // An admin applicant keeps the higher role; everyone else becomes a seller, and
                    // their buyer access tokens stop working (the next refresh carries seller).
                    try connection.run(
                        """
                        UPDATE users SET role = 'seller', updated_at = ?, token_version = token_version + 1
                        WHERE id = ? AND role = 'buyer'
                        """,
                        [StoredTime.value(at), .integer(application.userID.rawValue)])
                }
                try AuditLogTable.insert(audit, on: connection)
                try EventOutbox.append(DomainEvent(
                    status == .approved ? .sellerApplicationApproved : .sellerApplicationRejected, at: at,
                    aggregate: EventAggregate(.sellerApplication, id.rawValue), data: [
                        "application_id": .integer(id.rawValue), "user_id": .integer(application.userID.rawValue),
                        "reason": .optional(reason),
                    ]), on: connection)
                var decided = application
                decided.status = status
                decided.reason = reason
                decided.decidedAt = at
                decided.decidedBy = actor
                return decided
            }
        } catch Refusal.missing {
            throw KeyCatError.notFound("seller application", id)
        } catch Refusal.inactiveApplicant {
            throw SellerService.inactiveApplicant(id)
        } catch Refusal.notPending(let status) {
            throw KeyCatError(
                .illegalTransition, "seller application \(id) is already \(status.rawValue)",
                context: ["status": status.rawValue])
        } catch {
            throw KeyCatError.storage(error)
        }
    }

    /// Rejects a withdrawing person's pending application, in the withdrawal's transaction, as
    /// an operator's rejection is recorded (audit entry and `seller_application.rejected`), with
    /// ``SellerDecision/applicantWithdrew`` as its reason: no operator could approve it any more,
    /// and until 2026-12-02 it waited in the review queue for ever.
    static func closePending(of user: UserID, at: Date, by actor: String, on connection: Database.Connection) throws {
        let closed = try connection.query("""
            UPDATE seller_applications SET status = 'rejected', reason = ?, decided_at = ?, decided_by = ?
            WHERE user_id = ? AND status = 'pending'
            RETURNING id
            """, [.text(SellerDecision.applicantWithdrew), StoredTime.value(at), .text(actor), .integer(user.rawValue)]) { $0.int64(0) }
        for id in closed {
            try recordRejection(of: id, by: user, reason: SellerDecision.applicantWithdrew, actor: actor, at: at, on: connection)
        }
    }

    /// The audit entry (`seller.reject`) and `seller_application.rejected` event of an
    /// application rejected by something other than an operator's own decision (another
    /// application approved, its applicant withdrawing), in the caller's transaction.
    private static func recordRejection(of id: Int64, by user: UserID, reason: String, actor: String, at: Date,
                                        on connection: some SQLConnection) throws {
        try AuditLogTable.insert(AuditEntry(
            actor: actor, action: "seller.reject", target: "seller_application:\(id)", detail: reason, at: at), on: connection)
        try EventOutbox.append(DomainEvent(.sellerApplicationRejected, at: at, aggregate: EventAggregate(.sellerApplication, id), data: [
            "application_id": .integer(id), "user_id": .integer(user.rawValue), "reason": .string(reason),
        ]), on: connection)
    }

    static func decode(_ row: some SQLRow) throws -> SellerApplication {
        SellerApplication(
            id: SellerApplicationID(row.int64(0)), userID: UserID(row.int64(1)),
            businessNumber: try BusinessRegistrationNumber(row.string(2)), representativeName: row.string(3),
            openingDate: try CalendarDate(iso8601: row.string(4)),
            registryStatus: BusinessStatus(rawValue: row.string(5)) ?? .unregistered,
            status: SellerApplicationStatus(rawValue: row.string(6)) ?? .pending, reason: row.optionalString(7),
            createdAt: StoredTime.date(row.int64(8)), decidedAt: StoredTime.date(row.optionalInt64(9)),
            decidedBy: row.optionalString(10))
    }
}
