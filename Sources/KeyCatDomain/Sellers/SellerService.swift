import Foundation

/// The seller-application use cases (architecture §2): a buyer applies with a business registration
/// number, the business registry is asked, and an operator approves or rejects.
public struct SellerService: Sendable {
    /// Who the audit log and ``SellerApplication/decidedBy`` name for automatic rejections.
    public static let registryActor = "system:business-registry"
    /// The representative's name on an application: 1–50 characters, at most 200 bytes.
    public static let representativeNameField = TextRules.Field("representative_name", characters: 1...50)
    /// An operator's reason for a rejection: 1–500 characters, at most 2,000 bytes.
    public static let rejectionReasonField = TextRules.Field("reason", characters: 1...500)

    let applications: any SellerApplicationRepository
    let users: any UserRepository
    let registry: any BusinessRegistry
    let cursors: any PageCursorCodec
    let clock: any WallClock
    /// The accounts' token-version cache, told when an approval changes a role.
    let tokenVersions: TokenVersionCache?

    public init(applications: any SellerApplicationRepository, users: any UserRepository,
                registry: any BusinessRegistry, cursors: any PageCursorCodec, clock: any WallClock,
                tokenVersions: TokenVersionCache? = nil) {
        self.tokenVersions = tokenVersions
        self.applications = applications
        self.users = users
        self.registry = registry
        self.cursors = cursors
        self.clock = clock
    }

    /// Applies to become a seller.
    ///
    /// The number's checksum is checked first, then the caller's own applications (one pending,
    /// five a day), then the business registry: a business that is not active, or whose
    /// representative or opening date the registry does not confirm, is recorded as rejected at
    /// once, with the registry's reason, and returned with status
    /// ``SellerApplicationStatus/rejected``. An active one is returned pending, for an operator
    /// to decide.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is a buyer;
    ///   ``KeyCatError/Code/validation`` for a bad number, name or date;
    ///   ``KeyCatError/Code/duplicate`` when the caller already has a pending application or the
    ///   number belongs to an approved seller; ``KeyCatError/Code/rateLimited`` (context
    ///   `retry_after`) past ``SellerApplication/dailyLimit`` applications in 24 hours;
    ///   ``KeyCatError/Code/notFound`` for a withdrawn account. Another user's *pending* application for the number does not stop this one:
    ///   both wait for an operator, and approving one rejects the others (one business, one seller).
    public func apply(_ form: SellerApplicationForm, by principal: Principal) async throws(KeyCatError) -> SellerApplication {
        try principal.require(.buyer, to: "apply to become a seller")
        let number = try BusinessRegistrationNumber(form.businessNumber)
        let name = try TextRules.text(form.representativeName, Self.representativeNameField)
        guard form.openingDate <= CalendarDate(clock.now()), form.openingDate.year >= 1900 else {
            throw KeyCatError.validation("opening_date", "the opening date must be between 1900-01-01 and today")
        }
        guard let user = try await users.find(principal.userID), user.isActive else {
            throw KeyCatError.notFound("user", principal.userID)
        }
        // What the applicant's own applications refuse is refused before the registry is asked
        // (a server's registry may be the tax service's API, under a quota): a refusal for a
        // pending application writes no row, so it counts toward no limit, and until 2026-12-02
        // an applicant waiting for a decision could make the registry answer without end. The
        // insert checks both again in its own write.
        let filed = try await applications.applications(of: user.id)
        if filed.contains(where: { $0.status == .pending }) {
            throw KeyCatError(.duplicate, "you already have a pending seller application: wait for its decision",
                              context: ["field": "business_number"])
        }
        if let refusal = SellerApplication.dailyLimitReached(filed: filed.map(\.createdAt), at: clock.now()) { throw refusal }
        let (status, refusal) = try await registryVerdict(on: number, representativeName: name, openingDate: form.openingDate)
        let now = clock.now()
        let application = SellerApplication(
            id: SellerApplicationID(0), userID: user.id, businessNumber: number, representativeName: name,
            openingDate: form.openingDate, registryStatus: status,
            status: refusal == nil ? .pending : .rejected,
            reason: refusal, createdAt: now,
            decidedAt: refusal == nil ? nil : now,
            decidedBy: refusal == nil ? nil : Self.registryActor)
        return try await applications.insert(application)
    }

    /// One application: the applicant's own, or any for an admin.
    /// - Throws: ``KeyCatError/Code/notFound``; ``KeyCatError/Code/notOwner`` for someone
    ///   else's.
    public func application(_ id: SellerApplicationID, by principal: Principal) async throws(KeyCatError) -> SellerApplication {
        guard let application = try await applications.find(id) else { throw KeyCatError.notFound("seller application", id) }
        try principal.requireOwnerOrAdmin(application.userID, of: "seller application")
        return application
    }

    /// The caller's own applications, newest first: what the app shows as "your application".
    public func myApplications(by principal: Principal) async throws(KeyCatError) -> [SellerApplication] {
        try await applications.applications(of: principal.userID)
    }

    /// Applications in id order, optionally of one status: the operators' `sellers list`.
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/invalidCursor``.
    public func listApplications(
        status: SellerApplicationStatus? = nil, limit: PageLimit = .default, cursor: String? = nil,
        by principal: Principal
    ) async throws(KeyCatError) -> Page<SellerApplication> {
        try principal.require(.admin, to: "list seller applications")
        let query = "seller_applications:id:\(status?.rawValue ?? "all")"
        let after = try cursor.map { cursor throws(KeyCatError) in
            SellerApplicationID(try cursors.decode(cursor, query: query).id)
        }
        var rows = try await applications.list(status: status, after: after, limit: limit.value + 1)
        var next: String?
        if rows.count > limit.value {
            rows.removeLast(rows.count - limit.value)
            next = rows.last.map { cursors.encode(CursorPosition(id: $0.id.rawValue), query: query) }
        }
        return Page(items: rows, nextCursor: next)
    }

    /// Approves a pending application: the applicant becomes a seller (their next access token,
    /// after a refresh, carries the role). Written to the audit log in the same transaction.
    /// - Throws: ``KeyCatError/Code/forbidden`` unless the caller is an admin;
    ///   ``KeyCatError/Code/notFound``; ``KeyCatError/Code/illegalTransition`` when it is not
    ///   pending, or its applicant withdrew or is suspended (the store checks again in the
    ///   approval's transaction): an approved number belongs to one seller for good, and a
    ///   seller who cannot sell would hold it from the business's real account. Also
    ///   `illegalTransition`, with the registry's `reason`, when the business registry, asked
    ///   again, now refuses it (the business is no longer active, or the registry has learnt a
    ///   representative's name or opening date the application does not give): nothing
    ///   changes, and the operator rejects it.
    public func approve(_ id: SellerApplicationID, by principal: Principal) async throws(KeyCatError) -> SellerApplication {
        try principal.require(.admin, to: "approve seller applications")
        if let application = try await applications.find(id) {
            if let user = try await users.find(application.userID), !user.isActive || user.isSuspended {
                throw Self.inactiveApplicant(id)
            }
            if application.status == .pending, let refusal = try await registryVerdict(
                on: application.businessNumber, representativeName: application.representativeName,
                openingDate: application.openingDate).refusal {
                throw KeyCatError(.illegalTransition, "the business registry now refuses seller application \(id): \(refusal); reject it instead",
                                  context: ["status": SellerApplicationStatus.pending.rawValue, "reason": refusal])
            }
        }
        let now = clock.now()
        let audit = AuditEntry(actor: principal.auditActor, action: "seller.approve", target: "seller_application:\(id)", at: now)
        let decided = try await applications.decide(id, .approve, by: principal.auditActor, at: now, audit: audit)
        // The applicant's buyer tokens were revoked with the role change (token version bumped).
        tokenVersions?.forget(decided.userID)
        return decided
    }

    /// What the business registry says of a business now: its status, and why an application of
    /// it must be refused (nil when it may be approved): a business that is not active, or a
    /// representative's name or opening date the registry does not confirm. Asked when an
    /// application is filed and again when it is approved, since the registry may have learnt
    /// the business's name and date, or the business closed, in between (until 2026-12-02 an
    /// application filed before an operator loaded the names was approved unconfirmed).
    private func registryVerdict(on number: BusinessRegistrationNumber, representativeName: String, openingDate: CalendarDate)
        async throws(KeyCatError) -> (status: BusinessStatus, refusal: String?) {
        let status = try await registry.status(of: number)
        if let reason = status.rejectionReason { return (status, reason) }
        if try await registry.confirms(number, representativeName: representativeName, openingDate: openingDate) == false {
            return (status, BusinessRegistryEntry.unconfirmedReason)
        }
        return (status, nil)
    }

    /// The refusal to approve an application whose applicant withdrew or is suspended.
    package static func inactiveApplicant(_ id: SellerApplicationID) -> KeyCatError {
        KeyCatError(.illegalTransition, "the applicant of seller application \(id) withdrew or is suspended: reject it instead",
                    context: ["status": SellerApplicationStatus.pending.rawValue])
    }

    /// Rejects a pending application with a reason the applicant will see. Audited like
    /// ``approve(_:as:)``.
    /// - Throws: as ``approve(_:as:)``, and ``KeyCatError/Code/validation`` for an empty reason
    ///   or one over 500 characters.
    public func reject(_ id: SellerApplicationID, reason: String, by principal: Principal) async throws(KeyCatError) -> SellerApplication {
        try principal.require(.admin, to: "reject seller applications")
        let reason = try TextRules.text(reason, Self.rejectionReasonField)
        let now = clock.now()
        let audit = AuditEntry(
            actor: principal.auditActor, action: "seller.reject", target: "seller_application:\(id)", detail: reason, at: now)
        return try await applications.decide(id, .reject(reason: reason), by: principal.auditActor, at: now, audit: audit)
    }
}
