import Foundation
import KeyCatInfrastructure
import Testing
@testable import KeyCatPGSimulator

/// Sends JSON to the simulator in process and reads the envelope back.
struct SimulatorClient {
    let simulator: PGSimulator
    var token: String?

    mutating func authenticate() async throws {
        let answer = try await send(.post, "/users/getToken", ["imp_key": "imp_test_key", "imp_secret": "imp_test_secret_do_not_log"])
        token = (answer.json["response"] as? [String: Any])?["access_token"] as? String
    }

    func send(_ method: TransportMethod, _ path: String, _ body: [String: Any]? = nil, headers: [String: String] = [:])
        async throws -> (status: Int, json: [String: Any], response: TransportResponse)
    {
        var request = TransportRequest(method: method, path: path, headers: headers)
        if let token { request.headers["Authorization"] = "Bearer \(token)" }
        // Sorted keys: two encodings of one dictionary are the same bytes.
        if let body { request.body = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) }
        let response = try await simulator.handle(request, timeout: .seconds(5))
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, json, response)
    }
}

extension SimulatorClient {
    /// Sends `fields` as an `application/x-www-form-urlencoded` body, as `iamporter` does.
    func sendForm(_ path: String, _ fields: [(String, String)]) async throws -> (status: Int, json: [String: Any]) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        var request = TransportRequest(method: .post, path: path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                       body: Data(body.utf8))
        if let token { request.headers["Authorization"] = token }  // bare, as v1's clients send it
        let response = try await simulator.handle(request, timeout: .seconds(5))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }
}

/// A sleeper that returns at once.
struct NoSleep: Sleeper {
    func sleep(for duration: Duration) async {}
}
