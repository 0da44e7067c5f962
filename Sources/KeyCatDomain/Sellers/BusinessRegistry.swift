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

    public init(number: BusinessRegistrationNumber, status: BusinessStatus) {
        self.number = number
        self.status = status
    }
}

/// Tells the status of a business. Implementations: `SQLBusinessRegistry` (a table the
/// operator loads), `InMemoryBusinessRegistry`; a server may plug in the tax service's API,
/// which is why the call is `async`. An implementation suspends while it waits (an async HTTP
/// client, a store's own threads): the use cases run wherever their caller runs, so one that
/// blocks its thread holds one of the caller's.
public protocol BusinessRegistry: Sendable {
    /// The status of `number`; ``BusinessStatus/unregistered`` when the registry does not know it.
    func status(of number: BusinessRegistrationNumber) async throws(KeyCatError) -> BusinessStatus
}
