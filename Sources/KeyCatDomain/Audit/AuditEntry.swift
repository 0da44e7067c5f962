import Foundation

/// One operator action, kept forever: who did what to which thing, and when.
public struct AuditEntry: Sendable, Hashable {
    /// The row id, assigned when recorded.
    public var id: Int64?
    /// Who acted: `"admin:3"`, `"cli:root"`, `"system"`.
    public var actor: String
    /// What was done, a stable dotted name such as `"database.init"` or `"order.refund"`.
    public var action: String
    /// What it was done to, such as `"order:42"`; empty when the action has no target.
    public var target: String
    /// Free-form details (reason, amounts), for people.
    public var detail: String
    /// When it happened.
    public var at: Date

    public init(id: Int64? = nil, actor: String, action: String, target: String = "", detail: String = "", at: Date) {
        self.id = id
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
        self.at = at
    }
}
