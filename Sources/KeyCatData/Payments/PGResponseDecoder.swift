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
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = format.date(from: value) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    private static func errorBody(_ response: TransportResponse) -> PGErrorBody? {
        try? JSONDecoder().decode(PGErrorBody.self, from: response.body)
    }
}
