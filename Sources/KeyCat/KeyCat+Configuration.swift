import Foundation
import KeyCatDomain
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

extension KeyCat {
    /// Everything needed to open KeyCat. Only the database is required.
    public struct Configuration: Sendable {
        /// Where the rows live: a SQLite file or a Postgres database, each with its own settings,
        /// named as one value, so a configuration names exactly one store.
        public enum Store: Sendable, Hashable {
            /// A SQLite file (``SQLiteStore``): the embedded default.
            case sqlite(SQLiteStore)
            /// A Postgres database (``PostgresStore``), which several servers may share.
            case postgres(PostgresStore)

            /// The SQLite file at `path`, every other setting at its default.
            public static func sqlite(path: String) -> Store { .sqlite(SQLiteStore(path: path)) }

            /// The Postgres database at `url`, every other setting at its default
            /// (``PostgresStore/init(url:filesBeside:)``).
            public static func postgres(url: String, filesBeside: String) -> Store {
                .postgres(PostgresStore(url: url, filesBeside: filesBeside))
            }

            /// The SQLite file's settings; nil on Postgres. Settable in place:
            /// `configuration.store.sqlite?.durability = .normal` changes a SQLite store and
            /// leaves a Postgres one as it is.
            public var sqlite: SQLiteStore? {
                get { if case let .sqlite(file) = self { file } else { nil } }
                set { if let newValue { self = .sqlite(newValue) } }
            }

            /// The Postgres database's settings; nil on SQLite. Settable in place, as ``sqlite``.
            public var postgres: PostgresStore? {
                get { if case let .postgres(server) = self { server } else { nil } }
                set { if let newValue { self = .postgres(newValue) } }
            }
        }

        /// Where the rows live, and that store's own settings.
        public var store: Store
        /// The SQLite file, or on Postgres the path the files kept beside the database are placed
        /// by (``PostgresStore/filesBeside``).
        public var databasePath: String {
            switch store {
            case let .sqlite(file): file.path
            case let .postgres(server): server.filesBeside
            }
        }
        /// Whether the SQLite file is opened read-only (``SQLiteStore/readOnly``); never on Postgres.
        var isReadOnly: Bool { store.sqlite?.readOnly ?? false }
        /// Create what is missing: the SQLite file, and on either store the PG simulator's file
        /// beside the database. When false, a missing SQLite file is a storage error and no
        /// simulator file is made (payments are then `gatewayUnavailable`). A Postgres database
        /// must always exist already: KeyCat creates tables, never databases.
        public var createIfMissing: Bool = true
        /// Apply pending migrations (and restore missing indexes) on open. When false, an
        /// outdated schema is used as it is and only a newer one is refused. Tools that must not
        /// write at all set ``SQLiteStore/readOnly``, which implies this.
        public var migrates: Bool = true
        /// Where use cases read the time from.
        public var clock: any WallClock = SystemClock()

        /// PBKDF2 iterations for new password hashes. Default 600,000 (architecture §4); stored hashes
        /// with fewer are upgraded at the next log-in. Tests may lower it.
        public var passwordIterations: Int = 600_000
        /// The access-token signing key. Nil (the default): created on first open and kept in the
        /// database's `settings` table.
        public var tokenSigningKey: SecretKey?
        /// The pagination-cursor key. Nil (the default): created and kept like the signing key.
        public var cursorKey: SecretKey?
        /// The `iss` claim of access tokens. Default `"keycat"`.
        public var tokenIssuer: String = "keycat"
        /// How long an access token lives. Default 15 minutes.
        public var accessTokenLifetime: TimeInterval = 15 * 60
        /// How long a refresh token lives. Default 14 days.
        public var refreshTokenLifetime: TimeInterval = 14 * 24 * 60 * 60
        /// How long a refresh token family — one log-in and every refresh after it — lives at
        /// most, however often it is rotated. Default 30 days: then the user logs in again.
        public var refreshTokenFamilyLifetime: TimeInterval = AccountService.defaultRefreshTokenFamilyLifetime
        /// Where seller applications' business numbers are checked. Nil (the default): the
        /// `business_registry` table, loaded with ``KeyCat/loadBusinessRegistry(_:as:)``. A
        /// server may plug in the tax service's status API here.
        public var businessRegistry: (any BusinessRegistry)?
        /// Who may review what: answers whether a buyer received a product and confirmed it
        /// (``PurchaseHistory``). Nil (the default): KeyCat's own orders tables. A server or a
        /// test may plug in its own.
        public var purchaseHistory: (any PurchaseHistory)?
        /// How fast one user may toggle bookmarks and follows (a token bucket per user, per
        /// process). Default ``RateLimit/togglesDefault`` (2 a second, bursts of 30); nil turns
        /// limiting off.
        public var toggleRateLimit: RateLimit? = .togglesDefault
        /// How password guesses (log-ins, `PUT /me/password` and `POST /me/withdrawal`) are throttled, per (email,
        /// client), per client and per email, and per device token for clients that logged in
        /// before, in the database so that every process shares the count. Default
        /// ``LogInThrottlePolicy/standard`` (in 15 minutes: 10 per email from one client, 100 per
        /// client, past 30 per email a growing delay, 10 per device token); nil turns it off, and
        /// no device tokens are handed out.
        public var logInThrottle: LogInThrottlePolicy? = .standard
        /// How many sign-ups one client may make, counted in the database like log-ins. Default
        /// ``SignUpThrottlePolicy/standard`` (20 an hour); nil turns it off.
        public var signUpThrottle: SignUpThrottlePolicy? = .standard
        /// How long a server trusts an account's token version once read, in seconds (0–60).
        /// Changes made in this process take effect at once; changes made by another process
        /// (another server on the same Postgres database, `keycat-admin`) within this long.
        /// Default 5; 0 reads the version on every authenticated request.
        public var tokenVersionCacheLifetime: TimeInterval = AccountService.defaultTokenVersionCacheLifetime
        /// Where payments go. Default ``PaymentGatewayChoice/simulatorBesideDatabase``: the PG
        /// simulator in `keycat.pg.db` beside the database (staging, tests, the CLI). A server
        /// taking real money sets ``PaymentGatewayChoice/portOne(baseURL:apiKey:apiSecret:webhooks:)``.
        public var paymentGateway: PaymentGatewayChoice = .simulatorBesideDatabase
        /// With ``PaymentGatewayChoice/portOne(baseURL:apiKey:apiSecret:webhooks:)``: whether
        /// the PG's test (sandbox) payments pay for orders. False by default, so a live shop never
        /// ships for a payment in which no money moved; true for staging against a PG in test mode
        /// or `scripts/pg-sandbox`. The simulators always make test payments and always accept them.
        public var acceptsTestPayments = false
        /// Where the gateway client logs each PG exchange (secrets masked). Default: stderr.
        public var gatewayLog: any LogSink = StandardErrorLogSink()
        /// The gateway client's first backoff after a 5xx or a lost answer (it doubles per retry).
        public var gatewayInitialBackoff: Duration = .milliseconds(200)
        /// How long checkout holds stock for payment. Default 15 minutes.
        public var reservationLifetime: TimeInterval = 15 * 60
        /// How long reconciliation leaves a pending refund to the request that began it before
        /// sending it again itself: two sends racing could have the request hear the PG refuse
        /// what the other had just done, and record as failed a refund the buyer received.
        /// Default ``CheckoutService/defaultRefundInFlightWindow`` (2 minutes, past the PG
        /// client's deadlines); 0 to 1 day. Zero suits only a run no request can be racing (every
        /// server stopped).
        public var refundInFlightWindow: TimeInterval = CheckoutService.defaultRefundInFlightWindow
        /// How fast one caller's payment confirmations that would ask the PG may come: a loop of
        /// them would spend the shop's own budget of PG calls, which every buyer's payment
        /// shares. A confirm of an order its payment already paid costs nothing and is never
        /// limited. Default ``RateLimit/confirmationsDefault`` (30 at once, then one a second),
        /// in this process; nil turns it off.
        public var confirmationRate: RateLimit? = .confirmationsDefault
        /// How many images one seller may store: each image of a new listing or added to one
        /// takes a token before anything is written, and past them the upload is 429. A listing's
        /// images stay while it is listed and ``imageRetention`` after it is withdrawn, so this
        /// is what bounds one seller's share of the disk meanwhile. Default ``RateLimit/imageUploadsDefault``
        /// (500 at once, then 500 a day), shared by every server on a Postgres database, in the
        /// process on SQLite; operators are not counted; nil turns it off.
        public var imageUploadRate: RateLimit? = .imageUploadsDefault
        /// How long a withdrawn listing's images stay (its page may still be cached, a backup
        /// still copying, an operator still looking): then the daily sweep forgets them and
        /// deletes every stored image no listing names (``KeyCat/sweepImages(dryRun:)``). Images
        /// no listing ever named (a create that failed after storing them) go at the first sweep
        /// a day after they were stored. Default 30 days.
        public var imageRetention: TimeInterval = 30 * 24 * 60 * 60
        /// What unpaid orders may hold: half a product's unsold units across all buyers, at least
        /// 2 left on the shelf, 10 units of a product and 3 open orders per buyer (a line past a
        /// holding cap is sold on payment), and how fast one buyer may check out (5 at once, then
        /// one every 6 s). Default ``StockHoldPolicy/standard``; nil turns the caps off, every line
        /// then holding its units (load tests and simulations that run many orders per buyer).
        public var stockHolds: StockHoldPolicy? = .standard

        /// The highest delivery fee a listing may be given, on create and update (a higher one is
        /// `validation`, field `delivery_fee`). Default ``ProductDraft/defaultMaximumDeliveryFee``
        /// (₩50,000); 0 to 1,000,000 (``ProductDraft/deliveryFeeRange``). Listings that already
        /// carry a higher fee (the bound lowered) keep selling at it; any change that sets a fee
        /// must respect the bound.
        public var maximumDeliveryFee: Money = ProductDraft.defaultMaximumDeliveryFee

        /// The platform's commission on sellers' sales and delivery fees, used when a settlement
        /// period is closed. Default ``CommissionPolicy/standard``: 10 % of item amounts and 10 %
        /// of delivery fees, so moving a price into the fee changes nothing the platform keeps.
        public var commission: CommissionPolicy = .standard

        /// How long an order keeps its buyer's address after its last parcel arrived (or it
        /// closed): then only the postcode's district stays. Default 90 days, time to settle a
        /// return or a dispute; the order itself, its lines, amounts and delivery records stay
        /// for the five years 전자상거래법 시행령 §6 asks of supply records.
        public var addressRetention: TimeInterval = 90 * 24 * 60 * 60
        /// How long after delivery a parcel's receipt is confirmed for its buyer (구매확정), when
        /// they neither confirm it nor ask to return it: reconciliation does it on every run
        /// (``KeyCat/confirmDeliveredParcels()``). Default 7 days, as Korean open markets do;
        /// until then the buyer may ask for a return, and the parcel's sale waits to be settled.
        public var purchaseConfirmationDelay: TimeInterval = 7 * 24 * 60 * 60
        /// How parcels are tracked with their carriers (배송 조회): nil (the default) tracks none,
        /// and a parcel's delivery is its seller's word. With a tracker, reconciliation asks it
        /// about every parcel on its way (``KeyCat/trackParcels()``), and the
        /// ``purchaseConfirmationDelay`` runs from the delivery its carrier reports
        /// (docs/marketplace.md, "Carrier tracking").
        public var parcelTracker: (any ParcelTracker)?
        /// With a ``parcelTracker``: how long after it shipped a parcel no carrier has said was
        /// delivered (a made-up tracking number, a carrier the tracker cannot read) may be
        /// confirmed by time, its seller's word of delivery being all there is. Default 28 days,
        /// at least ``purchaseConfirmationDelay``; unused without a tracker.
        public var untrackedConfirmationDelay: TimeInterval = 28 * 24 * 60 * 60
        /// How long after its seller rejects a return (or after the delivery, when the parcel
        /// came later) the buyer may dispute the rejection, and how long a request its seller
        /// leaves undecided waits before the buyer may take it to the operators
        /// (``OrderService/disputeReturn(_:reason:by:)``), who then rule on it. Meanwhile, and
        /// while the dispute is open, time confirms no receipt of the parcel, so its sale is not
        /// paid out on the seller's word alone. Default 3 days; 0 takes no disputes: a seller's
        /// rejection is final, as it was before disputes.
        public var returnDisputeWindow: TimeInterval = OrderService.defaultDisputeWindow
        /// How long events stay in the log (docs/events.md) before reconciliation prunes them
        /// (``KeyCat/pruneEvents()``): a subscriber or webhook endpoint away longer than this
        /// resumes past what was pruned. Default 30 days; at least ``minimumEventRetention``.
        public var eventRetention: TimeInterval = 30 * 24 * 60 * 60
        /// How long the audit log keeps an entry before reconciliation prunes it
        /// (``KeyCat/pruneAuditLog()``): the log holds who refunded, cancelled, suspended or
        /// exported what, and the people's words some of those carry. Default 5 years, the
        /// longest 전자상거래법 시행령 §6 asks a shop to keep its records of contracts, payments and
        /// supply; from 1 year (개인정보의 안전성 확보조치 기준 §8 asks at least that of access
        /// records) to 10 years. Until 2026-12-02 nothing was ever pruned.
        public var auditRetention: TimeInterval = 5 * 365 * 24 * 60 * 60
        /// The shortest ``auditRetention``: a year.
        public static let minimumAuditRetention: TimeInterval = 365 * 24 * 60 * 60
        /// The shortest ``eventRetention``: 7 days, longer than the webhook retries' span, since
        /// pruning an event takes its deliveries with it.
        public static let minimumEventRetention: TimeInterval = 7 * 24 * 60 * 60
        /// Hosts webhook endpoints may use for development (docs/webhooks.md "Safe by default"):
        /// `http` as well as `https`, and loopback or private addresses, which are refused for
        /// every other host. Names or address literals (`localhost`, `127.0.0.1`, `::1`),
        /// compared lowercased. Default none; the example server reads
        /// `KEYCAT_WEBHOOK_ALLOWED_HOSTS`, and so does `keycat-admin webhooks add`.
        public var webhookDevelopmentHosts: Set<String> = []

        /// A configuration of `store`, every other setting at its default.
        public init(_ store: Store) {
            self.store = store
        }

        /// A configuration of the SQLite file at `databasePath`: `init(.sqlite(path:))`.
        public init(databasePath: String) {
            self.init(.sqlite(path: databasePath))
        }
    }

    /// What ``KeyCat/checkHealth()`` found. Empty lists mean healthy.
    public struct HealthReport: Sendable, Equatable {
        /// Problems reported by `PRAGMA integrity_check`.
        public var integrityProblems: [String]
        /// Rows whose foreign keys point nowhere.
        public var foreignKeyProblems: [String]
        /// Broken KeyCat invariants.
        public var invariantProblems: [String]
        /// Tables, indexes and triggers missing or unlike what KeyCat's migrations create.
        public var schemaProblems: [String] = []
        /// Where the search index and the catalog disagree (``SearchService/problems()``):
        /// `keycat-admin search reindex` rebuilds it.
        public var searchProblems: [String] = []
        /// Files beside the database that group or others may read or write, with the `chmod`
        /// to run (see ``KeyCat/filePermissionWarnings(databaseAt:)``). Warnings only: they do
        /// not make the database unhealthy.
        public var permissionWarnings: [String] = []

        /// Whether no problem was found (permission warnings aside).
        public var isHealthy: Bool {
            integrityProblems.isEmpty && foreignKeyProblems.isEmpty && invariantProblems.isEmpty && schemaProblems.isEmpty
                && searchProblems.isEmpty
        }

        /// Every problem found, each prefixed with the check that found it (`integrity:`,
        /// `foreign_keys:`, `invariants:`, `search:`), for reports that show them all in one list.
        public var allProblems: [String] {
            integrityProblems.map { "integrity: \($0)" } + foreignKeyProblems.map { "foreign_keys: \($0)" }
                + invariantProblems.map { "invariants: \($0)" } + searchProblems.map { "search: \($0)" }
        }
    }
}
