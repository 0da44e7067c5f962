import Foundation

/// One budget an attempt counts against.
public struct LogInThrottleKey: Sendable, Hashable {
    /// Which budget: ``account``, ``client``, ``accountAndClient``, ``device``, ``signedIn`` or
    /// ``signUp``.
    public var scope: String
    /// The email, client key, or both; a device token's device; a user id.
    public var value: String
    /// Attempts allowed per window (at full speed, for a slowed key).
    public var limit: Int
    /// Nil: past the limit, refuse until the window closes. Set: past it, space attempts out.
    public var slowDown: ThrottleSlowDown?

    public static let account = "account"
    public static let client = "client"
    public static let accountAndClient = "account_client"
    public static let signUp = "sign_up"
    /// One device token's attempts (see ``DeviceToken``).
    public static let device = "device"
    /// The password changes of one account's sessions that send no device token.
    public static let signedIn = "signed_in"

    public init(scope: String, value: String, limit: Int, slowDown: ThrottleSlowDown? = nil) {
        self.scope = scope
        self.value = value
        self.limit = limit
        self.slowDown = slowDown
    }
}

/// Where log-in and sign-up attempts are counted. Implementations: `SQLLogInAttemptStore`, in
/// the database, so every process serving one database shares one budget;
/// `InMemoryLogInAttemptStore` for tests.
public protocol LogInAttemptStore: Sendable {
    /// Atomically: when any of `keys` refuses the attempt (a refusing key that has used its limit
    /// in its current window; a slowed key past its limit whose delay since its previous attempt
    /// has not passed), counts nothing and returns the longest wait; otherwise counts one attempt
    /// against every key (opening a new window where the last one closed) and returns nil.
    ///
    /// A refusal changes nothing, and a store that writes should find it without opening a write
    /// transaction: refused attempts come in floods, and must not queue on the writer the
    /// admitted ones (and everything else) need.
    func admit(_ keys: [LogInThrottleKey], at now: Date, window: TimeInterval) async throws(KeyCatError) -> TimeInterval?

    /// After a successful log-in: clears `cleared`'s count and takes one attempt back from each
    /// of `refunded`.
    func succeeded(clearing cleared: LogInThrottleKey, refunding refunded: [LogInThrottleKey], at now: Date) async throws(KeyCatError)
}
