import Foundation
import HTTPTypes
import Hummingbird
import KeyCat
import KeyCatPGSimulator
import Logging
import PGPaymentWindow
import ServiceLifecycle

/// The PG simulator served over HTTP as PortOne v1's REST API (`scripts/pg-sandbox`).
///
/// - v1's API at the host root: `POST /users/getToken`, `POST|PUT /payments/prepare`,
///   `GET /payments/prepare/{merchant_uid}`, `GET /payments/{imp_uid}`,
///   `GET /payments/find/{merchant_uid}[/{status}]`, `GET /payments/findAll/{merchant_uid}[/{status}]`,
///   `GET /payments/status/{status}`, `POST /payments/cancel`; JSON or form bodies.
/// - The buyer's window at `/sandbox/payments/{merchant_uid}` (``PaymentWindow``).
/// - The control API under `/sandbox/` (``SandboxControl``), refused without the sandbox key.
/// - Webhooks as v1 sends them: unsigned notifications to the registered URL.
@main
struct PGSandbox {
    static func main() async throws {
        let settings: SandboxSettings
        do {
            settings = try SandboxSettings(environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("keycat-pg-sandbox: \(error)\n".utf8))
            exit(2)
        }
        var logger = Logger(label: "pg-sandbox")
        logger.logLevel = .info
        let simulator = try PGSimulator(
            storage: .file(path: settings.file), credentials: settings.credentials,
            webhookStyle: .portOneV1(notifyingAPICancels: settings.notifyAPICancels))
        defer { simulator.close() }
        let control = SandboxControl(simulator: simulator, key: settings.sandboxKey)
        if let url = settings.webhookURL { try control.registerWebhooks(at: url) }

        let router = Router(context: BasicRequestContext.self)
        PaymentWindow.add(to: router, simulator: simulator, prefix: "/sandbox/")
        control.add(to: router)
        router.add(middleware: PortOneV1Middleware(simulator: simulator))

        let banner = settings.generated + [
            "keycat-pg-sandbox: PortOne v1 API at http://\(settings.host):\(settings.port)/, state in \(settings.file)",
        ]
        FileHandle.standardOutput.write(Data((banner.joined(separator: "\n") + "\n").utf8))
        let app = Application(
            router: router, configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "keycat-pg-sandbox"),
            services: [SimulatorWebhookDelivery(simulator: simulator, logger: logger)], logger: logger)
        try await app.runService()
    }
}

/// Hands every request outside `/sandbox/` to the simulator, as v1's REST API.
struct PortOneV1Middleware<Context: RequestContext>: RouterMiddleware {
    let simulator: PGSimulator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("/sandbox/") { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        guard let method = TransportMethod(rawValue: request.method.rawValue) else {
            return Response(status: .notFound, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"code":-1,"message":"Not Found","response":null}"#)))
        }
        let answer: TransportResponse
        do {
            answer = try await simulator.handle(
                TransportRequest(method: method, path: request.uri.description, headers: headers, body: Data(buffer: body)),
                timeout: .seconds(30))
        } catch {
            // A fault that loses the answer (the PG acted): nothing comes back for a minute,
            // longer than a sane client waits (KeyCat's client waits 10 seconds), then a 504.
            try await Task.sleep(for: .seconds(60))
            throw HTTPError(.gatewayTimeout)
        }
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
