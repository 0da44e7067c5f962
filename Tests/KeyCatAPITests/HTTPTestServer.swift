import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KeyCatAPI
import KeyCatInfrastructure
import Synchronization
import Testing

/// The example server (`Examples/HummingbirdServer`) that `scripts/test` starts on a free
/// loopback port over a fresh database: its URL, and the operator and seller accounts it made
/// with `keycat-admin` before the start.
///
/// Without `KEYCAT_TEST_SERVER_URL` the suites over HTTP are skipped, except under CI
/// (`CI=true`), where ``HTTPServerConfigurationTests`` fails the run instead.
enum HTTPTestServer {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var url: URL? { HTTPTestServerInstance.sqlite.url }
    static var isConfigured: Bool { url != nil }
    static var isCI: Bool { environment["CI"] == "true" }
    static let skipReason = "KEYCAT_TEST_SERVER_URL is not set (scripts/test sets it)"

    /// The account `keycat-admin users create` made for `role` (`OPERATOR` or `SELLER`).
    static func account(_ role: String) throws -> (email: String, password: String) {
        try HTTPTestServerInstance.sqlite.account(role)
    }

    static func client() throws -> HTTPClient { try HTTPTestServerInstance.sqlite.client() }

    /// The secret the SQLite server's PG simulator signs its webhooks with.
    static func simulatorWebhookSecret() async throws -> String {
        try await HTTPTestServerInstance.sqlite.simulatorWebhookSecret()
    }
}

/// One of the example servers `scripts/test` starts for suites that run on both stores: over
/// SQLite, with the exports ``HTTPTestServer`` reads (`KEYCAT_TEST_SERVER_URL`, …), or over
/// Postgres, with the same names under `KEYCAT_TEST_POSTGRES_` (`KEYCAT_TEST_POSTGRES_SERVER_URL`, …).
struct HTTPTestServerInstance: Sendable, CustomStringConvertible {
    static let sqlite = HTTPTestServerInstance(description: "SQLite", prefix: "KEYCAT_TEST_")
    static let postgres = HTTPTestServerInstance(description: "Postgres", prefix: "KEYCAT_TEST_POSTGRES_")

    /// The servers this run has: the SQLite one, and the Postgres one when scripts/test started
    /// it. (``HTTPServerConfigurationTests`` fails a CI run with a Postgres database but no
    /// Postgres server.)
    static var configured: [HTTPTestServerInstance] { [sqlite, postgres].filter(\.isConfigured) }

    let description: String
    let prefix: String

    func value(_ name: String) -> String? { HTTPTestServer.environment[prefix + name].flatMap { $0.isEmpty ? nil : $0 } }
    var url: URL? { value("SERVER_URL").flatMap(URL.init(string:)) }
    var isConfigured: Bool { url != nil }

    func client() throws -> HTTPClient { HTTPClient(base: try #require(url, "\(prefix)SERVER_URL is not set (scripts/test sets it)")) }

    /// The account `keycat-admin users create` made for `role` (`OPERATOR` or `SELLER`).
    func account(_ role: String) throws -> (email: String, password: String) {
        (try #require(value("\(role)_EMAIL"), "\(prefix)\(role)_EMAIL"), try #require(value("\(role)_PASSWORD"), "\(prefix)\(role)_PASSWORD"))
    }

    /// The secret the server's PG simulator signs its webhooks with: random per installation,
    /// kept in the `settings` table of the server's store (`SERVER_DB`: a SQLite file or a
    /// Postgres URL), read here as an operator with access to the store would.
    func simulatorWebhookSecret() async throws -> String {
        let location = try #require(value("SERVER_DB"), "\(prefix)SERVER_DB")
        let query = "SELECT value FROM settings WHERE key = 'secret.pg_simulator_webhook_key'"
        let key: [UInt8]?
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            var configuration = PostgresConfiguration(url: location)
            configuration.maximumConnections = 1
            let database = try PostgresDatabase(configuration: configuration)
            defer { database.close() }
            key = try await database.read { connection in try connection.queryOne(query, []) { $0.bytes(0) } }
        } else {
            var configuration = SQLiteConfiguration()
            configuration.readOnly = true
            configuration.createIfMissing = false
            configuration.readerCount = 1
            let database = try SQLiteDatabase(path: location, configuration: configuration)
            defer { database.close() }
            key = try await database.read { connection in try connection.queryOne(query, []) { $0.bytes(0) } }
        }
        return "whsec_" + Data(try #require(key, "the server made its simulator's key")).base64EncodedString()
    }

    /// Runs the real `keycat-admin` on the server's database, as its operator would.
    func admin(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let binary = try #require(value("ADMIN"), "\(prefix)ADMIN (scripts/test-server exports it)")
        let database = try #require(value("SERVER_DB"), "\(prefix)SERVER_DB")
        let admin = try ChildProcess(
            binary, arguments + ["--db", database],
            environment: ["PATH": "/usr/bin:/bin", "USER": "tester"].merging(value("SERVER_FILES").map { ["KEYCAT_FILES": $0] } ?? [:]) { $1 },
            standardInput: .pipe, standardOutput: .pipe, standardError: .standardOutput)
        let finished = admin.finish(input: Data(input.utf8))
        return (finished.termination.exitStatus ?? -1, String(decoding: finished.output, as: UTF8.self))
    }
}

/// An HTTP answer with its JSON body parsed.
struct HTTPAnswer: CustomStringConvertible, Sendable {
    let status: Int
    /// Header names lower-cased.
    let headers: [String: String]
    let body: Data

    var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    subscript(_ key: String) -> Any? { object[key] }
    var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }
    var code: String? { object["code"] as? String }
    func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
    var text: String { String(decoding: body, as: UTF8.self) }
    var description: String { "\(status) \(text.prefix(600))" }
}

/// A client of the API, over real HTTP (URLSession on loopback) to an example server, or in
/// process through ``KeyCatAPI/respond(to:)``: the same requests and the same answers either
/// way, so one test body runs over both.
struct HTTPClient: Sendable {
    private enum Transport: Sendable {
        case network(base: URL, session: URLSession)
        case inProcess(KeyCatAPI)
    }

    private let transport: Transport

    init(base: URL) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 60
        transport = .network(base: base, session: URLSession(configuration: configuration))
    }

    /// A client whose requests `api` answers in this process, from a fixed client address.
    init(api: KeyCatAPI) {
        transport = .inProcess(api)
    }

    /// Sends one request; `json` is encoded as the body with `Content-Type: application/json`.
    func send(_ method: String, _ target: String, json: Any? = nil, body: Data? = nil, token: String? = nil,
              headers: [String: String] = [:]) async throws -> HTTPAnswer {
        var fields = headers
        var payload = body
        if let json {
            payload = try JSONSerialization.data(withJSONObject: json)
            fields["Content-Type"] = "application/json"
        }
        if let token { fields["Authorization"] = "Bearer \(token)" }
        switch transport {
        case let .network(base, session):
            var request = URLRequest(url: try #require(URL(string: base.absoluteString + target)))
            request.httpMethod = method
            request.httpBody = payload
            for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            var answered: [String: String] = [:]
            for case let (name as String, value as String) in http.allHeaderFields { answered[name.lowercased()] = value }
            return HTTPAnswer(status: http.statusCode, headers: answered, body: data)
        case let .inProcess(api):
            let response = await api.respond(to: APIRequest(
                method: APIMethod(method), target: target, headers: APIHeaders(fields.map { ($0.key, $0.value) }),
                body: Array(payload ?? Data()), clientAddress: "203.0.113.7"))
            var answered: [String: String] = [:]
            for field in response.headers { answered[field.name.lowercased()] = field.value }
            return HTTPAnswer(status: response.status, headers: answered, body: Data(response.body))
        }
    }

    /// Logs in; the session keeps the token pair and refreshes it when the access token expired, as an app does.
    func logIn(_ email: String, _ password: String) async throws -> HTTPSession {
        let answer = try await send("POST", "/sessions", json: ["email": email, "password": password])
        try #require(answer.status == 200, "log-in of \(email): \(answer)")
        return try HTTPSession(client: self, pair: answer)
    }
}

/// A signed-in user: requests carry the access token; a 401 `access_token_expired` is answered by refreshing the pair
/// and sending the request again, as the app does. The test server's tokens live five seconds,
/// so on a loaded machine a fresh token can expire again before the retry arrives: up to six
/// refreshes are tried before the 401 is returned.
final class HTTPSession: Sendable {
    struct Tokens: Sendable {
        var access: String
        var refresh: String
        var accessExpiresAt: Date
    }

    let client: HTTPClient
    let userID: Int64
    private let state: Mutex<Tokens>

    init(client: HTTPClient, pair: HTTPAnswer) throws {
        self.client = client
        userID = try #require(pair.int("user_id"))
        state = Mutex(try Self.tokens(pair))
    }

    var tokens: Tokens { state.withLock { $0 } }

    static func tokens(_ pair: HTTPAnswer) throws -> Tokens {
        let expiry = try #require(pair["access_token_expires_at"] as? String)
        let expires = try #require(ISO8601DateFormatter().date(from: expiry))
        let access = try #require(pair["access_token"] as? String)
        let refresh = try #require(pair["refresh_token"] as? String)
        return Tokens(access: access, refresh: refresh, accessExpiresAt: expires)
    }

    @discardableResult
    func send(_ method: String, _ target: String, json: Any? = nil, headers: [String: String] = [:],
              refreshing: Bool = true) async throws -> HTTPAnswer {
        var answer = try await client.send(method, target, json: json, token: tokens.access, headers: headers)
        guard refreshing else { return answer }
        for _ in 0..<6 where answer.code == "access_token_expired" {
            try await refresh()
            answer = try await client.send(method, target, json: json, token: tokens.access, headers: headers)
        }
        return answer
    }

    /// Trades the refresh token for a new pair. Returns the one it used.
    @discardableResult
    func refresh() async throws -> String {
        let used = tokens.refresh
        let answer = try await client.send("POST", "/sessions/refresh", json: ["refresh_token": used])
        try #require(answer.status == 200, "refresh: \(answer)")
        let fresh = try Self.tokens(answer)
        state.withLock { $0 = fresh }
        return used
    }
}

@Suite("The example server over HTTP")
struct HTTPServerConfigurationTests {
    @Test("a CI run has the example server, so the suites over HTTP cannot be skipped there")
    func serverIsConfiguredInCI() async throws {
        guard HTTPTestServer.isCI else { return }
        #expect(HTTPTestServer.isConfigured, "CI=true but \(HTTPTestServer.skipReason)")
        let answer = try await HTTPTestServer.client().send("GET", "/products?limit=1")
        #expect(answer.status == 200, "\(answer)")
    }

    @Test("a CI run with a Postgres database also has the example server over Postgres")
    func postgresServerIsConfiguredInCI() async throws {
        guard HTTPTestServer.isCI, HTTPTestServer.environment["KEYCAT_TEST_POSTGRES_URL"] != nil else { return }
        #expect(HTTPTestServerInstance.postgres.isConfigured, "CI=true with KEYCAT_TEST_POSTGRES_URL but no KEYCAT_TEST_POSTGRES_SERVER_URL")
        let answer = try await HTTPTestServerInstance.postgres.client().send("GET", "/products?limit=1")
        #expect(answer.status == 200, "\(answer)")
    }
}
