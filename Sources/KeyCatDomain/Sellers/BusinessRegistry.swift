import Foundation

/// A business's standing with the National Tax Service, as its status API reports it.
public enum BusinessStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// 계속사업자, `b_stt_cd` "01".
    case active
    /// 휴업자, `b_stt_cd` "02".
    case suspended
    /// 폐업자, `b_stt_cd` "03".
    case closed
    /// Not registered with the tax service (the API answers with an empty code).
    case unregistered

    /// Maps the tax service's `b_stt_cd`: "01", "02", "03"; anything else (usually "") is
    /// unregistered.
    public init(taxServiceCode code: String) {
        switch code.trimmingCharacters(in: .whitespaces) {
        case "01": self = .active
        case "02": self = .suspended
        case "03": self = .closed
        default: self = .unregistered
        }
    }

    /// The tax service's `b_stt_cd`, empty for unregistered.
    public var taxServiceCode: String {
        switch self {
        case .active: "01"
        case .suspended: "02"
        case .closed: "03"
        case .unregistered: ""
        }
    }

    /// Why a business in this state cannot sell, or nil when it can.
    public var rejectionReason: String? {
        switch self {
        case .active: nil
        case .suspended: "the business is suspended (휴업자) according to the business registry"
        case .closed: "the business is closed (폐업자) according to the business registry"
        case .unregistered: "the business registration number is not registered with the tax service"
        }
    }
}

/// One line of the business registry an operator loads.
public struct BusinessRegistryEntry: Sendable, Hashable {
    public var number: BusinessRegistrationNumber
    public var status: BusinessStatus
    /// The representative's name and the opening date on the business's registration, when the
    /// registry keeps them: an application must then give the same (``BusinessRegistry/confirms(_:representativeName:openingDate:)``).
    public var representativeName: String?
    public var openingDate: CalendarDate?

    public init(number: BusinessRegistrationNumber, status: BusinessStatus, representativeName: String? = nil,
                openingDate: CalendarDate? = nil) {
        self.number = number
        self.status = status
        self.representativeName = representativeName
        self.openingDate = openingDate
    }

    /// Whether an applicant's name and opening date are this registration's, as the tax
    /// service's 진위확인 compares them: the same date, and the same name once both are in NFC,
    /// without spaces and with Latin letters in lower case. Nil when the entry keeps neither.
    public func confirms(representativeName name: String, openingDate date: CalendarDate) -> Bool? {
        guard representativeName != nil || openingDate != nil else { return nil }
        func key(_ text: String) -> String {
            text.precomposedStringWithCanonicalMapping.filter { !$0.isWhitespace }.lowercased()
        }
        return (representativeName.map { key($0) == key(name) } ?? true) && (openingDate.map { $0 == date } ?? true)
    }

    /// Why an application whose name or date the registry does not confirm is refused.
    public static let unconfirmedReason =
        "the representative's name or the opening date is not the business's in the business registry (진위확인)"
}

/// Tells the status of a business. Implementations: `SQLBusinessRegistry` (a table the
/// operator loads), `InMemoryBusinessRegistry`; a server may plug in the tax service's API,
/// which is why the call is `async`. An implementation suspends while it waits (an async HTTP
/// client, a store's own threads): the use cases run wherever their caller runs, so one that
/// blocks its thread holds one of the caller's.
public protocol BusinessRegistry: Sendable {
    /// The status of `number`; ``BusinessStatus/unregistered`` when the registry does not know it.
    func status(of number: BusinessRegistrationNumber) async throws(KeyCatError) -> BusinessStatus

    /// Whether the business registered as `number` has this representative and opening date
    /// (the tax service's 진위확인, `validate`); nil when the registry cannot tell. Applications
    /// the registry does not confirm are refused at once: anyone can read a shop's number off its
    /// page, and its owner should not find it held by someone else's approved application.
    func confirms(_ number: BusinessRegistrationNumber, representativeName: String, openingDate: CalendarDate)
        async throws(KeyCatError) -> Bool?
}

extension BusinessRegistry {
    /// A registry that knows statuses only cannot tell.
    public func confirms(_ number: BusinessRegistrationNumber, representativeName: String, openingDate: CalendarDate)
        async throws(KeyCatError) -> Bool? { nil }
}
