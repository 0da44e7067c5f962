import Foundation

/// How many log-ins may fail before KeyCat stops checking passwords for a while.
///
/// Every attempt is counted against two budgets for the current window: the **account** (the
/// case-folded email, whether or not an account has it, so an unknown email is throttled exactly
/// like a real one) and the **client** (the key a server passes, usually the client's address).
/// An attempt over either budget is refused with ``KeyCatError/Code/rateLimited`` before any
/// password is hashed, so a flood of guesses burns no PBKDF2 time. A successful log-in clears its
/// account's count and gives its attempt back to the client.
///
/// The windows are fixed: a key's window opens with its first attempt and lasts ``window``; the
/// refusal's `retry_after` is the time until it closes.
public struct LogInThrottlePolicy: Sendable, Hashable {
    /// How long a counting window lasts.
    public var window: TimeInterval
    /// Attempts one email may make per window.
    public var attemptsPerAccount: Int
    /// Attempts one client key may make per window, across all emails. Higher than the
    /// account's: several people may share an address.
    public var attemptsPerClient: Int

    /// - Throws: ``KeyCatError/Code/validation`` unless the window is 1 s–1 day and both budgets
    ///   are at least 1.
    public init(window: TimeInterval, attemptsPerAccount: Int, attemptsPerClient: Int) throws(KeyCatError) {
        guard (1...86_400).contains(window) else {
            throw KeyCatError.validation("window", "a log-in throttling window lasts between 1 second and a day")
        }
        guard attemptsPerAccount >= 1, attemptsPerClient >= 1 else {
            throw KeyCatError.validation("attempts", "log-in throttling allows at least one attempt per window")
        }
        self.window = window
        self.attemptsPerAccount = attemptsPerAccount
        self.attemptsPerClient = attemptsPerClient
    }

    /// 10 attempts per email and 100 per client in 15 minutes: a person who forgot a password
    /// never meets it, a guesser gets 40 tries an hour per account.
    public static let standard = try! LogInThrottlePolicy(window: 15 * 60, attemptsPerAccount: 10, attemptsPerClient: 100)
}

/// One budget an attempt counts against.
public struct LogInThrottleKey: Sendable, Hashable {
    /// Which budget: ``account`` or ``client``.
    public var scope: String
    /// The email or client key.
    public var value: String
    /// Attempts allowed per window.
    public var limit: Int

    public static let account = "account"
    public static let client = "client"

    public init(scope: String, value: String, limit: Int) {
        self.scope = scope
        self.value = value
        self.limit = limit
    }
}

/// Where log-in attempts are counted. Implementation: `SQLiteLogInAttemptStore`, in the
/// database, so every process serving one database shares one budget.
public protocol LogInAttemptStore: Sendable {
    /// Atomically: when any of `keys` has used its limit in its current window, counts nothing
    /// and returns the time until the latest of those windows closes; otherwise counts one
    /// attempt against every key (opening a new window where the last one closed) and returns nil.
    func admit(_ keys: [LogInThrottleKey], at now: Date, window: TimeInterval) throws(KeyCatError) -> TimeInterval?

    /// After a successful log-in: clears `cleared`'s count and takes one attempt back from each
    /// of `refunded`.
    func succeeded(clearing cleared: LogInThrottleKey, refunding refunded: [LogInThrottleKey], at now: Date) throws(KeyCatError)
}

/// The policy applied to one store: what ``AccountService/logIn(email:password:client:)`` asks.
public struct LogInThrottle: Sendable {
    public let policy: LogInThrottlePolicy
    let store: any LogInAttemptStore

    public init(policy: LogInThrottlePolicy, store: any LogInAttemptStore) {
        self.policy = policy
        self.store = store
    }

    /// The budgets an attempt with `email` (already case-folded) from `client` counts against.
    func keys(email: String, client: String?) -> (account: LogInThrottleKey, client: LogInThrottleKey?) {
        let account = LogInThrottleKey(scope: LogInThrottleKey.account, value: email, limit: policy.attemptsPerAccount)
        let client = client.map { LogInThrottleKey(scope: LogInThrottleKey.client, value: $0, limit: policy.attemptsPerClient) }
        return (account, client)
    }

    /// Counts an attempt, or refuses it.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` (429) with `retry_after` in whole seconds.
    func admit(email: String, client: String?, at now: Date) throws(KeyCatError) {
        let (account, client) = keys(email: email, client: client)
        guard let wait = try store.admit([account] + (client.map { [$0] } ?? []), at: now, window: policy.window) else { return }
        let seconds = max(1, Int(wait.rounded(.up)))
        throw KeyCatError(.rateLimited, "too many failed log-ins; try again in \(seconds) s",
                          context: ["retry_after": String(seconds)])
    }

    /// Clears the account's count after a successful log-in and gives the client its attempt back.
    func succeeded(email: String, client: String?, at now: Date) throws(KeyCatError) {
        let (account, client) = keys(email: email, client: client)
        try store.succeeded(clearing: account, refunding: client.map { [$0] } ?? [], at: now)
    }
}
