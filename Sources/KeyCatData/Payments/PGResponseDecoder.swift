import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Reads PG answers: the payload of a success, the domain error of a failure.
enum PGResponseDecoder {
    /// The `response` of a 2xx envelope with `code` 0.
    ///
    /// - Throws: `invalidGatewayResponse` for a body that is not the envelope; the mapped error
    ///   for an envelope whose `code` is not 0 (PortOne v1 sometimes answers 200 with one).
    static func payload<Payload: Decodable>(_ type: Payload.Type, from response: TransportResponse) throws(KeyCatError) -> Payload {
        let envelope: PGEnvelope<Payload>
        do {
            envelope = try JSONDecoder().decode(PGEnvelope<Payload>.self, from: response.body)
        } catch {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status, type: nil, message: nil)
        }
        guard envelope.code == 0 else {
            let rule = PGErrorMapper.rule(status: 400, type: envelope.type ?? "INVALID_REQUEST")
            throw PGErrorMapper.error(for: rule, status: response.status, type: envelope.type, message: envelope.message)
        }
        guard let payload = envelope.response else {
            throw PGErrorMapper.error(for: PGErrorMapper.malformed, status: response.status, type: nil, message: "no response")
        }
        return payload
    }

    /// The mapping rule of an error answer.
    static func rule(for response: TransportResponse) -> PGErrorMapper.Rule {
        PGErrorMapper.rule(status: response.status, type: errorBody(response)?.type)
    }

    /// The domain error of an error answer.
    static func error(for response: TransportResponse) -> KeyCatError {
        let body = errorBody(response)
        return PGErrorMapper.error(
            for: PGErrorMapper.rule(status: response.status, type: body?.type), status: response.status,
            type: body?.type, message: body?.message, retryAfterSeconds: retryAfterSeconds(response))
    }

    /// `Retry-After` in seconds (the delta-seconds form; an HTTP date is ignored).
    static func retryAfterSeconds(_ response: TransportResponse) -> Int? {
        response.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
    }

    private static func errorBody(_ response: TransportResponse) -> PGErrorBody? {
        try? JSONDecoder().decode(PGErrorBody.self, from: response.body)
    }
}
