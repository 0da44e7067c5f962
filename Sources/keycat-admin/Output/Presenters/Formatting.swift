import Foundation
import KeyCat

/// Small shared formatting for human and JSON output.
enum Formatting {
    /// `2026-01-01T09:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
    }

    static func timestamp(_ date: Date?) -> JSONValue { date.map { .string(timestamp($0)) } ?? .null }

    /// `129,000`.
    static func won(_ money: Money) -> String { String(money.description.dropFirst(money.won < 0 ? 2 : 1)) }
}
