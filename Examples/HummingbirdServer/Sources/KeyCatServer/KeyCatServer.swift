import Foundation
import Hummingbird
import KeyCat
import KeyCatAPI
import Logging
import PGPaymentWindow
import ServiceLifecycle

/// KeyCat's REST API over HTTP: reads its settings from the environment (``ServerSettings``),
/// opens the database, mounts ``KeyCatAPI`` and serves until SIGTERM or SIGINT, then finishes the
/// requests in flight and closes the database.
@main
struct KeyCatServer {
    static func main() async throws {
        let settings: ServerSettings
        do {
            settings = try ServerSettings(environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("keycat-server: \(error)\n".utf8))
            exit(2)
        }
        var logger = Logger(label: "keycat")
        logger.logLevel = settings.logLevel
        var configuration = settings.keycat
        var gatewayLogger = logger
        gatewayLogger[metadataKey: "component"] = "payment-gateway"
        configuration.gatewayLog = LoggerLogSink(logger: gatewayLogger)

        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        var apiLogger = logger
        apiLogger[metadataKey: "component"] = "api"
        let api = KeyCatAPI(keycat, statusProfile: settings.statusProfile,
                            serverErrors: LoggerLogSink(logger: apiLogger, level: .error))
        let router = Router(context: ServerContext.self)
        router.add(middleware: AccessLogMiddleware(level: .info))
        var middleware = KeyCatAPIMiddleware<ServerContext>(api: api, trustedProxies: settings.trustedProxies)
        var services: [any Service] = []
        // The simulator's payment window, never beside a real PG (then there is no simulator).
        if let simulator = keycat.paymentSimulator {
            PaymentWindow.add(to: router, simulator: simulator, prefix: "/pg/")
            middleware.ownPrefixes.append("/pg/")
            simulator.registerWebhookReceiver(URLSessionTransport(baseURL: settings.selfURL), path: "/webhooks/pg")
            services.append(SimulatorWebhookDelivery(simulator: simulator, logger: logger))
            logger.info("payments go to the PG simulator; its payment window is at /pg/payments/{merchant_uid}")
        }
        if case let .portOne(baseURL, _, _, webhooks) = configuration.paymentGateway {
            let verification = switch webhooks {
            case .portOneNotifications: "PortOne v1 notifications (unsigned: each is re-read from the PG before anything is believed)"
            case .signed: "signed (Standard Webhooks)"
            }
            logger.info("payments go to the PG at \(baseURL); its webhooks at /webhooks/pg are \(verification)")
        }
        let reconciliation = ReconciliationRecord(interval: settings.reconcileEvery)
        if let interval = settings.reconcileEvery {
            var reconcileLogger = logger
            reconcileLogger[metadataKey: "component"] = "reconciliation"
            services.append(ReconciliationService(keycat: keycat, interval: interval, logger: reconcileLogger,
                                                  record: reconciliation))
        }
        if settings.deliversWebhooks {
            var webhookLogger = logger
            webhookLogger[metadataKey: "component"] = "webhooks"
            services.append(WebhookDeliveryService(keycat: keycat, logger: webhookLogger))
        }
        if settings.benchRoutes {
            await BenchRoutes.add(to: router, api: api)
            middleware.ownPrefixes.append(BenchRoutes.prefix)
        }
        // The console is the example's extra: without its files the API is served all the same.
        if let console = settings.console {
            do {
                let assets = try AdminConsoleAssets(directory: console.directory)
                router.add(middleware: AdminConsoleMiddleware<ServerContext>(
                    api: api, assets: assets, refresher: AdminSessionRefresher(), reconciliation: reconciliation,
                    trustedProxies: settings.trustedProxies, secureCookies: console.secureCookies))
                logger.info("the admin console is at \(settings.selfURL.absoluteString)/admin/")
            } catch {
                logger.warning("no admin console: its files could not be read (KEYCAT_CONSOLE_DIR)",
                               metadata: ["directory": "\(console.directory.path)", "error": "\(error)"])
            }
        }
        router.add(middleware: middleware)

        let app = Application(
            router: router, server: .http1(limits: settings.connections),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "keycat"),
            services: services, logger: logger)
        try await app.runService()
        logger.notice("stopped; closing the database")
    }
}
