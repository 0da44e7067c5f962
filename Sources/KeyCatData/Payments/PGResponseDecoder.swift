import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Reads PG answers: the payload of a success, the domain error of a failure.
enum PGResponseDecoder {
    /// The envelope of a 2xx answer, whatever its `code`.
    ///
    /// - Throws: `invalidGatewayResponse` for a body that is not the envelope.
    static func envelope<Payload: Decodable>(_ type: Payload.Type, from response: TransportResponse) throws(KeyCatError) -> PGEnvelope<Payload> {
        do {
            return try JSONDecoder().decode(PGEnvelope<Payload>.self, from: response.body)
        } catch {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status, message: nil)
        }
    }

    /// The `response` of a 2xx envelope with `code` 0.
    ///
    /// - Throws: `invalidGatewayResponse` for a body that is not the envelope; the mapped refusal
    ///   for an envelope whose `code` is not 0 (v1's business refusals).
    static func payload<Payload: Decodable>(_ type: Payload.Type, from response: TransportResponse) throws(KeyCatError) -> Payload {
        try payload(of: envelope(type, from: response), status: response.status)
    }

    static func payload<Payload: Decodable>(of envelope: PGEnvelope<Payload>, status: Int) throws(KeyCatError) -> Payload {
        guard envelope.code == 0 else { throw PGErrorMapper.refusalError(code: envelope.code, message: envelope.message) }
        guard let payload = envelope.response else {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: status, message: "no response")
        }
        return payload
    }

    /// The mapping rule of an HTTP error answer.
    static func rule(for response: TransportResponse) -> PGErrorMapper.Rule {
        PGErrorMapper.rule(status: response.status)
    }

    /// The domain error of an HTTP error answer.
    static func error(for response: TransportResponse) -> KeyCatError {
        PGErrorMapper.error(
            for: PGErrorMapper.rule(status: response.status), status: response.status,
            message: errorBody(response)?.message, retryAfterSeconds: retryAfterSeconds(response))
    }

    /// `Retry-After` in whole seconds from `now`: delta-seconds, or an HTTP date (RFC 9110
    /// §10.2.3, any of its three forms) rounded up; nil when absent or neither.
    static func retryAfterSeconds(_ response: TransportResponse, now: Date = Date()) -> Int? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return max(0, seconds) }
        guard let date = httpDate(value, now: now) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An HTTP date (RFC 9110 §5.6.7) in any of the forms a recipient must read, read by hand:
    /// swift-corelibs' DateFormatter leaks a character set on every `date(from:)` on Linux (the
    /// fuzzer found it), and the forms are fixed. Weekdays are checked for their spelling, not
    /// against the date.
    ///
    /// - IMF-fixdate, the one senders use: `Sun, 06 Nov 1994 08:49:37 GMT`;
    /// - the obsolete RFC 850 form, `Sunday, 06-Nov-94 08:49:37 GMT`, its two-digit year in
    ///   `now`'s century unless that is more than 50 years after `now`'s year, then the century before;
    /// - the obsolete asctime form, `Sun Nov  6 08:49:37 1994` (a day under 10 after two spaces).
    static func httpDate(_ text: String, now: Date = Date()) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        switch parts.count {
        case 6 where parts[0].hasSuffix(","):
            guard weekdays.contains(String(parts[0].dropLast())), parts[1].count == 2, parts[3].count == 4, parts[5] == "GMT" else { return nil }
            return date(day: parts[1], month: parts[2], year: parts[3], clock: parts[4])
        case 4:
            let dayMonthYear = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts[0].hasSuffix(","), longWeekdays.contains(String(parts[0].dropLast())), parts[3] == "GMT", dayMonthYear.count == 3,
                  dayMonthYear[0].count == 2, dayMonthYear[2].count == 2, digits(dayMonthYear[2]), let twoDigits = Int(dayMonthYear[2]) else {
                return nil
            }
            // The year in `now`'s century, or the one before when that is more than 50 years ahead.
            let thisYear = 1970 + Int(now.timeIntervalSince1970 / (365.2425 * 86_400))
            let year = thisYear / 100 * 100 + twoDigits
            return date(day: dayMonthYear[0], month: dayMonthYear[1], year: Substring(String(year > thisYear + 50 ? year - 100 : year)),
                        clock: parts[2])
        case 5, 6:
            // `Sun Nov  6 …`: an empty part, then a one-digit day.
            let day = parts.count == 6 ? (parts[2].isEmpty && parts[3].count == 1 ? parts[3] : nil) : (parts[2].count == 2 ? parts[2] : nil)
            guard weekdays.contains(String(parts[0])), let day, parts[parts.count - 1].count == 4 else { return nil }
            return date(day: day, month: parts[1], year: parts[parts.count - 1], clock: parts[parts.count - 2])
        default:
            return nil
        }
    }

    /// Digits only: `Int` would also take a sign.
    private static func digits(_ text: Substring) -> Bool { text.utf8.allSatisfy { (0x30...0x39).contains($0) } }

    /// The time of a date in GMT from its parts' text (a month's English abbreviation, a clock
    /// of `hh:mm:ss`), nil when one is not a number or not on the calendar.
    private static func date(day dayText: Substring, month monthText: Substring, year yearText: Substring, clock clockText: Substring) -> Date? {
        let clock = clockText.split(separator: ":", omittingEmptySubsequences: false)
        guard let monthIndex = months.firstIndex(of: String(monthText)), digits(dayText), digits(yearText), clock.count == 3,
              clock.allSatisfy({ $0.count == 2 && digits($0) }), let day = Int(dayText), let year = Int(yearText),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]) else { return nil }
        let month = monthIndex + 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][monthIndex]
        guard (1...length).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func errorBody(_ response: TransportResponse) -> PGErrorBody? {
        try? JSONDecoder().decode(PGErrorBody.self, from: response.body)
    }
}
