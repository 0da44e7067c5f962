import Foundation

/// Where seller applications are kept. Implementation: `SQLSellerApplicationRepository`.
public protocol SellerApplicationRepository: Sendable {
    /// Stores an application (its `id` is ignored) and returns it with its id.
    /// - Throws: ``KeyCatError/Code/duplicate`` when the user already has a pending application,
    ///   or the business number is pending or approved for someone; ``KeyCatError/Code/rateLimited``
    ///   (context `retry_after`, seconds) when the user filed ``SellerApplication/dailyLimit``
    ///   applications in the 24 hours before its `createdAt`, counted in the insert's own write.
    func insert(_ application: SellerApplication) async throws(KeyCatError) -> SellerApplication

    func find(_ id: SellerApplicationID) async throws(KeyCatError) -> SellerApplication?

    /// Every application `user` made, newest first.
    func applications(of user: UserID) async throws(KeyCatError) -> [SellerApplication]

    /// Applications in id order after `after`, optionally of one status, at most `limit`.
    func list(status: SellerApplicationStatus?, after: SellerApplicationID?, limit: Int)
        async throws(KeyCatError) -> [SellerApplication]

    /// Decides a pending application in one transaction: its status, reason and decider; on
    /// approval the applicant's role becomes seller; and `audit` is recorded.
    /// - Throws: ``KeyCatError/Code/notFound``; ``KeyCatError/Code/illegalTransition`` when the
    ///   application is no longer pending.
    func decide(_ id: SellerApplicationID, _ decision: SellerDecision, by actor: String, at: Date, audit: AuditEntry)
        async throws(KeyCatError) -> SellerApplication
}
