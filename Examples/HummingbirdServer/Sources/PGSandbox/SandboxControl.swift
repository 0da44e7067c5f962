import Foundation
import Hummingbird
import KeyCat
import KeyCatPGSimulator
import Synchronization

/// The sandbox's control API under `/sandbox/`, for tests; every call needs
/// `Authorization: Bearer <KEYCAT_PG_SANDBOX_KEY>` (401 without it). JSON in, JSON out.
///
/// | call | does |
/// |---|---|
/// | `GET /sandbox/test-cards` | the test cards and what each does |
/// | `GET`, `PUT /sandbox/faults` | the random faults: `seed`, `server_error_rate`, `rate_limit_rate`, `retry_after_seconds`, `lost_answer_rate`, `latency_ms`, `webhook_duplicate_rate`, `webhook_reordering` (a `PUT` replaces them all; absent fields are 0/false) |
/// | `POST /sandbox/faults/inject` | `{fault, endpoint?, times?}`: the next `times` (1) requests to `endpoint` (any) suffer `fault` — `500`, `502`, `503`, `401`, `403`, `429`, `lost_answer` or `malformed_body` |
/// | `DELETE /sandbox/faults/inject` | drops the injected faults not yet used up |
/// | `GET`, `PUT /sandbox/webhooks` | the target: `{url, style, notify_api_cancels}`; `url` null stops delivery (as in v1, nothing is queued meanwhile), `style` is `v1` (unsigned, the default) or `signed` (Standard Webhooks with `webhook_secret`, which `GET` shows) |
/// | `POST /sandbox/webhooks/deliver` | delivers what is queued now: `{delivered}` |
/// | `POST /sandbox/tokens/expire` | expires every access token |
/// | `GET /sandbox/requests` | requests per endpoint so far |
/// | `POST /sandbox/reset` | forgets every token, prepared amount, payment, queued webhook and fault |
final class SandboxControl: Sendable {
    let simulator: PGSimulator
    private let key: [UInt8]
    private let webhookURL = Mutex<URL?>(nil)

    init(simulator: PGSimulator, key: String) {
        self.simulator = simulator
        self.key = Array(key.utf8)
    }

    func registerWebhooks(at url: URL) {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = (components?.percentEncodedPath.isEmpty ?? true ? "/" : components!.percentEncodedPath)
            + (components?.percentEncodedQuery.map { "?" + $0 } ?? "")
        components?.percentEncodedPath = ""
        components?.percentEncodedQuery = nil
        guard let base = components?.url else { return }
        simulator.registerWebhookReceiver(URLSessionTransport(baseURL: base), path: path)
        webhookURL.withLock { $0 = url }
    }

    func add<Context: RequestContext>(to router: Router<Context>) {
        let group = router.group("sandbox")
        group.get("test-cards") { request, _ in
            try self.authorized(request) {
                ["cards": PGTestCard.allCases.map {
                    ["number": $0.number, "outcome": $0.failureReason == nil ? "paid" : "failed",
                     "failure_reason": $0.failureReason ?? NSNull()] as [String: Any]
                }]
            }
        }
        group.get("faults") { request, _ in try self.authorized(request) { Self.json(self.simulator.faultConfiguration) } }
        group.put("faults") { request, _ in
            let body = try await Self.body(request)
            return try self.authorized(request) {
                func rate(_ name: String) throws -> Double {
                    guard let value = body[name] else { return 0 }
                    guard let number = value as? Double ?? (value as? Int).map(Double.init), (0...1).contains(number) else {
                        throw HTTPError(.badRequest, message: "\(name) must be a number in 0…1")
                    }
                    return number
                }
                let configuration = PGFaultConfiguration(
                    seed: UInt64(body["seed"] as? Int ?? 1), serverErrorRate: try rate("server_error_rate"),
                    rateLimitRate: try rate("rate_limit_rate"), retryAfterSeconds: max(0, body["retry_after_seconds"] as? Int ?? 1),
                    lostAnswerRate: try rate("lost_answer_rate"), latency: .milliseconds(max(0, body["latency_ms"] as? Int ?? 0)),
                    webhookDuplicateRate: try rate("webhook_duplicate_rate"),
                    webhookReordering: body["webhook_reordering"] as? Bool ?? false)
                self.simulator.configureFaults(configuration)
                return Self.json(configuration)
            }
        }
        group.post("faults/inject") { request, _ in
            let body = try await Self.body(request)
            return try self.authorized(request) {
                guard let name = body["fault"].map({ "\($0)" }), let fault = Self.fault(named: name) else {
                    throw HTTPError(.badRequest, message: "fault must be 500, 502, 503, 401, 403, 429, lost_answer or malformed_body")
                }
                var endpoint: PGEndpoint?
                if let endpointName = body["endpoint"] as? String {
                    guard let known = PGEndpoint(rawValue: endpointName) else {
                        throw HTTPError(.badRequest, message: "endpoint must be one of \(PGEndpoint.allCases.map(\.rawValue))")
                    }
                    endpoint = known
                }
                let times = body["times"] as? Int ?? 1
                guard (1...1_000).contains(times) else { throw HTTPError(.badRequest, message: "times must be 1…1000") }
                self.simulator.injectFault(fault, on: endpoint, times: times)
                return ["fault": name, "endpoint": endpoint?.rawValue ?? NSNull(), "times": times]
            }
        }
        group.delete("faults/inject") { request, _ in
            try self.authorized(request) {
                self.simulator.clearScriptedFaults()
                return ["cleared": true]
            }
        }
        group.get("webhooks") { request, _ in try self.authorized(request) { self.webhookState() } }
        group.put("webhooks") { request, _ in
            let body = try await Self.body(request)
            return try self.authorized(request) {
                let notify = body["notify_api_cancels"] as? Bool ?? false
                switch body["style"] as? String ?? "v1" {
                case "v1": self.simulator.configureWebhooks(.portOneV1(notifyingAPICancels: notify))
                case "signed": self.simulator.configureWebhooks(.signed)
                default: throw HTTPError(.badRequest, message: "style must be v1 or signed")
                }
                if let text = body["url"] as? String {
                    guard let url = URL(string: text), url.scheme?.hasPrefix("http") == true, url.host != nil else {
                        throw HTTPError(.badRequest, message: "url must be an http(s) URL")
                    }
                    self.registerWebhooks(at: url)
                } else if body["url"] is NSNull {
                    self.simulator.unregisterWebhookReceiver()
                    self.webhookURL.withLock { $0 = nil }
                }
                return self.webhookState()
            }
        }
        group.post("webhooks/deliver") { request, _ in
            try self.checkKey(request)
            return Self.response(["delivered": await self.simulator.deliverPendingWebhooks()])
        }
        group.post("tokens/expire") { request, _ in
            try self.authorized(request) {
                self.simulator.expireTokens()
                return ["expired": true]
            }
        }
        group.get("requests") { request, _ in
            try self.authorized(request) {
                Dictionary(uniqueKeysWithValues: PGEndpoint.allCases.map { ($0.rawValue, self.simulator.requestCount($0)) })
            }
        }
        group.post("reset") { request, _ in
            try self.authorized(request) {
                try self.simulator.reset()
                return ["reset": true]
            }
        }
    }

    private func webhookState() -> [String: Any] {
        let style: String
        var notify = false
        switch simulator.webhookStyle {
        case .signed: style = "signed"
        case let .portOneV1(notifying):
            style = "v1"
            notify = notifying
        }
        return [
            "url": webhookURL.withLock { $0?.absoluteString } ?? NSNull(), "style": style, "notify_api_cancels": notify,
            "pending": simulator.pendingWebhookCount, "webhook_secret": simulator.webhookSecret,
        ]
    }

    /// Checks the key, then answers `body()` as JSON.
    private func authorized(_ request: Request, _ body: () throws -> Any) throws -> Response {
        try checkKey(request)
        return Self.response(try body())
    }

    private func checkKey(_ request: Request) throws {
        var given = request.headers[.authorization] ?? ""
        if given.lowercased().hasPrefix("bearer ") { given.removeFirst(7) }
        let bytes = Array(given.utf8)
        var difference = bytes.count == key.count ? 0 : 1
        for (index, byte) in key.enumerated() { difference |= Int(byte ^ (index < bytes.count ? bytes[index] : 0)) }
        guard difference == 0 else { throw HTTPError(.unauthorized, message: "the sandbox key is missing or wrong") }
    }

    private static func body(_ request: Request) async throws -> [String: Any] {
        var request = request
        let buffer = try await request.collectBody(upTo: 16 * 1024)
        guard buffer.readableBytes > 0 else { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(buffer: buffer))) as? [String: Any] else {
            throw HTTPError(.badRequest, message: "the body must be a JSON object")
        }
        return object
    }

    private static func fault(named name: String) -> PGFault? {
        switch name {
        case "500": .error(.internalServerError)
        case "502": .error(.pgProvider)
        case "503": .error(.serviceUnavailable)
        case "401": .error(.unauthorized)
        case "403": .error(.forbidden)
        case "429": .rateLimited(retryAfterSeconds: 1)
        case "lost_answer": .lostAnswer
        case "malformed_body": .malformedBody
        default: nil
        }
    }

    private static func json(_ configuration: PGFaultConfiguration) -> [String: Any] {
        [
            "seed": Int(truncatingIfNeeded: configuration.seed), "server_error_rate": configuration.serverErrorRate,
            "rate_limit_rate": configuration.rateLimitRate, "retry_after_seconds": configuration.retryAfterSeconds,
            "lost_answer_rate": configuration.lostAnswerRate,
            "latency_ms": Int(configuration.latency.components.seconds * 1000 + configuration.latency.components.attoseconds / 1_000_000_000_000_000),
            "webhook_duplicate_rate": configuration.webhookDuplicateRate, "webhook_reordering": configuration.webhookReordering,
        ]
    }

    private static func response(_ object: Any) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
