import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// Which payment gateway KeyCat talks to.
    public enum PaymentGatewayChoice: Sendable {
        /// The simulator in its file beside the database (`keycat.db` → `keycat.pg.db`), opened
        /// and closed with KeyCat, so separate processes see one PG.
        case simulatorBesideDatabase
        /// A simulator the caller opened (faults, clock and storage of their choosing); KeyCat
        /// does not close it.
        case simulator(PGSimulator)
        /// A real PortOne-v1-shaped PG over HTTPS.
        case portOne(baseURL: URL, apiKey: String, apiSecret: String, webhookSecrets: [String])
        /// Any other ``PaymentGateway`` (tests, a different PG), with the webhook secrets to
        /// verify its webhooks.
        case custom(any PaymentGateway, webhookSecrets: [String])
    }

    /// The gateway, the webhook secrets and the simulator (when KeyCat opened it itself).
    struct GatewaySetup {
        var gateway: any PaymentGateway
        var webhookSecrets: [String]
        var simulator: PGSimulator?
        var ownsSimulator: Bool
    }

    /// Whether the configuration names a private in-memory database rather than a file.
    static func isInMemory(_ configuration: Configuration) -> Bool {
        configuration.databasePath.isEmpty || configuration.databasePath == ":memory:"
    }

    /// - Parameter simulatorWebhookSecret: the secret the simulator beside the database signs its
    ///   webhooks with: random per installation, kept with KeyCat's other secrets.
    static func makeGateway(_ configuration: Configuration, simulatorWebhookSecret: String) throws(KeyCatError) -> GatewaySetup {
        func client(_ transport: any HTTPTransport, key: String, secret: String) -> PGGatewayClient {
            var settings = PGClientConfiguration(apiKey: key, apiSecret: secret)
            settings.initialBackoff = configuration.gatewayInitialBackoff
            return PGGatewayClient(transport: transport, configuration: settings, clock: configuration.clock,
                                   logSink: configuration.gatewayLog)
        }
        func simulated(_ simulator: PGSimulator, owned: Bool) -> GatewaySetup {
            GatewaySetup(gateway: client(simulator.transport, key: simulator.credentials.key, secret: simulator.credentials.secret),
                         webhookSecrets: [simulator.webhookSecret], simulator: simulator, ownsSimulator: owned)
        }
        switch configuration.paymentGateway {
        case .simulatorBesideDatabase:
            let clock = configuration.clock
            let path = PGSimulator.storagePath(besideDatabase: configuration.databasePath)
            // Opening without `createIfMissing` creates nothing, the simulator's file included
            // (`db check` must change nothing): without the file no payment was ever made there.
            if !configuration.createIfMissing, !isInMemory(configuration), !FileManager.default.fileExists(atPath: path) {
                return GatewaySetup(gateway: MissingSimulatorGateway(reason: "there is no PG simulator file at \(path)"),
                                    webhookSecrets: [simulatorWebhookSecret], simulator: nil, ownsSimulator: false)
            }
            // A read-only open writes nothing, and the simulator writes its file on every call.
            if configuration.readOnly {
                return GatewaySetup(
                    gateway: MissingSimulatorGateway(reason: "the database was opened read-only: no payments can be made or read"),
                    webhookSecrets: [simulatorWebhookSecret], simulator: nil, ownsSimulator: false)
            }
            // An in-memory database gets an in-memory simulator, never a file in the working folder.
            let inMemory = isInMemory(configuration)
            do {
                let simulator = try PGSimulator(
                    storage: inMemory ? .inMemory : .file(path: path), webhookSecret: simulatorWebhookSecret,
                    now: { clock.now() })
                return simulated(simulator, owned: true)
            } catch {
                throw KeyCatError(.storage, "the PG simulator's file could not be opened: \(error)")
            }
        case let .simulator(simulator):
            return simulated(simulator, owned: false)
        case let .portOne(baseURL, apiKey, apiSecret, webhookSecrets):
            // A webhook signed with an empty secret proves nothing: refuse the configuration.
            guard !webhookSecrets.isEmpty, !webhookSecrets.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                throw KeyCatError.validation("webhook_secrets", "a PG configuration needs at least one webhook secret, none of them empty")
            }
            return GatewaySetup(gateway: client(URLSessionTransport(baseURL: baseURL), key: apiKey, secret: apiSecret),
                                webhookSecrets: webhookSecrets, simulator: nil, ownsSimulator: false)
        case let .custom(gateway, webhookSecrets):
            return GatewaySetup(gateway: gateway, webhookSecrets: webhookSecrets, simulator: nil, ownsSimulator: false)
        }
    }
}

/// The gateway of a database opened read-only, or without `createIfMissing` while its
/// simulator file does not exist: every call is `gatewayUnavailable`, and nothing is created.
struct MissingSimulatorGateway: PaymentGateway {
    /// Why there is no gateway, the error's message.
    let reason: String

    private var error: KeyCatError {
        KeyCatError(.gatewayUnavailable, reason)
    }

    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError) { throw error }
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment { throw error }
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment { throw error }
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage { throw error }
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment { throw error }
}

/// Receives the PG's webhooks for a server: verifies the Standard-Webhooks signature (±5 minutes),
/// then hands the event to ``CheckoutService/handleWebhook(id:impUID:merchantUID:)``, which drops
/// duplicates by webhook id and re-reads the payment rather than trusting the body.
///
/// Answer the PG 2xx when this returns, and non-2xx when it throws, so it redelivers.
public struct PaymentWebhookReceiver: Sendable {
    let verifier: WebhookVerifier
    let checkout: CheckoutService
    /// Where the reason a webhook was refused is written (the answer never says which check failed).
    var log: any LogSink = DiscardingLogSink()

    /// - Throws: `validation` (`field` = `webhook`, `reason` says why) for a webhook that fails
    ///   verification; a gateway error when the payment could not be re-read.
    public func receive(headers: [String: String], body: Data) async throws(KeyCatError) -> WebhookOutcome {
        let webhook: VerifiedWebhook
        do {
            webhook = try verifier.verify(headers: headers, body: body)
        } catch {
            if log.isEnabled { log.write("webhook refused: \(error) (webhook-id \(Redactor.text(headers["webhook-id"] ?? "-")))") }
            throw error.keyCatError
        }
        return try await checkout.handleWebhook(id: webhook.id, impUID: webhook.impUID, merchantUID: webhook.merchantUID)
    }
}

/// Serves ``PaymentWebhookReceiver`` as an HTTP handler, so the simulator can deliver webhooks to
/// KeyCat in process.
public struct WebhookHTTPHandler: HTTPHandler {
    let receiver: PaymentWebhookReceiver

    public init(_ receiver: PaymentWebhookReceiver) { self.receiver = receiver }

    public func handle(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        do {
            _ = try await receiver.receive(headers: request.headers, body: request.body)
            return TransportResponse(status: 200, headers: [:], body: Data())
        } catch {
            return TransportResponse(status: Self.status(for: error), headers: [:], body: Data(error.message.utf8))
        }
    }

    /// The status a webhook that failed answers the PG with. 503 asks the PG to deliver again:
    /// only worth it when a later try can succeed. A signed webhook about a payment the PG itself
    /// does not know, or cannot describe, would be redelivered forever; it is acknowledged (200),
    /// and reconciliation settles the order from the PG's own records. A webhook that fails
    /// verification is 400.
    public static func status(for error: KeyCatError) -> Int {
        switch error.code {
        case .validation: 400
        case .paymentNotFound, .invalidGatewayResponse: 200
        default: 503
        }
    }
}

extension KeyCat {
    /// Cross-checks the database against the PG in `window` (default: the last 24 hours by the
    /// configured clock) and changes nothing: every paid PG payment has its paid order of the
    /// same amount, the PG's cancels match KeyCat's refunds, and every paid order has its paid
    /// PG payment. `db check --gateway` prints it. See ``CheckoutService/checkGateway(window:)``.
    ///
    /// - Throws: a gateway error when the PG cannot be listed or read.
    public func checkGateway(window: DateInterval? = nil) async throws(KeyCatError) -> GatewayCheckReport {
        let now = configuration.clock.now()
        return try await checkout.checkGateway(window: window ?? DateInterval(start: now.addingTimeInterval(-24 * 60 * 60), end: now))
    }
}
