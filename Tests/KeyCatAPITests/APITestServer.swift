import Foundation
import KeyCat
import KeyCatAPI
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// KeyCatAPI over a fresh KeyCat (a file in a temporary directory, or a Postgres schema), with a test clock, cheap password
/// hashing and the PG simulator beside the database delivering its webhooks to the API's own
/// webhook route. Closed and removed after the body.
struct APITestServer {
    let api: KeyCatAPI
    let clock: TestClock
    var keycat: KeyCat { api.keycat }
    var simulator: PGSimulator { keycat.paymentSimulator! }

    /// - Parameter store: where the rows live: a file beside the images, or a fresh Postgres
    ///   schema of its own.
    static func with<Result>(
        _ store: TestStore = .sqlite, _ body: (APITestServer) async throws -> Result
    ) async throws -> Result {
        guard store == .postgres else { return try await with(postgresURL: nil, body) }
        return try await withPostgresSchema { postgres in try await with(postgresURL: try postgres.schemaURL(), body) }
    }

    private static func with<Result>(
        postgresURL: String?, _ body: (APITestServer) async throws -> Result
    ) async throws -> Result {
        try await withTemporaryDirectory { directory async throws in
            let clock = TestClock()
            let path = directory.appendingPathComponent("api.db").path
            var configuration = KeyCat.Configuration(postgresURL.map { .postgres(url: $0, filesBeside: path) } ?? .sqlite(path: path))
            configuration.clock = clock
            configuration.passwordIterations = 1_000
            configuration.gatewayLog = DiscardingLogSink()
            configuration.gatewayInitialBackoff = .milliseconds(1)
            let keycat = try await KeyCat.open(configuration)
            defer { keycat.close() }
            let server = APITestServer(api: KeyCatAPI(keycat), clock: clock)
            server.simulator.registerWebhookReceiver(InProcessTransport(APIHandler(api: server.api)), path: "/webhooks/pg")
            return try await body(server)
        }
    }

    /// Sends one request from `client`; `json` is encoded as the body with `Content-Type: application/json`.
    @discardableResult
    func send(_ method: String, _ target: String, json: Any? = nil, token: String? = nil,
              headers: APIHeaders = [:], client: String = "203.0.113.7") async throws -> Answer {
        var headers = headers
        var body: [UInt8] = []
        if let json {
            body = Array(try JSONSerialization.data(withJSONObject: json))
            if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let response = await api.respond(to: APIRequest(method: APIMethod(method), target: target, headers: headers, body: body,
                                                        clientAddress: client))
        let answer = Answer(response: response)
        // Every body a client sees is snake_case JSON, whatever the route.
        if !response.body.isEmpty, response.status != 200 || !(target.hasPrefix("/webhooks") || target.hasPrefix("/images")) {
            #expect(response.headers["Content-Type"] == "application/json", "\(method) \(target)")
            let keys = Self.keys(in: answer.json as Any)
            #expect(keys.filter { !$0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" } }.isEmpty,
                    "\(method) \(target) answered keys that are not snake_case: \(keys.sorted())")
        }
        return answer
    }

    /// Every object key in a parsed JSON value.
    static func keys(in value: Any) -> Set<String> {
        switch value {
        case let object as [String: Any]: Set(object.keys).union(object.values.flatMap { keys(in: $0) })
        case let array as [Any]: Set(array.flatMap { keys(in: $0) })
        default: []
        }
    }

    /// Returns once the catalog cache can keep answers: at once on SQLite; on Postgres once the
    /// listener the first catalog read started is listening (at most 30 seconds, a bound for a
    /// hung test).
    func catalogCacheReady() async throws {
        let deadline = Date().addingTimeInterval(30)
        while try await keycat.catalogVersion() == nil {
            try #require(Date() < deadline, "the catalog version is still nil after 30 seconds")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A user made by the operators' console with `role`, logged in through the API.
    func signedIn(_ role: Role, _ name: String) async throws -> (id: Int64, token: String) {
        let user = try await keycat.accounts.createUser(
            SignUpForm(email: "\(name)@example.com", password: "keycat123", nick: name), role: role,
            by: .operatorConsole("tests"))
        let answer = try await send("POST", "/sessions", json: ["email": "\(name)@example.com", "password": "keycat123"])
        try #require(answer.status == 200, "\(answer)")
        return (user.id.rawValue, try #require(answer["access_token"] as? String))
    }

    /// A listing by a new seller through the API.
    func product(price: Int = 50_000, stock: Int = 10, title: String = "Felt F99 유무선 기계식 키보드",
                 seller: String? = nil) async throws -> Int64 {
        let seller = try await signedIn(.seller, seller ?? "seller\(UUID().uuidString.prefix(6))")
        let answer = try await send("POST", "/products", json: Self.productJSON(price: price, stock: stock, title: title),
                                    token: seller.token)
        try #require(answer.status == 201, "\(answer)")
        return try #require(answer["id"] as? Int64 ?? (answer["id"] as? Int).map(Int64.init))
    }

    static func productJSON(price: Int = 50_000, stock: Int = 10, title: String = "Felt F99 유무선 기계식 키보드") -> [String: Any] {
        ["kind": "commercial", "category": "keyboard", "title": title, "content": "가스켓 마운트, 핫스왑 PCB.",
         "regular_price": price + 10_000, "price": price, "delivery_fee": 3_000, "delivery_schedule": "next_day", "stock": stock,
         "spec": ["switch_type": "linear", "layout": "75_percent", "pcb": "hot_swap", "connection": "multi"]]
    }
}

/// An answer with its JSON body parsed.
struct Answer: CustomStringConvertible {
    let response: APIResponse
    var status: Int { response.status }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(response.body)) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    subscript(_ key: String) -> Any? { object[key] }
    var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }
    var code: String? { object["code"] as? String }
    var field: String? { object["field"] as? String }
    func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
    var description: String { "\(status) \(String(decoding: response.body, as: UTF8.self))" }
}

/// The adapter a framework would write, here for the simulator's in-process webhook delivery:
/// plain values in, plain values out.
struct APIHandler: HTTPHandler {
    let api: KeyCatAPI

    func handle(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        let response = await api.respond(to: APIRequest(
            method: APIMethod(request.method.rawValue), target: request.path, headers: APIHeaders(request.headers.map { ($0.key, $0.value) }),
            body: Array(request.body)))
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name] = field.value }
        return TransportResponse(status: response.status, headers: headers, body: Data(response.body))
    }
}
