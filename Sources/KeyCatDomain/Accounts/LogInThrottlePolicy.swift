import Foundation

/// How password guessing is throttled, at log-in, at `PUT /me/password` and at `POST /me/withdrawal`.
///
/// A log-in from a stranger — a client without a valid ``DeviceToken`` for the email — counts
/// against three budgets for the current window, before any password is hashed:
///
/// - **the account and the client together** (the case-folded email, whether or not an account
///   has it, and the key a server passes, usually the client's address, with IPv6 addresses
///   counted by their /64, see ``ThrottleClient``): over ``attemptsPerAccountAndClient`` that
///   client is refused until the window closes. This is the budget a guesser spends: ten wrong
///   passwords lock out the guesser's client, not the owner.
/// - **the client**, across every email: over ``attemptsPerClient`` it is refused until the
///   window closes (password spraying).
/// - **the account**, across every client: past ``attemptsPerAccount`` attempts are not refused
///   for the window but slowed down, each one waiting twice as long after the previous as the one
///   before (``firstDelay``, doubling up to ``maximumDelay``). Guessers on many addresses get a
///   few attempts a minute at most.
///
/// Guessers on many addresses can still take every slowed attempt the moment it opens, leaving
/// none to the owner. So a client that logged in to the account before, and sends back the
/// ``DeviceToken`` it was given, is no stranger (OWASP's device cookies): its attempt counts only
/// against that token's own budget, ``attemptsPerDevice`` per window, then refused until the
/// window closes; strangers' guessing never reaches it. A password change (whose caller is
/// signed in to the account) counts against its device token when it sends one, or else against
/// the account's signed-in budget (``attemptsPerDevice`` for all its sessions together) and the
/// client: never against the account's slow-down either.
///
/// A refusal is ``KeyCatError/Code/rateLimited`` with `retry_after`, identical for unknown and
/// known emails. A refused attempt counts against nothing — the refused client loses its
/// attempt, no one else's budget moves — and writes nothing. A success clears the budget it was
/// refused by first (the pair, the device, or the signed-in budget) and gives its attempt back to
/// the others. Windows are fixed: a key's window opens with its first attempt and lasts
/// ``window``.
public struct LogInThrottlePolicy: Sendable, Hashable {
    /// How long a counting window lasts.
    public var window: TimeInterval
    /// Attempts one client may make for one email per window; then refused.
    public var attemptsPerAccountAndClient: Int
    /// Attempts one client key may make per window, across all emails; then refused. Higher than
    /// the account's: several people may share an address.
    public var attemptsPerClient: Int
    /// Attempts one email may have per window, from every client, before they are slowed down.
    public var attemptsPerAccount: Int
    /// The wait before the first slowed attempt; each later one waits twice the one before.
    public var firstDelay: TimeInterval
    /// The longest wait between slowed attempts.
    public var maximumDelay: TimeInterval
    /// Attempts one device token may make per window (and, for password changes without one,
    /// the signed-in sessions of one account together); then refused.
    public var attemptsPerDevice: Int
    /// How long a device token handed out at log-in is honoured.
    public var deviceTokenLifetime: TimeInterval

    /// The default ``deviceTokenLifetime``: 90 days, so a client used every season stays known.
    public static let defaultDeviceTokenLifetime: TimeInterval = 90 * 24 * 60 * 60

    /// - Throws: ``KeyCatError/Code/validation`` unless the window is 1 s–1 day, every budget is
    ///   at least 1, the delays are 0.001 s–1 h with `firstDelay <= maximumDelay`, and device
    ///   tokens live between a minute and a year.
    public init(window: TimeInterval, attemptsPerAccountAndClient: Int, attemptsPerClient: Int, attemptsPerAccount: Int,
                firstDelay: TimeInterval = 1, maximumDelay: TimeInterval = 60, attemptsPerDevice: Int = 10,
                deviceTokenLifetime: TimeInterval = LogInThrottlePolicy.defaultDeviceTokenLifetime) throws(KeyCatError) {
        guard (1...86_400).contains(window) else {
            throw KeyCatError.validation("window", "a log-in throttling window lasts between 1 second and a day")
        }
        guard attemptsPerAccountAndClient >= 1, attemptsPerClient >= 1, attemptsPerAccount >= 1, attemptsPerDevice >= 1 else {
            throw KeyCatError.validation("attempts", "log-in throttling allows at least one attempt per window")
        }
        guard (0.001...3_600).contains(firstDelay), (0.001...3_600).contains(maximumDelay), firstDelay <= maximumDelay else {
            throw KeyCatError.validation("delay", "log-in slow-down delays are between 1 ms and an hour, the first no longer than the longest")
        }
        guard (60...(366 * 24 * 60 * 60)).contains(deviceTokenLifetime) else {
            throw KeyCatError.validation("device_token_lifetime", "a device token lives between a minute and a year")
        }
        self.window = window
        self.attemptsPerAccountAndClient = attemptsPerAccountAndClient
        self.attemptsPerClient = attemptsPerClient
        self.attemptsPerAccount = attemptsPerAccount
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.attemptsPerDevice = attemptsPerDevice
        self.deviceTokenLifetime = deviceTokenLifetime
    }

    /// Re-runs the initializer's checks on values that may have been changed since.
    public func validated() throws(KeyCatError) -> LogInThrottlePolicy {
        try LogInThrottlePolicy(
            window: window, attemptsPerAccountAndClient: attemptsPerAccountAndClient, attemptsPerClient: attemptsPerClient,
            attemptsPerAccount: attemptsPerAccount, firstDelay: firstDelay, maximumDelay: maximumDelay,
            attemptsPerDevice: attemptsPerDevice, deviceTokenLifetime: deviceTokenLifetime)
    }

    /// In 15 minutes: 10 attempts per email from one client, 100 per client, and 30 per email
    /// from everywhere before attempts on it are spaced 1, 2, 4 … 60 seconds apart; 10 per device
    /// token, which lives 90 days. A person who forgot a password never meets it; a guesser on one
    /// address gets 40 tries an hour per account, and guessers on many about one a minute, while
    /// the owner's known client logs in at once.
    public static let standard = try! LogInThrottlePolicy(
        window: 15 * 60, attemptsPerAccountAndClient: 10, attemptsPerClient: 100, attemptsPerAccount: 30)
}

/// How many accounts one client may sign up per window (then ``KeyCatError/Code/rateLimited``
/// until it closes). Counted in the same store as log-in attempts, after the form is validated
/// and before the password is hashed.
public struct SignUpThrottlePolicy: Sendable, Hashable {
    public var window: TimeInterval
    public var attemptsPerClient: Int

    /// - Throws: ``KeyCatError/Code/validation`` unless the window is 1 s–1 day and the budget at least 1.
    public init(window: TimeInterval, attemptsPerClient: Int) throws(KeyCatError) {
        guard (1...86_400).contains(window) else {
            throw KeyCatError.validation("window", "a sign-up throttling window lasts between 1 second and a day")
        }
        guard attemptsPerClient >= 1 else {
            throw KeyCatError.validation("attempts", "sign-up throttling allows at least one sign-up per window")
        }
        self.window = window
        self.attemptsPerClient = attemptsPerClient
    }

    /// 20 sign-ups per client an hour: a household or an office never meets it, a script
    /// making accounts (or probing which emails exist) does.
    public static let standard = try! SignUpThrottlePolicy(window: 3_600, attemptsPerClient: 20)
}

/// How a budget treats attempts past its limit: refused until the window closes, or slowed down.
public struct ThrottleSlowDown: Sendable, Hashable {
    public var firstDelay: TimeInterval
    public var maximumDelay: TimeInterval

    public init(firstDelay: TimeInterval, maximumDelay: TimeInterval) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after the previous attempt before the `excess`-th attempt past the limit
    /// (1 for the first): `firstDelay × 2^(excess − 1)`, at most `maximumDelay`.
    public func delay(excess: Int) -> TimeInterval {
        guard excess > 0 else { return 0 }
        return min(firstDelay * pow(2, Double(min(excess - 1, 40))), maximumDelay)
    }
}
