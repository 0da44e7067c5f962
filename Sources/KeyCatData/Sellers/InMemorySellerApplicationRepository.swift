import Foundation
import KeyCatDomain
import Synchronization

/// Seller applications in memory, for tests of the use cases without a file. Approving changes
/// the role in the ``InMemoryUserRepository`` it was given; audit entries are kept in
/// ``auditEntries``. One lock makes each decision atomic (the role change follows under the
/// user repository's lock; the SQLite implementation does all of it in one transaction).
package final class InMemorySellerApplicationRepository: SellerApplicationRepository {
    private struct State {
        var rows: [SellerApplicationID: SellerApplication] = [:]
        var audit: [AuditEntry] = []
        var nextID: Int64 = 1
    }

    private let state = Mutex(State())
    private let users: InMemoryUserRepository

    package init(users: InMemoryUserRepository) {
        self.users = users
        // A withdrawal closes the person's pending application, as the SQL store does in its
        // transaction (``SQLSellerApplicationRepository/closePending(of:at:by:on:)``).
        users.observeWithdrawals { [weak self] user, at, actor in self?.closePending(of: user, at: at, by: actor) }
    }

    private func closePending(of user: UserID, at: Date, by actor: String) {
        state.withLock { state in
            for (id, application) in state.rows where application.userID == user && application.status == .pending {
                var closed = application
                closed.status = .rejected
                closed.reason = SellerDecision.applicantWithdrew
                closed.decidedAt = at
                closed.decidedBy = actor
                state.rows[id] = closed
                state.audit.append(AuditEntry(actor: actor, action: "seller.reject", target: "seller_application:\(id)",
                                              detail: SellerDecision.applicantWithdrew, at: at))
            }
        }
    }

    /// The audit entries decisions recorded, oldest first.
    package var auditEntries: [AuditEntry] { state.withLock { $0.audit } }

    package func insert(_ application: SellerApplication) throws(KeyCatError) -> SellerApplication {
        try state.withLock { state throws(KeyCatError) -> SellerApplication in
            let filed = state.rows.values.filter { $0.userID == application.userID }
                .sorted { $0.id.rawValue > $1.id.rawValue }.map(\.createdAt)
            if let refusal = SellerApplication.dailyLimitReached(filed: filed, at: application.createdAt) { throw refusal }
            let clash = state.rows.values.contains { other in
                (other.userID == application.userID && other.status == .pending && application.status == .pending)
                    || (other.businessNumber == application.businessNumber && other.status == .approved
                        && application.status != .rejected)
            }
            guard !clash else {
                throw KeyCatError(
                    .duplicate, "there is already a pending application by this user, or an approved seller with this business number",
                    context: ["field": "business_number"])
            }
            let stored = SellerApplication(
                id: SellerApplicationID(state.nextID), userID: application.userID,
                businessNumber: application.businessNumber, representativeName: application.representativeName,
                openingDate: application.openingDate, registryStatus: application.registryStatus,
                status: application.status, reason: application.reason, createdAt: application.createdAt,
                decidedAt: application.decidedAt, decidedBy: application.decidedBy)
            state.nextID += 1
            state.rows[stored.id] = stored
            return stored
        }
    }

    package func find(_ id: SellerApplicationID) throws(KeyCatError) -> SellerApplication? {
        state.withLock { $0.rows[id] }
    }

    package func applications(of user: UserID) throws(KeyCatError) -> [SellerApplication] {
        state.withLock { state in state.rows.values.filter { $0.userID == user }.sorted { $0.id > $1.id } }
    }

    package func list(status: SellerApplicationStatus?, after: SellerApplicationID?, limit: Int)
        throws(KeyCatError) -> [SellerApplication]
    {
        state.withLock { state in
            Array(state.rows.values
                .filter { ($0.id > (after ?? SellerApplicationID(0))) && (status == nil || $0.status == status) }
                .sorted { $0.id < $1.id }.prefix(limit))
        }
    }

    package func decide(
        _ id: SellerApplicationID, _ decision: SellerDecision, by actor: String, at: Date, audit: AuditEntry
    ) throws(KeyCatError) -> SellerApplication {
        let decided = try state.withLock { state throws(KeyCatError) -> SellerApplication in
            guard var application = state.rows[id] else { throw KeyCatError.notFound("seller application", id) }
            guard application.status == .pending else {
                throw KeyCatError(
                    .illegalTransition, "seller application \(id) is already \(application.status.rawValue)",
                    context: ["status": application.status.rawValue])
            }
            switch decision {
            case .approve: application.status = .approved
            case .reject(let reason):
                application.status = .rejected
                application.reason = reason
            }
            application.decidedAt = at
            application.decidedBy = actor
            state.rows[id] = application
            state.audit.append(audit)
            if application.status == .approved {
                for (otherID, var other) in state.rows
                where other.businessNumber == application.businessNumber && other.status == .pending && otherID != id {
                    other.status = .rejected
                    other.reason = SellerDecision.competitorApproved
                    other.decidedAt = at
                    other.decidedBy = actor
                    state.rows[otherID] = other
                    state.audit.append(AuditEntry(actor: audit.actor, action: "seller.reject",
                                                  target: "seller_application:\(otherID)", detail: SellerDecision.competitorApproved, at: at))
                }
            }
            return application
        }
        if decided.status == .approved, (try? users.find(decided.userID))??.role == .buyer {
            users.setRole(decided.userID, to: .seller)
        }
        return decided
    }
}
