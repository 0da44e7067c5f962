import Foundation

/// The port where operator actions are written and read back.
public protocol AuditLog: Sendable {
    /// Records `entry` and returns it with its id.
    @discardableResult
    func record(_ entry: AuditEntry) async throws(KeyCatError) -> AuditEntry

    /// The newest entries first, at most `limit`.
    func recent(limit: Int) async throws(KeyCatError) -> [AuditEntry]

    /// The entries that match `filter`, newest first by `(at, id)`, strictly after `position`
    /// (a keyset walk), at most `limit`.
    func entries(matching filter: AuditFilter, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [AuditEntry]

    /// Deletes the entries recorded before `date`, oldest first, and when any went records that
    /// it did (`audit.prune` by `system` at `now`, with how many and the cut-off): the log's
    /// retention.
    ///
    /// - Returns: how many it deleted.
    func prune(before date: Date, at now: Date) async throws(KeyCatError) -> Int
}

/// Which audit entries to list. Each field given narrows the list; all nil lists everything.
public struct AuditFilter: Sendable, Hashable {
    /// Exactly this actor, e.g. `cli:root` or `admin:3`.
    public var actor: String?
    /// Exactly this action, e.g. `order.refund`.
    public var action: String?
    /// Exactly this target, e.g. `order:42`.
    public var target: String?
    /// Only entries at or after this time.
    public var since: Date?

    public init(actor: String? = nil, action: String? = nil, target: String? = nil, since: Date? = nil) {
        self.actor = actor
        self.action = action
        self.target = target
        self.since = since
    }

    /// The cursor's query: a cursor from one filter is refused with another.
    var fingerprint: String {
        "audit|actor=\(actor ?? "")|action=\(action ?? "")|target=\(target ?? "")|since=\(since?.millisecondsSince1970 ?? -1)"
    }
}

/// Reading the audit log: operators only.
public struct AuditService: Sendable {
    let log: any AuditLog
    let paging: NewestFirstPaging

    public init(log: any AuditLog, cursors: any PageCursorCodec) {
        self.log = log
        paging = NewestFirstPaging(cursors: cursors)
    }

    /// One page of the entries matching `filter`, newest first (architecture §3 keyset paging).
    ///
    /// - Throws: ``KeyCatError/Code/forbidden`` for anyone but an admin;
    ///   ``KeyCatError/Code/invalidCursor`` for a cursor of another filter;
    ///   ``KeyCatError/Code/validation`` for a filter field over 200 characters.
    public func list(_ filter: AuditFilter = AuditFilter(), limit: PageLimit = .default, cursor: String? = nil,
                     by principal: Principal) async throws(KeyCatError) -> Page<AuditEntry> {
        try principal.require(.admin, to: "read the audit log")
        for (field, value) in [("actor", filter.actor), ("action", filter.action), ("target", filter.target)] {
            if let value, value.isEmpty || value.count > 200 {
                throw KeyCatError.validation(field, "an audit filter has 1–200 characters")
            }
        }
        let query = filter.fingerprint
        let position = try paging.position(cursor, query: query)
        let rows = try await log.entries(matching: filter, after: position, limit: limit.value + 1)
        return paging.page(rows, limit: limit, query: query, time: \.at, id: { $0.id ?? 0 })
    }
}
