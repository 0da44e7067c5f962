/// The port where operator actions are written and read back.
public protocol AuditLog: Sendable {
    /// Records `entry` and returns it with its id.
    @discardableResult
    func record(_ entry: AuditEntry) throws(KeyCatError) -> AuditEntry

    /// The newest entries first, at most `limit`.
    func recent(limit: Int) throws(KeyCatError) -> [AuditEntry]
}
