import Foundation

/// The policy applied to one store: what ``AccountService/logIn(email:password:client:)`` and
/// ``AccountService/changePassword(current:new:by:client:)`` ask.
public struct LogInThrottle: Sendable {
    public let policy: LogInThrottlePolicy
    let store: any LogInAttemptStore

    public init(policy: LogInThrottlePolicy, store: any LogInAttemptStore) {
        self.policy = policy
        self.store = store
    }

    /// The budgets an attempt with `email` (already case-folded) from `client` counts against,
    /// an IPv6 client by its /64 (see ``ThrottleClient``). Without a client (a caller that cannot
    /// name one), the pair is the email with no client.
    func keys(email: String, client: String?) -> (pair: LogInThrottleKey, others: [LogInThrottleKey]) {
        let clientKey = client.map(ThrottleClient.key(for:))
        let pair = LogInThrottleKey(scope: LogInThrottleKey.accountAndClient, value: "\(email)\u{0}\(clientKey ?? "")",
                                    limit: policy.attemptsPerAccountAndClient)
        let account = LogInThrottleKey(
            scope: LogInThrottleKey.account, value: email, limit: policy.attemptsPerAccount,
            slowDown: ThrottleSlowDown(firstDelay: policy.firstDelay, maximumDelay: policy.maximumDelay))
        let client = clientKey.map { LogInThrottleKey(scope: LogInThrottleKey.client, value: $0, limit: policy.attemptsPerClient) }
        return (pair, [account] + (client.map { [$0] } ?? []))
    }

    /// Counts an attempt, or refuses it.
    ///
    /// - Throws: ``KeyCatError/Code/rateLimited`` (429) with `retry_after` in whole seconds.
    func admit(email: String, client: String?, at now: Date) async throws(KeyCatError) {
        let (pair, others) = keys(email: email, client: client)
        guard let wait = try await store.admit([pair] + others, at: now, window: policy.window) else { return }
        throw Self.refusal(wait, "too many failed attempts")
    }

    /// Clears the (account, client) count after a success and gives the attempt back to the
    /// account and the client.
    func succeeded(email: String, client: String?, at now: Date) async throws(KeyCatError) {
        let (pair, others) = keys(email: email, client: client)
        try await store.succeeded(clearing: pair, refunding: others, at: now)
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
