import Foundation

/// The policy applied to one store: what ``AccountService/logIn(email:password:client:deviceToken:)``
/// and ``AccountService/changePassword(current:new:by:client:deviceToken:)`` ask.
public struct LogInThrottle: Sendable {
    public let policy: LogInThrottlePolicy
    let store: any LogInAttemptStore
    /// Issues and checks device tokens; nil hands none out and honours none.
    let devices: (any DeviceTokenCodec)?

    /// - Parameter devices: the device tokens' codec; without one, every log-in is a stranger's.
    public init(policy: LogInThrottlePolicy, store: any LogInAttemptStore, devices: (any DeviceTokenCodec)? = nil) {
        self.policy = policy
        self.store = store
        self.devices = devices
    }

    /// The budgets one admitted attempt was counted against: ``own`` is cleared by a success,
    /// ``shared`` each get their attempt back.
    struct Admission: Sendable {
        let own: LogInThrottleKey
        let shared: [LogInThrottleKey]
    }

    /// The device token presented with an attempt for `email`, when it is genuine and unexpired:
    /// checked without storage. Whether it counts is up to the account's version
    /// (``logInBudgets(email:client:device:account:)``).
    func presentedDevice(_ token: String?, for email: String, at now: Date) -> PresentedDevice? {
        guard let token, let devices else { return nil }
        return devices.device(of: token, for: email, at: now)
    }

    /// The budgets a log-in with `email` (already case-folded) from `client` counts against: the
    /// device token's alone when `device` was issued to `account` (nil: no such account) at its
    /// version now, else the strangers' ones. Without a client (a caller that cannot
    /// name one), the pair is the email with no client.
    func logInBudgets(email: String, client: String?, device presented: PresentedDevice?, account: User?) -> Admission {
        if let account, let device = budget(of: presented, for: account.id, at: account.tokenVersion) {
            return Admission(own: device, shared: [])
        }
        let client = client.map(ThrottleClient.key(for:))
        let pair = LogInThrottleKey(scope: LogInThrottleKey.accountAndClient, value: "\(email)\u{0}\(client ?? "")",
                                    limit: policy.attemptsPerAccountAndClient)
        let account = LogInThrottleKey(
            scope: LogInThrottleKey.account, value: email, limit: policy.attemptsPerAccount,
            slowDown: ThrottleSlowDown(firstDelay: policy.firstDelay, maximumDelay: policy.maximumDelay))
        return Admission(own: pair, shared: [account] + clientBudget(client))
    }

    /// The budgets a password change by `user` (signed in, with `email`, at `accountVersion`)
    /// counts against: its device token's when valid for that version, else the account's
    /// signed-in budget and the client's. Never the account's slow-down, which strangers' log-ins
    /// fill.
    func passwordChangeBudgets(email: String, user: UserID, accountVersion: Int64, client: String?, deviceToken: String?,
                               at now: Date) -> Admission {
        if let device = budget(of: presentedDevice(deviceToken, for: email, at: now), for: user, at: accountVersion) {
            return Admission(own: device, shared: [])
        }
        let signedIn = LogInThrottleKey(scope: LogInThrottleKey.signedIn, value: String(user.rawValue), limit: policy.attemptsPerDevice)
        return Admission(own: signedIn, shared: clientBudget(client.map(ThrottleClient.key(for:))))
    }

    private func clientBudget(_ client: String?) -> [LogInThrottleKey] {
        client.map { [LogInThrottleKey(scope: LogInThrottleKey.client, value: $0, limit: policy.attemptsPerClient)] } ?? []
    }

    /// The budget of `device` when it was issued to `account` at its version `accountVersion`.
    private func budget(of device: PresentedDevice?, for account: UserID, at accountVersion: Int64) -> LogInThrottleKey? {
        guard let device, device.account == account, device.accountVersion == accountVersion else { return nil }
        return LogInThrottleKey(scope: LogInThrottleKey.device, value: device.id, limit: policy.attemptsPerDevice)
    }

    /// Counts an attempt against `budgets`, or refuses it, counting nothing.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` (429) with `retry_after` in whole seconds.
    func admit(_ budgets: Admission, at now: Date) async throws(KeyCatError) {
        guard let wait = try await store.admit([budgets.own] + budgets.shared, at: now, window: policy.window) else { return }
        throw Self.refusal(wait, "too many failed attempts")
    }

    /// After the right password: clears the attempt's own budget and gives the attempt back to
    /// the shared ones.
    func succeeded(_ budgets: Admission, at now: Date) async throws(KeyCatError) {
        try await store.succeeded(clearing: budgets.own, refunding: budgets.shared, at: now)
    }

    /// A new device token for `email` of `account`, at its version now, or nil without a codec.
    func deviceToken(for email: String, account: User, at now: Date) throws(KeyCatError) -> DeviceToken? {
        try devices?.issue(for: email, account: account.id, accountVersion: account.tokenVersion,
                           expiresAt: now.addingTimeInterval(policy.deviceTokenLifetime))
    }

    /// The 429 for a wait of `wait` seconds, rounded up to a whole second.
    static func refusal(_ wait: TimeInterval, _ what: String) -> KeyCatError {
        let seconds = max(1, Int(wait.rounded(.up)))
        return KeyCatError(.rateLimited, "\(what); try again in \(seconds) s", context: ["retry_after": String(seconds)])
    }
}

/// The sign-up policy applied to one store.
public struct SignUpThrottle: Sendable {
    public let policy: SignUpThrottlePolicy
    let store: any LogInAttemptStore

    public init(policy: SignUpThrottlePolicy, store: any LogInAttemptStore) {
        self.policy = policy
        self.store = store
    }

    /// Counts a sign-up from `client` (IPv6 addresses by their /64, see ``ThrottleClient``), or
    /// refuses it. A caller that names no client is not counted.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` (429) with `retry_after`.
    func admit(client: String?, at now: Date) async throws(KeyCatError) {
        guard let client else { return }
        let key = LogInThrottleKey(scope: LogInThrottleKey.signUp, value: ThrottleClient.key(for: client),
                                   limit: policy.attemptsPerClient)
        guard let wait = try await store.admit([key], at: now, window: policy.window) else { return }
        throw LogInThrottle.refusal(wait, "too many sign-ups from this client")
    }
}
