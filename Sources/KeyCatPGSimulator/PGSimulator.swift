import Foundation
import KeyCatInfrastructure
import Synchronization

/// A simulated Korean payment gateway that speaks a PortOne-v1-shaped REST API.
///
/// Use it in tests and staging in place of a real PG: point a gateway client at ``transport``
/// (in process) or serve ``handle(_:timeout:)`` from any HTTP server. The buyer's side of the
/// payment window is ``pay(merchantUID:cardNumber:amount:)``. Faults are configured with
/// ``PGFaultConfiguration`` (random, reproducible from a seed) or scripted one by one with
/// ``injectFault(_:on:times:)``. State lives in memory or in a SQLite file that several
/// simulators (in several processes) share; see ``storagePath(besideDatabase:)``.
///
/// Endpoints, test cards and fault knobs are listed in `docs/payments-gateway.md`.
///
/// Concurrency in one sentence: payment state is in SQLite behind ``SQLiteDatabase``'s locks
/// and every change is one immediate transaction; faults, counters and the webhook queue are
/// behind `Mutex`es.
public final class PGSimulator: HTTPHandler, Sendable {
    /// Where the simulator keeps its payments.
    public enum Storage: Sendable, Hashable {
        /// Private to this simulator, gone when it is.
        case inMemory
        /// A SQLite file shared with every simulator that opens it.
        case file(path: String)
    }

    /// The API key and secret `POST /users/getToken` accepts.
    public struct Credentials: Sendable, Hashable {
        public var key: String
        public var secret: String

        public init(key: String, secret: String) {
            self.key = key
            self.secret = secret
        }

        /// The simulator's default credentials.
        public static let test = Credentials(key: "imp_test_key", secret: "imp_test_secret_do_not_log")
    }

    /// A fresh webhook signing secret in the Standard Webhooks `whsec_` form: 32 random bytes.
    /// A simulator given none makes one, so no two simulators sign with a well-known secret.
    public static func randomWebhookSecret() -> String {
        // libcrypto's generator does not fail on a working system; Foundation's is the fallback.
        let bytes = (try? SecureRandom.bytes(count: 32)) ?? (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        return "whsec_" + Data(bytes).base64EncodedString()
    }

    /// The simulator file kept beside a KeyCat database: `keycat.db` → `keycat.pg.db`, any other
    /// name → name + `.pg.db`.
    public static func storagePath(besideDatabase databasePath: String) -> String {
        databasePath.hasSuffix(".db") ? String(databasePath.dropLast(3)) + ".pg.db" : databasePath + ".pg.db"
    }

    /// The `application_id` the simulator stamps on its file and requires of it.
    package static var storageApplication: SQLiteApplication { PGStore.application }

    public let credentials: Credentials
    /// The secret webhooks are signed with.
    public let webhookSecret: String
    /// How long an access token lives.
    public let tokenLifetime: Duration
    let store: PGStore
    let faults: Mutex<FaultPlan>
    let webhooks: Mutex<WebhookQueue>
    let sleeper: any Sleeper
    let now: @Sendable () -> Date

    /// Opens a simulator.
    ///
    /// - Parameters:
    ///   - storage: in memory, or a SQLite file (created when missing).
    ///   - webhookStyle: signed (the default) or PortOne v1's unsigned notifications.
    ///   - sleeper: how latency is waited out; inject one that does not sleep in tests.
    ///   - now: the simulator's clock, for token expiry, payment times and webhook timestamps.
    /// - Throws: ``PGSimulatorError/storage(_:)`` when the file cannot be opened.
    public init(
        storage: Storage = .inMemory, credentials: Credentials = .test,
        webhookSecret: String? = nil, webhookStyle: PGWebhookStyle = .signed, tokenLifetime: Duration = .seconds(1800),
        faults: PGFaultConfiguration = .none, sleeper: any Sleeper = TaskSleeper(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(PGSimulatorError) {
        do {
            switch storage {
            case .inMemory: store = try PGStore(path: ":memory:")
            case let .file(path): store = try PGStore(path: path)
            }
        } catch {
            throw .storage("\(error)")
        }
        self.credentials = credentials
        if let webhookSecret {
            // Standard Webhooks signs with the secret's bytes: an empty one signs with no key at all.
            guard !webhookSecret.isEmpty, webhookSecret != "whsec_" else { throw .storage("the webhook secret is empty") }
            self.webhookSecret = webhookSecret
        } else {
            self.webhookSecret = Self.randomWebhookSecret()
        }
        self.tokenLifetime = tokenLifetime
        webhooks = Mutex(WebhookQueue(style: webhookStyle))
        self.faults = Mutex(FaultPlan(configuration: faults))
        self.sleeper = sleeper
        self.now = now
    }

    /// A transport that hands requests to this simulator in process.
    public var transport: InProcessTransport { InProcessTransport(self) }

    /// The threads the simulator's state file is read and written on. ``handle(_:timeout:)``
    /// runs its work there by itself. The other methods (the payment window's, the reads of
    /// state) wait for SQLite on the calling thread: a server calls them from a task that
    /// prefers this executor (`withTaskExecutorPreference`), so that they hold none of the
    /// threads its other requests share.
    public var storageExecutor: any TaskExecutor { store.executor }

    /// Closes the state file.
    public func close() { store.close() }

    // MARK: Faults and counters

    /// Replaces the random fault configuration (and reseeds the generator).
    public func configureFaults(_ configuration: PGFaultConfiguration) {
        faults.withLock { plan in
            let scripted = plan.scripted
            let counts = plan.requestCounts
            plan = FaultPlan(configuration: configuration)
            plan.scripted = scripted
            plan.requestCounts = counts
        }
    }

    /// Makes the next `times` requests (to `endpoint`, or to any endpoint when nil) suffer `fault`.
    public func injectFault(_ fault: PGFault, on endpoint: PGEndpoint? = nil, times: Int = 1) {
        guard times > 0 else { return }
        faults.withLock { $0.scripted.append(.init(fault: fault, endpoint: endpoint, remaining: times)) }
    }

    /// Forgets all state: tokens, prepared amounts, payments, cancellations, queued webhooks,
    /// scripted faults and request counts; random faults are switched off. For a sandbox's
    /// control API between test runs.
    public func reset() throws(PGSimulatorError) {
        do { try store.reset() } catch { throw .storage("\(error)") }
        webhooks.withLock { $0.pending = [] }
        faults.withLock { $0 = FaultPlan(configuration: .none) }
    }

    /// The random fault configuration in force.
    public var faultConfiguration: PGFaultConfiguration { faults.withLock { $0.configuration } }

    /// Drops the scripted faults not yet used up.
    public func clearScriptedFaults() {
        faults.withLock { $0.scripted = [] }
    }

    /// Expires every access token now, as if their lifetime had passed.
    public func expireTokens() {
        try? store.expireAllTokens()
    }

    /// How many requests reached `endpoint` (faulted ones included).
    public func requestCount(_ endpoint: PGEndpoint) -> Int {
        faults.withLock { $0.requestCounts[endpoint, default: 0] }
    }

    /// How many requests reached the simulator in all.
    public var totalRequestCount: Int { faults.withLock { $0.requestCounts.values.reduce(0, +) } }

    // MARK: Reading state directly

    /// The payment `impUID`, read without going through HTTP or faults.
    public func payment(impUID: String) -> PGPaymentRecord? { try? store.payment(impUID: impUID) }

    /// The latest payment attempt of `merchantUID`.
    public func payment(merchantUID: String) -> PGPaymentRecord? { try? store.latestPayment(merchantUID: merchantUID) }

    /// The amount prepared for `merchantUID`.
    public func prepared(merchantUID: String) -> PGPrepared? { try? store.prepared(merchantUID: merchantUID) }

    /// The cancellations of `impUID`, oldest first.
    public func cancellations(impUID: String) -> [PGCancellation] { (try? store.cancellations(impUID: impUID)) ?? [] }

    // MARK: HTTP

    public func handle(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        guard let endpoint = PGEndpoint(method: request.method.rawValue, path: request.pathWithoutQuery) else {
            return PGWire.encode(status: 404, ["code": -1, "message": "Not Found", "response": NSNull()])
        }
        let (fault, latency) = faults.withLock { ($0.nextFault(for: endpoint), $0.configuration.latency) }
        if latency > .zero {
            await sleeper.sleep(for: min(latency, timeout))
            if latency >= timeout {
                _ = await respond(to: request, endpoint: endpoint)  // the PG finishes the work anyway
                throw .timedOut
            }
        }
        switch fault {
        case let .error(type)?:
            return PGWire.failure(type)
        case let .rateLimited(seconds)?:
            var response = PGWire.failure(.tooManyRequests)
            response.headers["Retry-After"] = String(seconds)
            return response
        case .malformedBody?:
            return TransportResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>maintenance".utf8))
        case .lostAnswer?:
            _ = await respond(to: request, endpoint: endpoint)
            throw .timedOut
        case nil:
            return await respond(to: request, endpoint: endpoint)
        }
    }

    /// Answers a request: checks the token (every endpoint but `getToken` needs one), then routes.
    /// Like v1, the simulator takes no idempotency keys: a repeated request runs again, and a
    /// retried cancel is made safe by its `checksum`.
    ///
    /// On the store's own threads: the token check and the route wait for SQLite, and the caller
    /// (a server's request handler, or KeyCat's payment use case on KeyCat's storage threads)
    /// keeps its thread meanwhile.
    private func respond(to request: TransportRequest, endpoint: PGEndpoint) async -> TransportResponse {
        await withTaskExecutorPreference(store.executor) {
            do {
                if endpoint != .getToken { try authorize(request) }
                return route(request, endpoint: endpoint)
            } catch let failure as PGFailure {
                return PGWire.failure(failure)
            } catch {
                return PGWire.failure(.internalServerError, "simulator storage failed")
            }
        }
    }
}
