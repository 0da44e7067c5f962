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
        // Sorted keys: two encodings of one dictionary must be the same bytes, or the simulator
        // (rightly) takes a repeated Idempotency-Key for another request.
        if let body { request.body = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) }
        let response = try await simulator.handle(request, timeout: .seconds(5))
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, json, response)
    }
}

/// A sleeper that returns at once.
struct NoSleep: Sleeper {
    func sleep(for duration: Duration) async {}
}
