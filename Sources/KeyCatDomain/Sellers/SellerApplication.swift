import Foundation

/// Identifies a seller application.
public struct SellerApplicationID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// Where a seller application stands. `pending → approved | rejected`, nothing else.
public enum SellerApplicationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case pending
    case approved
    case rejected
}

/// A buyer's request to sell (사업자 인증), and what became of it.
public struct SellerApplication: Sendable, Hashable, Identifiable {
    /// How many applications one user may file in any 24 hours, those the registry refused at
    /// once included: each is a row and, when refused, an event for every webhook endpoint, and
    /// a number the registry does not know is refused at once, so without a bound one account
    /// could file them without end.
    public static let dailyLimit = 5

    /// The refusal of a user's next application at `now`, given when their newest
    /// ``dailyLimit`` applications were filed (newest first); nil when they may file one.
    public static func dailyLimitReached(filed newest: [Date], at now: Date) -> KeyCatError? {
        let window: TimeInterval = 24 * 60 * 60
        guard newest.count >= dailyLimit, case let oldest = newest[dailyLimit - 1], oldest.addingTimeInterval(window) > now else {
            return nil
        }
        let seconds = max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
        return KeyCatError(.rateLimited, "\(dailyLimit) seller applications a day at most; try again in \(seconds) s",
                           context: ["retry_after": String(seconds)])
    }

    public let id: SellerApplicationID
    public var userID: UserID
    public var businessNumber: BusinessRegistrationNumber
    public var representativeName: String
    public var openingDate: CalendarDate
    /// What the business registry said when the application was made.
    public var registryStatus: BusinessStatus
    public var status: SellerApplicationStatus
    /// Why it was rejected (by the registry check or an operator).
    public var reason: String?
    public var createdAt: Date
    public var decidedAt: Date?
    /// Who decided: `"cli:root"`, `"admin:3"`, or `"system:business-registry"`.
    public var decidedBy: String?

    public init(
        id: SellerApplicationID, userID: UserID, businessNumber: BusinessRegistrationNumber,
        representativeName: String, openingDate: CalendarDate, registryStatus: BusinessStatus,
        status: SellerApplicationStatus, reason: String? = nil, createdAt: Date,
        decidedAt: Date? = nil, decidedBy: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.businessNumber = businessNumber
        self.representativeName = representativeName
        self.openingDate = openingDate
        self.registryStatus = registryStatus
        self.status = status
        self.reason = reason
        self.createdAt = createdAt
        self.decidedAt = decidedAt
        self.decidedBy = decidedBy
    }
}

/// What an applicant fills in.
public struct SellerApplicationForm: Sendable, Hashable {
    /// Ten digits, hyphens allowed.
    public var businessNumber: String
    /// The representative's name (대표자 성명), 1–50 characters.
    public var representativeName: String
    /// The business's opening date (개업일자), not in the future.
    public var openingDate: CalendarDate

    public init(businessNumber: String, representativeName: String, openingDate: CalendarDate) {
        self.businessNumber = businessNumber
        self.representativeName = representativeName
        self.openingDate = openingDate
    }
}

/// An operator's verdict on a pending application.
public enum SellerDecision: Sendable, Hashable {
    /// The applicant becomes a seller.
    case approve
    /// The applicant stays a buyer; the reason is kept and shown to them.
    case reject(reason: String)

    /// The reason given to every other pending application for a business number when one is
    /// approved: several people may apply with one number (the real owner beside someone who
    /// typed it first), the operator decides, and one business has one seller.
    public static let competitorApproved = "another application for this business number was approved"

    /// The reason given to an applicant's pending application when they withdraw: an operator
    /// could no longer approve it (``SellerService/approve(_:by:)`` refuses a withdrawn
    /// applicant), and it would wait in the queue for ever.
    public static let applicantWithdrew = "the applicant withdrew"
}
