import Foundation
import KeyCat
import KeyCatAPI
import Logging

/// What the server reads from its environment.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `KEYCAT_DB` | the SQLite file, or a `postgres://` URL | `keycat.db` |
/// | `KEYCAT_FILES` | on Postgres, where the images folder and the PG simulator's file go, named as a database path would | `keycat.db` |
/// | `HOST`, `PORT` | where to listen | `127.0.0.1`, `8080` |
/// | `KEYCAT_TOKEN_SIGNING_KEY`, `KEYCAT_CURSOR_KEY` | base64 of 32+ random bytes each | kept in the database |
/// | `KEYCAT_PG_URL`, `KEYCAT_PG_API_KEY`, `KEYCAT_PG_API_SECRET` | a PortOne v1 PG (real, or `scripts/pg-sandbox`) | the simulator beside the database |
/// | `KEYCAT_PG_WEBHOOK_SECRETS` (comma-separated) | with `KEYCAT_PG_URL`: the PG signs its webhooks (Standard Webhooks) with one of these; unset, webhooks are v1's unsigned notifications, re-read from the PG before anything is believed | unset |
/// | `KEYCAT_PG_TEST_PAYMENTS` | with `KEYCAT_PG_URL`: `1` lets the PG's test (sandbox) payments pay for orders — staging, `scripts/pg-sandbox`; never on a live shop | off: a test payment fails its order and is cancelled |
/// | `LOG_LEVEL` | `trace` … `critical` | `info` |
/// | `KEYCAT_RECONCILE_SECONDS` | how often reconciliation runs beside the server (expired reservations give their stock back, lost PG answers are settled); 0 turns it off | `60` |
/// | `KEYCAT_SIMULATED_CARRIERS` | `1` tracks parcels with KeyCat's simulated carriers (`SimulatedCarriers`: every number unknown until a test reports it), so local servers and the console show carrier tracking; a shop plugs its tracking service's client into `Configuration.parcelTracker` instead | off: no tracking |
/// | `KEYCAT_WEBHOOK_DELIVERY` | `0` turns off webhook delivery in this process (another server delivers) | on |
/// | `KEYCAT_WEBHOOK_ALLOWED_HOSTS` | comma-separated hosts webhook endpoints may reach over http and on loopback or private addresses, for development (docs/webhooks.md) | none |
/// | `KEYCAT_HTTP_STATUS_PROFILE` | `standard`, or `keycat-app` for the KeyCat app's old statuses (410, 418, 419, 445) | `standard` |
/// | `KEYCAT_ACCESS_TOKEN_SECONDS`, `KEYCAT_PASSWORD_ITERATIONS` | for tests only: short-lived tokens, cheap hashing | 900, 600,000 |
/// | `KEYCAT_BENCH_ROUTES` | `1` adds `GET /bench/static` (see ``BenchRoutes``) | off |
/// | `KEYCAT_TRUSTED_PROXIES` | comma-separated addresses and CIDR networks of reverse proxies whose `X-Forwarded-For` names the client (the right-most untrusted hop); from any other peer the header is ignored | none: the peer is the client |
/// | `KEYCAT_SIGN_UPS_PER_CLIENT` | sign-ups one client may make per hour; `0` turns sign-up throttling off | 20 |
/// | `KEYCAT_READ_TIMEOUT_SECONDS` | the longest a request may take to arrive, from its first byte to its last (head and body); a connection still sending one then is closed | 30 |
/// | `KEYCAT_IDLE_TIMEOUT_SECONDS` | how long a connection may wait with no request arriving and no answer owed before it is closed | 60 |
/// | `KEYCAT_TOKEN_VERSION_CACHE_SECONDS` | how long a token version read from the database is trusted, 0–60: the longest a suspension, password reset or role change made by another server or `keycat-admin` takes to stop the account's access tokens here | 5 |
/// | `KEYCAT_CONSOLE` | `0` turns the admin console at `/admin/` off | on |
/// | `KEYCAT_CONSOLE_DIR` | where the console's files are | `Examples/HummingbirdServer/Console` in the repository |
/// | `KEYCAT_CONSOLE_SECURE_COOKIES` | `1`: the console is reached over https, its cookies are `Secure` (also set per request when a trusted proxy sends `X-Forwarded-Proto: https`) | off |
struct ServerSettings {
    var host = "127.0.0.1"
    var port = 8080
    var logLevel = Logger.Level.info
    var benchRoutes = false
    var statusProfile = HTTPStatusProfile.standard
    /// Nil: no reconciliation in this process.
    var reconcileEvery: Duration? = .seconds(60)
    var trustedProxies = TrustedProxies.none
    /// Whether this process runs the webhook delivery loop.
    var deliversWebhooks = true
    /// The request head's size and the connections' read and idle deadlines.
    var connections = ConnectionLimits()
    var keycat: KeyCat.Configuration
    /// The admin console at `/admin/` (``AdminConsoleMiddleware``); nil with `KEYCAT_CONSOLE=0`.
    var console: ConsoleSettings? = ConsoleSettings()

    struct ConsoleSettings {
        /// `KEYCAT_CONSOLE_DIR`, else the repository's `Examples/HummingbirdServer/Console`.
        var directory = AdminConsoleAssets.defaultDirectory
        /// `KEYCAT_CONSOLE_SECURE_COOKIES=1`: the server is reached over https (behind a proxy
        /// that does not say so with `X-Forwarded-Proto`), so its cookies are `Secure`.
        var secureCookies = false
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(environment: [String: String]) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw Invalid(description: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not \(text)")
            }
            return number
        }
        func key(_ name: String) throws -> SecretKey? {
            guard let text = value(name) else { return nil }
            guard let bytes = Data(base64Encoded: text), let key = try? SecretKey(bytes: Array(bytes)) else {
                throw Invalid(description: "\(name) must be base64 of at least \(SecretKey.minimumByteCount) random bytes")
            }
            return key
        }

        let database = value("KEYCAT_DB") ?? "keycat.db"
        if database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") {
            // The rows go to Postgres; the images and the PG simulator's state stay on this disk.
            keycat = KeyCat.Configuration(.postgres(url: database, filesBeside: value("KEYCAT_FILES") ?? "keycat.db"))
        } else {
            keycat = KeyCat.Configuration(databasePath: database)
        }
        host = value("HOST") ?? host
        if value("KEYCAT_CONSOLE") == "0" {
            console = nil
        } else {
            if let directory = value("KEYCAT_CONSOLE_DIR") { console?.directory = URL(fileURLWithPath: directory) }
            console?.secureCookies = value("KEYCAT_CONSOLE_SECURE_COOKIES") == "1"
        }
        port = try integer("PORT", in: 0...65535) ?? port
        if let level = value("LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: level) else {
                throw Invalid(description: "LOG_LEVEL must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            logLevel = parsed
        }
        benchRoutes = value("KEYCAT_BENCH_ROUTES") == "1"
        deliversWebhooks = value("KEYCAT_WEBHOOK_DELIVERY") != "0"
        if value("KEYCAT_SIMULATED_CARRIERS") == "1" { keycat.parcelTracker = SimulatedCarriers() }
        keycat.webhookDevelopmentHosts = Set((value("KEYCAT_WEBHOOK_ALLOWED_HOSTS") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        if let seconds = try integer("KEYCAT_RECONCILE_SECONDS", in: 0...86_400) {
            reconcileEvery = seconds == 0 ? nil : .seconds(seconds)
        }
        if let profile = value("KEYCAT_HTTP_STATUS_PROFILE") {
            guard let parsed = HTTPStatusProfile(rawValue: profile) else {
                throw Invalid(description: "KEYCAT_HTTP_STATUS_PROFILE must be one of \(HTTPStatusProfile.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            statusProfile = parsed
        }
        keycat.tokenSigningKey = try key("KEYCAT_TOKEN_SIGNING_KEY")
        keycat.cursorKey = try key("KEYCAT_CURSOR_KEY")
        if let seconds = try integer("KEYCAT_ACCESS_TOKEN_SECONDS", in: 1...86_400) {
            keycat.accessTokenLifetime = TimeInterval(seconds)
        }
        if let iterations = try integer("KEYCAT_PASSWORD_ITERATIONS", in: 1_000...10_000_000) {
            keycat.passwordIterations = iterations
        }
        if let proxies = value("KEYCAT_TRUSTED_PROXIES") {
            do {
                trustedProxies = try TrustedProxies(proxies)
            } catch {
                throw Invalid(description: "KEYCAT_TRUSTED_PROXIES: \(error.message)")
            }
        }
        if let perHour = try integer("KEYCAT_SIGN_UPS_PER_CLIENT", in: 0...10_000_000) {
            keycat.signUpThrottle = perHour == 0 ? nil : try SignUpThrottlePolicy(window: 3_600, attemptsPerClient: perHour)
        }
        // One buyer's sustained checkouts a minute, after the burst of five; 0 lifts the rate
        // (a load test's buyers), while the caps on open orders and held units stay.
        if let perMinute = try integer("KEYCAT_CHECKOUTS_PER_MINUTE", in: 0...1_000_000) {
            var holds = keycat.stockHolds ?? .standard
            holds.checkoutRate = perMinute == 0
                ? nil : try RateLimit(perSecond: Double(perMinute) / 60, burst: StockHoldPolicy.defaultCheckoutRate.burst)
            keycat.stockHolds = holds
        }
        // One caller's confirms that ask the PG, a second, after a burst of 30; 0 lifts it (a
        // load test's buyers confirm every order they pay at once).
        if let perSecond = try integer("KEYCAT_CONFIRMS_PER_SECOND", in: 0...1_000_000) {
            keycat.confirmationRate = perSecond == 0
                ? nil : try RateLimit(perSecond: Double(perSecond), burst: RateLimit.confirmationsDefault.burst)
        }
        if let seconds = try integer("KEYCAT_READ_TIMEOUT_SECONDS", in: 1...3_600) {
            connections.readTimeout = .seconds(seconds)
        }
        if let seconds = try integer("KEYCAT_IDLE_TIMEOUT_SECONDS", in: 1...86_400) {
            connections.idleTimeout = .seconds(seconds)
        }
        if let seconds = try integer("KEYCAT_TOKEN_VERSION_CACHE_SECONDS", in: 0...60) {
            keycat.tokenVersionCacheLifetime = TimeInterval(seconds)
        }
        if let url = value("KEYCAT_PG_URL") {
            guard let baseURL = URL(string: url), let apiKey = value("KEYCAT_PG_API_KEY"),
                  let apiSecret = value("KEYCAT_PG_API_SECRET") else {
                throw Invalid(description: "KEYCAT_PG_URL needs KEYCAT_PG_API_KEY and KEYCAT_PG_API_SECRET")
            }
            let webhooks: KeyCat.PaymentWebhooks = value("KEYCAT_PG_WEBHOOK_SECRETS").map {
                .signed(secrets: $0.split(separator: ",").map(String.init))
            } ?? .portOneNotifications
            keycat.paymentGateway = .portOne(baseURL: baseURL, apiKey: apiKey, apiSecret: apiSecret, webhooks: webhooks)
            keycat.acceptsTestPayments = value("KEYCAT_PG_TEST_PAYMENTS") == "1"
        }
    }

    /// Where the server answers itself (for the simulator's webhooks): a wildcard address is
    /// reached on loopback.
    var selfURL: URL {
        let reachable = switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") ? "[\(host)]" : host
        }
        return URL(string: "http://\(reachable):\(port)")!
    }
}
