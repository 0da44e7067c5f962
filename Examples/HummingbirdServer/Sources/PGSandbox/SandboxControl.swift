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

    /// Sends webhooks to `url` from now on.
    ///
    /// - Throws: `HTTPError(.badRequest)` unless `url` is an http(s) URL with a host.
    func registerWebhooks(at url: URL) throws {
        guard url.scheme == "http" || url.scheme == "https", url.host != nil,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { throw HTTPError(.badRequest, message: "url must be an http(s) URL") }
        let path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.fragment = nil
        guard let base = components.url else { throw HTTPError(.badRequest, message: "url must be an http(s) URL") }
        simulator.registerWebhookReceiver(URLSessionTransport(baseURL: base), path: path)
        webhookURL.withLock { $0 = url }
    }

    func add<Context: RequestContext>(to router: Router<Context>) {
        let group = router.group("sandbox")
        group.get("test-cards") { request, _ in
            try self.answer(request) { _ in
                ["cards": PGTestCard.allCases.map {
                    ["number": $0.number, "outcome": $0.failureReason == nil ? "paid" : "failed",
                     "failure_reason": $0.failureReason ?? NSNull()] as [String: Any]
                }]
            }
        }
        group.get("faults") { request, _ in try self.answer(request) { _ in Self.json(self.simulator.faultConfiguration) } }
        group.put("faults") { request, _ in
            try await self.answer(request) { body in
                let seed = try Self.integer(body, "seed", default: 1, in: 0...Int.max)
                let configuration = PGFaultConfiguration(
                    seed: UInt64(seed), serverErrorRate: try Self.rate(body, "server_error_rate"),
                    rateLimitRate: try Self.rate(body, "rate_limit_rate"),
                    retryAfterSeconds: try Self.integer(body, "retry_after_seconds", default: 1, in: 0...3_600),
                    lostAnswerRate: try Self.rate(body, "lost_answer_rate"),
                    latency: .milliseconds(try Self.integer(body, "latency_ms", default: 0, in: 0...60_000)),
                    webhookDuplicateRate: try Self.rate(body, "webhook_duplicate_rate"),
                    webhookReordering: try Self.boolean(body, "webhook_reordering"))
                self.simulator.configureFaults(configuration)
                return Self.json(configuration)
            }
        }
        group.post("faults/inject") { request, _ in
            try await self.answer(request) { body in
                guard let name = body["fault"] as? String ?? body["fault"].flatMap(Self.jsonInteger).map(String.init),
                      let fault = Self.fault(named: name) else {
                    throw HTTPError(.badRequest, message: "fault must be 500, 502, 503, 401, 403, 429, lost_answer or malformed_body")
                }
                var endpoint: PGEndpoint?
                if let given = body["endpoint"], !(given is NSNull) {
                    guard let known = (given as? String).flatMap(PGEndpoint.init(rawValue:)) else {
                        throw HTTPError(.badRequest, message: "endpoint must be one of \(PGEndpoint.allCases.map(\.rawValue))")
                    }
                    endpoint = known
                }
                let times = try Self.integer(body, "times", default: 1, in: 1...1_000)
                self.simulator.injectFault(fault, on: endpoint, times: times)
                return ["fault": name, "endpoint": endpoint?.rawValue ?? NSNull(), "times": times]
            }
        }
        group.delete("faults/inject") { request, _ in
            try self.answer(request) { _ in
                self.simulator.clearScriptedFaults()
                return ["cleared": true]
            }
        }
        group.get("webhooks") { request, _ in try self.answer(request) { _ in self.webhookState() } }
        group.put("webhooks") { request, _ in
            try await self.answer(request) { body in
                // Everything is checked before anything changes.
                let notify = try Self.boolean(body, "notify_api_cancels")
                let style: PGWebhookStyle
                switch body["style"] ?? "v1" {
                case let text as String where text == "v1": style = .portOneV1(notifyingAPICancels: notify)
                case let text as String where text == "signed": style = .signed
                default: throw HTTPError(.badRequest, message: "style must be v1 or signed")
                }
                var target: URL??  // nil: unchanged; .some(nil): stop
                switch body["url"] {
                case nil: target = nil
                case is NSNull: target = .some(nil)
                case let text as String:
                    guard let url = URL(string: text) else { throw HTTPError(.badRequest, message: "url must be an http(s) URL") }
                    target = .some(url)
                default: throw HTTPError(.badRequest, message: "url must be a string or null")
                }
                if case let .some(url?) = target { try self.registerWebhooks(at: url) }
                if case .some(nil) = target {
                    self.simulator.unregisterWebhookReceiver()
                    self.webhookURL.withLock { $0 = nil }
                }
                self.simulator.configureWebhooks(style)
                return self.webhookState()
            }
        }
        group.post("webhooks/deliver") { request, _ in
            try self.checkKey(request)
            return Self.response(["delivered": await self.simulator.deliverPendingWebhooks()])
        }
        group.post("tokens/expire") { request, _ in
            try await self.answerWritingFile(request) { _ in
                self.simulator.expireTokens()
                return ["expired": true]
            }
        }
        group.get("requests") { request, _ in
            try self.answer(request) { _ in
                Dictionary(uniqueKeysWithValues: PGEndpoint.allCases.map { ($0.rawValue, self.simulator.requestCount($0)) })
            }
        }
        group.post("reset") { request, _ in
            try await self.answerWritingFile(request) { _ in
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
            "url": webhookURL.withLock { $0?.absoluteString } ?? NSNull() as Any, "style": style, "notify_api_cancels": notify,
            "pending": simulator.pendingWebhookCount, "webhook_secret": simulator.webhookSecret,
        ]
    }

    /// Checks the key, then answers `body(fields)` as JSON, for a call without a body.
    private func answer(_ request: Request, _ body: ([String: Any]) throws -> Any) throws -> Response {
        try checkKey(request)
        return Self.response(try body([:]))
    }

    /// ``answer(_:_:)`` for a call that writes the simulator's file: on the simulator's own
    /// threads, as the payment window's calls run, so a request handler never waits on the
    /// file's writer lock.
    private func answerWritingFile(_ request: Request, _ body: ([String: Any]) throws -> Any) async throws -> Response {
        try await withTaskExecutorPreference(simulator.storageExecutor) {
            try answer(request, body)
        }
    }

    /// Checks the key, then reads the JSON object in the body (refusing anything else) and
    /// answers `body(fields)` as JSON.
    private func answer(_ request: Request, _ body: ([String: Any]) throws -> Any) async throws -> Response {
        try checkKey(request)
        var request = request
        let buffer = try await request.collectBody(upTo: 16 * 1024)
        var fields: [String: Any] = [:]
        if buffer.readableBytes > 0 {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(buffer: buffer))) as? [String: Any] else {
                throw HTTPError(.badRequest, message: "the body must be a JSON object")
            }
            fields = object
        }
        return Self.response(try body(fields))
    }

    private func checkKey(_ request: Request) throws {
        var given = request.headers[.authorization] ?? ""
        if given.lowercased().hasPrefix("bearer ") { given.removeFirst(7) }
        let bytes = Array(given.utf8)
        var difference = bytes.count == key.count ? 0 : 1
        for (index, byte) in key.enumerated() { difference |= Int(byte ^ (index < bytes.count ? bytes[index] : 0)) }
        guard difference == 0 else { throw HTTPError(.unauthorized, message: "the sandbox key is missing or wrong") }
    }

    /// A whole number in `range` (JSON numbers only), or `value` when absent.
    private static func integer(_ body: [String: Any], _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let given = body[name], !(given is NSNull) else { return value }
        guard let number = jsonInteger(given), range.contains(number) else {
            throw HTTPError(.badRequest, message: "\(name) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// A probability in 0…1, or 0 when absent.
    private static func rate(_ body: [String: Any], _ name: String) throws -> Double {
        guard let given = body[name], !(given is NSNull) else { return 0 }
        guard jsonBoolean(given) == nil, let number = (given as? NSNumber)?.doubleValue, (0...1).contains(number) else {
            throw HTTPError(.badRequest, message: "\(name) must be a number in 0…1")
        }
        return number
    }

    /// `true` or `false`, or false when absent.
    private static func boolean(_ body: [String: Any], _ name: String) throws -> Bool {
        guard let given = body[name], !(given is NSNull) else { return false }
        guard let flag = jsonBoolean(given) else { throw HTTPError(.badRequest, message: "\(name) must be true or false") }
        return flag
    }

    /// JSON's `true` or `false`: Foundation hands booleans and numbers out alike as `NSNumber`
    /// (and `1 as? Bool` succeeds), told apart by the type code, `c` for a boolean.
    private static func jsonBoolean(_ value: Any) -> Bool? {
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return nil }
        return number.boolValue
    }

    /// A JSON number that is whole, not a boolean.
    private static func jsonInteger(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, jsonBoolean(value) == nil else { return nil }
        return Int(exactly: number.doubleValue)
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
