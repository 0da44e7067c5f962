import Foundation

/// A device token: OWASP's *device cookie* ("Slow Down Online Guessing Attacks with Device
/// Cookies"), proof that a client logged in to an account before.
///
/// Every successful log-in (and password change) hands one out, bound to the account's email and
/// good for ``LogInThrottlePolicy/deviceTokenLifetime`` (90 days by default). A client that sends
/// it back with a later log-in for that email is no stranger: its attempt skips the budgets
/// strangers share — the account's slow-down, the client address's and the (email, address)
/// pair's — and counts against the token's own budget instead
/// (``LogInThrottlePolicy/attemptsPerDevice``), so guessers on many addresses cannot keep the
/// owner out. It grants nothing else: the password is still checked, and it is not a session.
public struct DeviceToken: Sendable, Hashable, CustomStringConvertible {
    /// The opaque token to send back with later log-ins.
    public let token: String
    /// When it stops being honoured.
    public let expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }

    public var description: String { "DeviceToken(<redacted>, expiresAt: \(expiresAt))" }
}

/// Issues and checks device tokens. Implementation: `HMACDeviceTokenCodec`.
///
/// A token must be unforgeable, bound to one email and carry its expiry; checking one must cost
/// no storage access (it happens before the attempt is counted).
public protocol DeviceTokenCodec: Sendable {
    /// A new token for `email` (already case-folded) that expires at `expiresAt`.
    func issue(for email: String, expiresAt: Date) throws(KeyCatError) -> DeviceToken

    /// The device `token` names — a value unique to that token, under which its attempts are
    /// counted — when it is genuine, was issued for `email` and has not expired at `now`; nil
    /// for anything else.
    func device(of token: String, for email: String, at now: Date) -> String?
}
