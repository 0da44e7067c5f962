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
    /// §10.2.3, IMF-fixdate) rounded up; nil when absent or neither.
    static func retryAfterSeconds(_ response: TransportResponse, now: Date = Date()) -> Int? {
        guard let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return max(0, seconds) }
        guard let date = imfFixdate(value) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7), read by hand: swift-corelibs'
    /// DateFormatter leaks a character set on every `date(from:)` on Linux (the fuzzer found it),
    /// and the format is fixed. The weekday is checked for its spelling, not against the date.
    static func imfFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), weekdays.contains(String(parts[0].dropLast())),
              parts[1].count == 2, let day = Int(parts[1]), let monthIndex = months.firstIndex(of: parts[2]),
              parts[3].count == 4, let year = Int(parts[3]), parts[5] == "GMT" else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        // Digits only: `Int` would also take a sign.
        let digits = { (text: Substring) in text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && digits($0) }), digits(Substring(parts[1])), digits(Substring(parts[3])),
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
