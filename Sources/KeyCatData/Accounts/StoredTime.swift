import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// How account tables store times: Unix milliseconds in an `INTEGER`, like the audit log.
enum StoredTime {
    static func value(_ date: Date) -> SQLiteValue { .integer(milliseconds(date)) }

    static func value(_ date: Date?) -> SQLiteValue { date.map(value) ?? .null }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    static func date(_ milliseconds: Int64?) -> Date? { milliseconds.map(date) }
}
