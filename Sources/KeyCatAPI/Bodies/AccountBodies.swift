import Foundation
import KeyCat

/// The JSON of an account as its owner (or an operator) sees it.
public struct UserBody: Encodable, Sendable, Hashable {
    public var id: Int64
    public var email: String
    public var nick: String
    public var phone: String?
    /// `YYYY-MM-DD`.
    public var birthday: String?
    public var profileImage: String?
    public var role: String
    public var createdAt: Date
    public var updatedAt: Date
    public var withdrawnAt: Date?
    /// When an operator suspended the account; absent unless it is suspended.
    public var suspendedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, email, nick, phone, birthday, profileImage = "profile_image", role
        case createdAt = "created_at", updatedAt = "updated_at", withdrawnAt = "withdrawn_at", suspendedAt = "suspended_at"
    }

    public init(_ user: User) {
        id = user.id.rawValue
        email = user.email
        nick = user.nick
        phone = user.phone
        birthday = user.birthday?.description
        profileImage = user.profileImage
        role = user.role.rawValue
        createdAt = user.createdAt
        updatedAt = user.updatedAt
        withdrawnAt = user.withdrawnAt
        suspendedAt = user.suspendedAt
    }
}

/// The JSON of a log-in or refresh: both tokens, when they expire, and who they are for.
/// Send the access token as `Authorization: Bearer …`; on 419 refresh, on 418 log in again.
/// A log-in or password change also returns a `device_token`: keep it (apart from the session,
/// past log-outs) and send it back as `device_token` with later log-ins to this account.
public struct TokenPairBody: Encodable, Sendable, Hashable {
    public var tokenType = "Bearer"
    public var accessToken: String
    public var accessTokenExpiresAt: Date
    public var refreshToken: String
    public var refreshTokenExpiresAt: Date
    public var userID: Int64
    public var role: String
    /// Left out of refreshes, and when log-in throttling is off.
    public var deviceToken: String?
    public var deviceTokenExpiresAt: Date?

    enum CodingKeys: String, CodingKey {
        case tokenType = "token_type", accessToken = "access_token", accessTokenExpiresAt = "access_token_expires_at"
        case refreshToken = "refresh_token", refreshTokenExpiresAt = "refresh_token_expires_at", userID = "user_id", role
        case deviceToken = "device_token", deviceTokenExpiresAt = "device_token_expires_at"
    }

    public init(_ pair: TokenPair) {
        accessToken = pair.accessToken
        accessTokenExpiresAt = pair.accessTokenExpiresAt
        refreshToken = pair.refreshToken
        refreshTokenExpiresAt = pair.refreshTokenExpiresAt
        userID = pair.principal.userID.rawValue
        role = pair.principal.role.rawValue
        deviceToken = pair.deviceToken?.token
        deviceTokenExpiresAt = pair.deviceToken?.expiresAt
    }
}

/// The JSON of a seller application.
public struct SellerApplicationBody: Encodable, Sendable, Hashable {
    public var id: Int64
    public var userID: Int64
    public var businessNumber: String
    public var representativeName: String
    /// `YYYY-MM-DD`.
    public var openingDate: String
    /// What the business registry reported: `active`, `suspended`, `closed`, `unregistered`.
    public var registryStatus: String
    public var status: String
    /// Why it was rejected.
    public var reason: String?
    public var createdAt: Date
    public var decidedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, userID = "user_id", businessNumber = "business_number", representativeName = "representative_name"
        case openingDate = "opening_date", registryStatus = "registry_status", status, reason
        case createdAt = "created_at", decidedAt = "decided_at"
    }

    public init(_ application: SellerApplication) {
        id = application.id.rawValue
        userID = application.userID.rawValue
        businessNumber = application.businessNumber.description
        representativeName = application.representativeName
        openingDate = application.openingDate.description
        registryStatus = application.registryStatus.rawValue
        status = application.status.rawValue
        reason = application.reason
        createdAt = application.createdAt
        decidedAt = application.decidedAt
    }
}
