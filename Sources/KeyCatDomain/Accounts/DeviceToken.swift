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

/// A device token as presented: genuine, for the email, unexpired. It counts only for the account
/// ``account`` while that account is still at ``accountVersion``.
public struct PresentedDevice: Sendable, Hashable {
    /// A value unique to the token, under which its attempts are counted.
    public var id: String
    /// The account's token version when it was issued: a password change, reset, suspension,
    /// withdrawal or role change moves the version, and the token then counts for nothing, so
    /// someone who once had the password cannot keep guessing the new one outside the
    /// strangers' budgets, however many tokens they collected.
    public var accountVersion: Int64
    /// The account it was issued to. An email freed by a withdrawal may name a new account, at
    /// the version a new account starts at: a token of the old one is not the new one's (until
    /// 2026-12-01 it was, and someone who signed up with another's email, collected tokens and
    /// withdrew could guess at the rightful owner's later account outside the strangers' budgets).
    public var account: UserID

    public init(id: String, account: UserID, accountVersion: Int64) {
        self.id = id
        self.account = account
        self.accountVersion = accountVersion
    }
}

/// Issues and checks device tokens. Implementation: `HMACDeviceTokenCodec`.
///
/// A token must be unforgeable, bound to one email and one version of the account, and carry
/// its expiry; checking one must cost no storage access (junk is refused before anything is
/// read; a genuine token's version is then compared with the account's, read with it).
public protocol DeviceTokenCodec: Sendable {
    /// A new token for `email` (already case-folded) of `account`, which is at `accountVersion`,
    /// that expires at `expiresAt`.
    func issue(for email: String, account: UserID, accountVersion: Int64, expiresAt: Date) throws(KeyCatError) -> DeviceToken

    /// The device `token` names when it is genuine, was issued for `email` and has not expired at
    /// `now`; nil for anything else.
    func device(of token: String, for email: String, at now: Date) -> PresentedDevice?
}
