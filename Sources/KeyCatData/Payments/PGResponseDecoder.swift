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

    /// `Retry-After` in seconds (the delta-seconds form; an HTTP date is ignored).
    static func retryAfterSeconds(_ response: TransportResponse) -> Int? {
        response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
    }

    private static func errorBody(_ response: TransportResponse) -> PGErrorBody? {
        try? JSONDecoder().decode(PGErrorBody.self, from: response.body)
    }
}
