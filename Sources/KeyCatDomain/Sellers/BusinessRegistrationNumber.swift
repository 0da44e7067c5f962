import Foundation

/// A Korean business registration number (사업자등록번호): ten digits `XXX-XX-XXXXX` whose last
/// digit is a checksum of the first nine.
///
/// The check (National Tax Service): multiply the first nine digits by 1, 3, 7, 1, 3, 7, 1, 3, 5
/// and add the products; add the tens digit of (ninth digit × 5); the tenth digit must equal
/// `(10 − sum mod 10) mod 10`.
public struct BusinessRegistrationNumber: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    static let weights = [1, 3, 7, 1, 3, 7, 1, 3, 5]

    /// The ten digits, no hyphens.
    public let digits: String

    /// Parses ten digits, with or without the usual hyphens (`220-81-62517`).
    ///
    /// - Throws: a validation error on `business_number` for anything but ten digits, or for a
    ///   wrong checksum.
    public init(_ raw: String) throws(KeyCatError) {
        let compact = raw.trimmingCharacters(in: .whitespaces).filter { $0 != "-" }
        let values = compact.compactMap { $0.isASCII ? $0.wholeNumberValue : nil }
        guard compact.count == 10, values.count == 10 else {
            throw KeyCatError.validation("business_number", "a business registration number has 10 digits")
        }
        guard Self.checkDigit(of: values) == values[9] else {
            throw KeyCatError.validation("business_number", "the business registration number's check digit is wrong")
        }
        digits = compact
    }

    /// The check digit the first nine of `values` call for.
    static func checkDigit(of values: [Int]) -> Int {
        var sum = zip(values.prefix(9), weights).reduce(0) { $0 + $1.0 * $1.1 }
        sum += values[8] * 5 / 10
        return (10 - sum % 10) % 10
    }

    /// `"220-81-62517"`.
    public var formatted: String {
        let characters = Array(digits)
        return String(characters[0..<3]) + "-" + String(characters[3..<5]) + "-" + String(characters[5...])
    }

    public var description: String { formatted }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.digits < rhs.digits }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(digits)
    }
}
