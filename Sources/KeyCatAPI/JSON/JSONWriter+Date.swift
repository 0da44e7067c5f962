import Foundation

extension JSONWriter {
    /// A time as the API has always written it (`JSONEncoder`'s `.iso8601`): RFC 3339's
    /// `2026-11-23T16:12:28Z`, in UTC, whole seconds (a fraction is dropped, towards the past).
    /// https://www.rfc-editor.org/rfc/rfc3339#section-5.6
    ///
    /// Years 1601 to 9999 are written here in the Gregorian calendar. A time outside them (which
    /// no listing has) goes through Foundation's formatter so that it reads as it did: Foundation
    /// counts days before the Gregorian reform of 1582 in the Julian calendar, and years past
    /// 9999 in five digits.
    mutating func write(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= Self.firstSecond, seconds < Self.endSecond else {
            return write(date.formatted(.iso8601))
        }
        let total = Int64(seconds)
        let (days, secondOfDay) = Self.floorDivide(total, by: 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        reserve(23)
        separate()
        put(UInt8(ascii: "\""))
        appendTwoDigits(year / 100)
        appendTwoDigits(year % 100)
        put(UInt8(ascii: "-"))
        appendTwoDigits(month)
        put(UInt8(ascii: "-"))
        appendTwoDigits(day)
        put(UInt8(ascii: "T"))
        appendTwoDigits(Int(secondOfDay / 3600))
        put(UInt8(ascii: ":"))
        appendTwoDigits(Int(secondOfDay / 60 % 60))
        put(UInt8(ascii: ":"))
        appendTwoDigits(Int(secondOfDay % 60))
        put(UInt8(ascii: "Z"))
        put(UInt8(ascii: "\""))
    }

    /// 1601-01-01T00:00:00Z and 10000-01-01T00:00:00Z in seconds since 1970.
    static let firstSecond: Double = -11_644_473_600
    static let endSecond: Double = 253_402_300_800

    /// `value` (0...99) in two decimal digits, in room made by ``reserve(_:)``.
    @inline(__always)
    private mutating func appendTwoDigits(_ value: Int) {
        put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    private static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01: the days-to-civil
    /// algorithm of Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms", which
    /// counts in 400-year eras starting on March 1st so that leap days fall at the end.
    /// https://howardhinnant.github.io/date_algorithms.html#civil_from_days
    static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1st
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0...11
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
