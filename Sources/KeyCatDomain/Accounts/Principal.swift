/// Who is calling: the user an access token (or the operator console) speaks for, and their role.
///
/// Every use case that reads private data or writes takes a `Principal`. A server gets one from
/// ``AccountService/authenticate(accessToken:)``; `keycat-admin` uses
/// ``operatorConsole(_:)``.
public struct Principal: Sendable, Hashable {
    /// The user acting. `UserID(0)` for the operator console, which is no user.
    public let userID: UserID
    /// The role the caller acts with.
    public let role: Role
    /// The operator's name when the caller is the console, else nil.
    public let operatorName: String?

    public init(userID: UserID, role: Role) {
        self.userID = userID
        self.role = role
        self.operatorName = nil
    }

    private init(operatorName: String) {
        self.userID = UserID(0)
        self.role = .admin
        self.operatorName = operatorName
    }

    /// The operator console (`keycat-admin`): an admin that is no user, recorded in the audit log
    /// as `cli:<name>`.
    public static func operatorConsole(_ name: String) -> Principal { Principal(operatorName: name) }

    /// How the audit log names this caller: `"cli:root"`, `"admin:3"`.
    public var auditActor: String { operatorName.map { "cli:\($0)" } ?? "\(role.rawValue):\(userID)" }

    /// Throws ``KeyCatError/Code/forbidden`` unless the caller has one of `roles`.
    public func require(_ roles: Role..., to action: String) throws(KeyCatError) {
        guard roles.contains(role) else {
            throw KeyCatError(.forbidden, "a \(role.rawValue) may not \(action)", context: ["role": role.rawValue])
        }
    }

    /// Throws ``KeyCatError/Code/notOwner`` unless the caller is `owner` or an admin.
    public func requireOwnerOrAdmin(_ owner: UserID, of entity: String) throws(KeyCatError) {
        guard role == .admin || userID == owner else {
            throw KeyCatError(.notOwner, "this \(entity) belongs to someone else", context: ["entity": entity])
        }
    }

    /// Throws ``KeyCatError/Code/notFound`` for `entity` `id` unless the caller is `owner` or an
    /// admin: for objects whose existence must not leak to others (architecture §5's "404 where
    /// existence must not leak"), such as an order, which would tell that its buyer bought.
    public func requireOwnerOrAdmin(_ owner: UserID, hiding entity: String, _ id: CustomStringConvertible) throws(KeyCatError) {
        guard role == .admin || userID == owner else { throw KeyCatError.notFound(entity, id) }
    }
}
