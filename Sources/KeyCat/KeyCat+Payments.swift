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
        /// A real PortOne v1 PG (or the sandbox, `scripts/pg-sandbox`) over HTTP, and how its
        /// webhooks are authenticated.
        case portOne(baseURL: URL, apiKey: String, apiSecret: String, webhooks: PaymentWebhooks)
        /// Any other ``PaymentGateway`` (tests, a different PG), with the webhook secrets to
        /// verify its webhooks.
        case custom(any PaymentGateway, webhookSecrets: [String])
    }

    /// How a PG's webhooks are told from forgeries.
    public enum PaymentWebhooks: Sendable, Hashable {
        /// PortOne v1's own notifications: unsigned `{imp_uid, merchant_uid, status}`, as JSON or
        /// a form. Anyone can send one, so its body is never believed: it is a hint to re-read the
        /// order's payment from the PG (`GET /payments/find/{merchant_uid}`) and settle from that
        /// answer. The PG reads hints cause are budgeted per order
        /// (``PaymentWebhookReceiver/notificationBurstPerOrder`` at once,
        /// ``PaymentWebhookReceiver/notificationsPerSecondPerOrder`` after) under an overall cap
        /// (``PaymentWebhookReceiver/notificationBurst``, ``PaymentWebhookReceiver/notificationsPerSecond``),
        /// so forged ones cannot turn into a flood of PG reads, and forged ones about one order do
        /// not turn away real ones about others.
        case portOneNotifications
        /// Signed the Standard Webhooks way with any of `secrets` (newest first; several while a
        /// secret is rotated), for gateways that sign.
        case signed(secrets: [String])
    }

    /// The gateway, the webhook secrets and the simulator (when KeyCat opened it itself).
    struct GatewaySetup {
        var gateway: any PaymentGateway
        var webhookSecrets: [String]
        /// Whether unsigned PortOne v1 notifications are taken as hints.
        var acceptsNotifications = false
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
        func client(_ transport: any HTTPTransport, key: String, secret: String, live: Bool = false) -> PGGatewayClient {
            var settings = PGClientConfiguration(apiKey: key, apiSecret: secret)
            settings.takesRealMoney = live
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
            if configuration.isReadOnly {
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
        case let .portOne(baseURL, apiKey, apiSecret, webhooks):
            let gateway = client(URLSessionTransport(baseURL: baseURL), key: apiKey, secret: apiSecret,
                                 live: !configuration.acceptsTestPayments)
            switch webhooks {
            case .portOneNotifications:
                return GatewaySetup(gateway: gateway, webhookSecrets: [], acceptsNotifications: true,
                                    simulator: nil, ownsSimulator: false)
            case let .signed(secrets):
                // A webhook signed with an empty secret proves nothing: refuse the configuration.
                guard !secrets.isEmpty, !secrets.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                    throw KeyCatError.validation("webhook_secrets", "signed webhooks need at least one secret, none of them empty")
                }
                return GatewaySetup(gateway: gateway, webhookSecrets: secrets, simulator: nil, ownsSimulator: false)
            }
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

/// Receives the PG's webhooks for a server.
///
/// - Signed webhooks (the simulator's default, gateways that sign): verifies the Standard-Webhooks
///   signature (±5 minutes), then hands the event to
///   ``CheckoutService/handleWebhook(id:impUID:merchantUID:)``, which drops duplicates by webhook
///   id and re-reads the payment rather than trusting the body.
/// - PortOne v1 notifications (``KeyCat/PaymentWebhooks/portOneNotifications``): unsigned, so
///   the body is only a hint: ``CheckoutService/handlePaymentNotification(merchantUID:admit:)``
///   re-reads the order's payment from the PG and settles from its answer. A notification about
///   no order of ours is acknowledged without reading the PG; past its order's budget of PG
///   reads, or the overall one, one is refused with `rateLimited` (503). v1 sends a
///   notification once, so a refused one is left to the buyer's confirm and to reconciliation.
///
/// Answer the PG 2xx when this returns, and non-2xx when it throws, so it redelivers.
public struct PaymentWebhookReceiver: Sendable {
    /// How many unsigned notifications about one order may be handled at once before its rate
    /// applies: a payment's life (paid, then a cancel or two) with room to spare.
    public static let notificationBurstPerOrder = 5
    /// How many unsigned notifications about one order are handled a second after its burst
    /// (one every 10 s).
    public static let notificationsPerSecondPerOrder = 0.1
    /// How many unsigned notifications, about any orders, may be handled at once before the
    /// overall rate applies.
    public static let notificationBurst = 100
    /// How many unsigned notifications a second, about any orders, are handled after the burst.
    public static let notificationsPerSecond = 20.0
    // The constants are valid, so the limits always build.
    static let notificationLimitPerOrder = try! RateLimit(perSecond: notificationsPerSecondPerOrder, burst: notificationBurstPerOrder)
    static let notificationLimit = try! RateLimit(perSecond: notificationsPerSecond, burst: notificationBurst)

    let verifier: WebhookVerifier
    let checkout: CheckoutService
    /// The budget of PG reads unsigned notifications may cause; nil when they are refused.
    var notifications: NotificationBudget?
    /// Where the reason a webhook was refused is written (the answer never says which check failed).
    var log: any LogSink = DiscardingLogSink()

    /// - Throws: `validation` (`field` = `webhook`, `reason` says why) for a webhook that fails
    ///   verification (or is not a notification); `rateLimited` for a notification past the
    ///   budget; a gateway error when the payment could not be re-read.
    public func receive(headers: [String: String], body: Data) async throws(KeyCatError) -> WebhookOutcome {
        if let notifications {
            let contentType = headers.first { $0.key.lowercased() == "content-type" }?.value
            guard let hint = PortOneNotification(body: body, contentType: contentType) else {
                if log.isEnabled { log.write("webhook refused: not a PortOne notification") }
                throw KeyCatError.validation("webhook", "a PortOne notification needs imp_uid and merchant_uid")
            }
            let log = log
            return try await checkout.handlePaymentNotification(merchantUID: hint.merchantUID) { () throws(KeyCatError) in
                guard notifications.take(for: hint.merchantUID) else {
                    if log.isEnabled { log.write("webhook refused: more PortOne notifications than the budget") }
                    throw KeyCatError(.rateLimited, "too many payment notifications; send again later", context: ["retry_after": "1"])
                }
            }
        }
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
