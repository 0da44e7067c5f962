/// How the gateway client reaches the PG and how hard it tries.
package struct PGClientConfiguration: Sendable {
    /// The PG's API key (`imp_key`).
    package var apiKey: String
    /// The PG's API secret (`imp_secret`). Never logged.
    package var apiSecret: String
    /// How long one request may take before it counts as timed out.
    package var requestTimeout: Duration = .seconds(10)
    /// How many times one call may send its request, the first time included. A 401 answered by
    /// a token refresh does not count against it.
    package var maxAttempts: Int = 4
    /// The whole call, retries and waits included, gives up after this long.
    package var deadline: Duration = .seconds(30)
    /// The first backoff after a 5xx or a timeout; it doubles each time, up to ``maxBackoff``.
    package var initialBackoff: Duration = .milliseconds(200)
    /// The longest backoff.
    package var maxBackoff: Duration = .seconds(5)
    /// A token this close to its expiry is replaced before use.
    package var tokenRefreshMargin: Duration = .seconds(60)
    /// Whether the PG takes real money, so that its test (sandbox) payments pay for nothing
    /// (``PaymentGateway/takesRealMoney``).
    package var takesRealMoney = false

    package init(apiKey: String, apiSecret: String) {
        self.apiKey = apiKey
        self.apiSecret = apiSecret
    }

    /// The backoff before retry number `retry` (1 for the first retry), with "equal jitter":
    /// half the exponential delay plus a random part of the other half (`jitter` in 0...1).
    package func backoff(beforeRetry retry: Int, jitter: Double) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let full = min(initialBackoff * (1 << exponent), maxBackoff)
        return full / 2 + full / 2 * min(max(jitter, 0), 1)
    }
}
