import Foundation
import KeyCatData

extension KeyCat {
    /// The orders, payments and refunds of `[since, until)`, for accounting (admin only),
    /// recorded in the audit log as `orders.export`.
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` for anyone but an admin;
    ///   ``KeyCatError/Code/validation`` when `until` is not after `since` or the period is longer
    ///   than 366 days (export a year at a time: the whole period is read into memory).
    public func exportOrders(since: Date, until: Date, by principal: Principal) async throws(KeyCatError) -> OrdersExport {
        try principal.require(.admin, to: "export orders")
        guard until > since else { throw KeyCatError.validation("until", "until must come after since") }
        guard until.timeIntervalSince(since) <= 366 * 24 * 60 * 60 else {
            throw KeyCatError.validation("until", "export at most 366 days at a time (since to until)")
        }
        let export = try await store.exportOrders(since: since, until: until)
        // A copy of a period's orders leaves the shop with its buyers in it: who took one, and
        // of what, is kept (안전성 확보조치 기준 §8 asks it of downloads of personal data).
        try await auditLog.record(AuditEntry(
            actor: principal.auditActor, action: "orders.export", target: "orders",
            detail: "\(export.orders.count) orders of [\(Self.exportTime(since)), \(Self.exportTime(until)))", at: configuration.clock.now()))
        return export
    }

    private static func exportTime(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
