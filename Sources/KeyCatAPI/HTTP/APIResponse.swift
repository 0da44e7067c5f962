import Foundation
import KeyCat

/// One HTTP answer as plain values: what ``KeyCatAPI/respond(to:)`` returns for the framework to
/// write out.
public struct APIResponse: Sendable, Hashable {
    public var status: Int
    public var headers: APIHeaders
    public var body: [UInt8]

    public init(status: Int, headers: APIHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer: `value` encoded with snake_case keys, sorted, dates in ISO 8601.
    static func json<Body: Encodable>(_ value: Body, status: Int = 200) -> APIResponse {
        do {
            let data = try JSONEncoder.keycat.encode(value)
            return APIResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(data))
        } catch {
            // The bodies are plain structs of strings, numbers and dates: encoding cannot fail.
            return APIResponse.error(KeyCatError(.internalError, "the answer could not be encoded"))
        }
    }

    /// 204 No Content.
    static let noContent = APIResponse(status: 204)

    /// This answer with `Location: path`: where a 201's new resource is (RFC 9110 §15.3.2),
    /// so a client does not take it to be the URI it posted to.
    func located(at path: String) -> APIResponse {
        var answer = self
        answer.headers["Location"] = path
        return answer
    }

    /// The answer for any error a handler threw: ``HTTPErrorResponse``'s status, headers and body.
    static func error(_ error: any Error, profile: HTTPStatusProfile = .standard) -> APIResponse {
        let answer = HTTPErrorResponse(error, profile: profile)
        var headers = APIHeaders()
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        return APIResponse(status: answer.status, headers: headers, body: Array(answer.body))
    }
}
