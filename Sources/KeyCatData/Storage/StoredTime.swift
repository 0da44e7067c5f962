import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// How every table stores times: Unix milliseconds in an `INTEGER`.
enum StoredTime {
    static func value(_ date: Date) -> SQLValue { .integer(milliseconds(date)) }

    static func value(_ date: Date?) -> SQLValue { date.map(value) ?? .null }

    static func milliseconds(_ date: Date) -> Int64 { date.millisecondsSince1970 }

    static func date(_ milliseconds: Int64) -> Date { Date(millisecondsSince1970: milliseconds) }

    static func date(_ milliseconds: Int64?) -> Date? { milliseconds.map(date) }

    /// `date` as the store gives it back: to the millisecond.
    static func stored(_ date: Date) -> Date { self.date(milliseconds(date)) }
}
