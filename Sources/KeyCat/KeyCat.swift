import Foundation
@_exported import KeyCatDomain
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

/// KeyCat's composition root: opens the database and hands out the use cases.
///
/// Open one `KeyCat` per database file per process and share it: it is `Sendable`, keeps one
/// writer and a few reader connections, and every use case it hands out is safe to call from
/// many tasks at once.
///
/// ```swift
/// let keycat = try await KeyCat.open(KeyCat.Configuration(databasePath: "/var/lib/keycat/keycat.db"))
/// defer { keycat.close() }
/// ```
public final class KeyCat: Sendable {
    /// The configuration the database was opened with.
    public let configuration: Configuration
    /// The migrations this `open` applied (empty when the schema was already current).
    public let migrationsApplied: [Int]
    /// The indexes and triggers this `open` recreated because they were missing (e.g. after a
    /// bulk load was killed between dropping and rebuilding them). Usually empty.
    public let schemaObjectsRestored: [String]
    /// Where the rows live: the store the configuration's ``Configuration/store`` opened.
    let store: any OpenedStore
    /// The signing and cursor keys. Never printed.
    let secrets: KeyCatSecrets

    /// Accounts: sign up, log in, refresh, log out, authenticate, profiles, withdrawal, and the
    /// operators' user management. See `docs/accounts.md`.
    public let accounts: AccountService
    /// Seller applications: apply, and the operators' list, approve and reject.
    public let sellers: SellerService
    /// The catalog: listings with specs and images, and their keyset-paginated lists.
    public let catalog: CatalogService
    /// Product images: in a folder beside the database, or in memory with an in-memory database
    /// (which leaves nothing on disk).
    let imageStore: any ImageStore
    /// The images folder beside the database; nil for an in-memory database.
    let imagesDirectory: URL?
    /// Reviews: write (buyers who paid), delete (author or admin), list per product or author.
    /// See `docs/social.md`.
    public let reviews: ReviewService
    /// Bookmarks: add, remove, "is bookmarked", a user's list. Rate-limited per user.
    public let bookmarks: BookmarkService
    /// Follows: follow, unfollow, "is following", counts, followers and following lists.
    /// Rate-limited per user, sharing the bookmarks' bucket.
    public let follows: FollowService
    /// Buyers' carts. See `docs/orders-and-payments.md`.
    public let cart: CartService
    /// Checkout, payment confirmation, PG webhooks and reconciliation.
    public let checkout: CheckoutService
    /// Orders after checkout: lists, shipping, delivery, cancellation, refunds, payments.
    public let orders: OrderService
    /// The users' address books (`/me/addresses`).
    public let addresses: AddressService
    /// Monthly settlements of what each seller is owed.
    public let settlements: SettlementService
    /// The operators' sales statistics: per day (in Asia/Seoul), by status, top products.
    /// See `docs/operations.md`.
    public let statistics: StatisticsService
    /// Search's synonyms, explanations and upkeep; searching itself is ``catalog``'s list with a
    /// text (docs/search.md).
    public let search: SearchService
    /// Verifies and applies the PG's webhooks (serve it at the URL the PG posts to).
    public let webhooks: PaymentWebhookReceiver
    /// The PG simulator payments go to, when the configuration chose one (else nil).
    public let paymentSimulator: PGSimulator?
    private let ownsSimulator: Bool

    /// The store's own threads, one per connection it can lend, on which every storage call
    /// runs while it waits for the database (architecture §7, "Waiting never blocks").
    ///
    /// The store alone decides where its work runs: every use case that touches storage is
    /// `async`, and each storage call hops to these threads on its own, so no caller's thread is
    /// ever held by a database round trip. Preferring this executor is an optimisation for a
    /// server's entry point, never a duty: a task that runs with it preferred —
    /// `withTaskExecutorPreference(keycat.storageExecutor) { … }`, as `KeyCatAPI` does for a
    /// route that writes — makes no hop between threads for each call it makes.
    public let storageExecutor: any TaskExecutor

    /// Wires every use case to `database`'s repositories: the same code for both stores.
    init<Store: OpenedStore>(configuration: Configuration, store: Store, secrets: KeyCatSecrets,
                             migrationsApplied: [Int], restored: [String], gateway setup: GatewaySetup) {
        let database = store.database
        self.configuration = configuration
        // A thread for every connection the store can lend: the readers and the writer.
        storageExecutor = database.storageExecutor
        self.store = store
        self.secrets = secrets
        self.migrationsApplied = migrationsApplied
        self.schemaObjectsRestored = restored
        let users = SQLUserRepository(database: database)
        let cursors = HMACPageCursorCodec(key: secrets.cursorKey)
        let attempts = SQLLogInAttemptStore(database: database)
        let devices = HMACDeviceTokenCodec(key: HMACDeviceTokenCodec.derivedKey(from: secrets.tokenSigningKey))
        let tokenVersions = TokenVersionCache(lifetime: configuration.tokenVersionCacheLifetime)
        accounts = AccountService(
            users: users, refreshTokens: SQLRefreshTokenRepository(database: database),
            passwords: PBKDF2PasswordHasher(iterations: configuration.passwordIterations),
            accessTokens: JWTAccessTokenCodec(
                key: secrets.tokenSigningKey, issuer: configuration.tokenIssuer,
                lifetime: configuration.accessTokenLifetime),
            refreshTokenMinter: RandomRefreshTokenMinter(), cursors: cursors, clock: configuration.clock,
            refreshTokenLifetime: configuration.refreshTokenLifetime,
            refreshTokenFamilyLifetime: configuration.refreshTokenFamilyLifetime,
            logInThrottle: configuration.logInThrottle.map { LogInThrottle(policy: $0, store: attempts, devices: devices) },
            signUpThrottle: configuration.signUpThrottle.map { SignUpThrottle(policy: $0, store: attempts) },
            // A read-only open (keycat-admin's read commands) cannot write the record; whoever runs
            // them can read the file itself.
            tokenVersions: tokenVersions, accessLog: configuration.isReadOnly ? nil : SQLAuditLog(database: database))
        sellers = SellerService(
            applications: SQLSellerApplicationRepository(database: database), users: users,
            registry: configuration.businessRegistry ?? SQLBusinessRegistry(database: database),
            cursors: cursors, clock: configuration.clock, tokenVersions: tokenVersions)
        if store.sharesServers {
            // Every server on the database serves every image: they live in it. The folder
            // beside only holds images from before, copied in as they are first served.
            let directory = FileSystemImageStore.directory(besideDatabaseAt: configuration.databasePath)
            imagesDirectory = directory
            imageStore = SQLImageStore(database: database, legacyFolder: FileSystemImageStore(directory: directory),
                                       clock: configuration.clock)
        } else if Self.isInMemory(configuration) {
            imagesDirectory = nil
            imageStore = InMemoryImageStore(clock: configuration.clock)
        } else {
            let directory = FileSystemImageStore.directory(besideDatabaseAt: configuration.databasePath)
            imagesDirectory = directory
            imageStore = FileSystemImageStore(directory: directory, clock: configuration.clock)
        }
        let products = SQLProductRepository(database: database)
        catalog = CatalogService(products: products, images: imageStore, cursors: cursors, clock: configuration.clock,
                                 maximumDeliveryFee: configuration.maximumDeliveryFee, sweepsLapsedDiscounts: !configuration.isReadOnly,
                                 imageUploadRate: configuration.imageUploadRate,
                                 imageUploadBuckets: store.sharesServers ? SQLTokenBucketStore(database: database, budget: .imageUploads) : nil)
        reviews = ReviewService(
            reviews: SQLReviewRepository(database: database, checksPurchase: configuration.purchaseHistory == nil), products: products,
            purchases: configuration.purchaseHistory ?? SQLPurchaseHistory(database: database),
            cursors: cursors, clock: configuration.clock)
        // One limiter for both toggles: the budget is per user, whatever they toggle. On Postgres,
        // where servers share the database, its buckets live there too (architecture §7).
        let toggles = PerUserRateLimiter(
            limit: configuration.toggleRateLimit, clock: configuration.clock,
            shared: store.sharesServers ? SQLTokenBucketStore(database: database, budget: .toggles) : nil)
        bookmarks = BookmarkService(
            bookmarks: SQLBookmarkRepository(database: database), limiter: toggles,
            cursors: cursors, clock: configuration.clock)
        follows = FollowService(
            follows: SQLFollowRepository(database: database), limiter: toggles,
            cursors: cursors, clock: configuration.clock)
        let carts = SQLCartRepository(database: database)
        let orderRepository = SQLOrderRepository(database: database)
        let idempotency = SQLIdempotencyStore(database: database)
        cart = CartService(carts: carts, products: products, clock: configuration.clock)
        checkout = CheckoutService(
            orders: orderRepository, carts: carts, products: products, gateway: setup.gateway,
            webhookEvents: SQLWebhookEventStore(database: database), idempotency: idempotency,
            clock: configuration.clock, reservationLifetime: configuration.reservationLifetime,
            auditLog: SQLAuditLog(database: database), holds: configuration.stockHolds,
            addresses: SQLAddressRepository(database: database), refundInFlightWindow: configuration.refundInFlightWindow,
            confirmationRate: configuration.confirmationRate)
        let addressBook = SQLAddressRepository(database: database)
        addresses = AddressService(addresses: addressBook, clock: configuration.clock)
        orders = OrderService(orders: orderRepository, gateway: setup.gateway, idempotency: idempotency,
                              cursors: cursors, clock: configuration.clock, fulfilment: SQLFulfilmentRepository(database: database),
                              disputeWindow: configuration.returnDisputeWindow,
                              untrackedDelay: configuration.parcelTracker == nil ? nil : configuration.untrackedConfirmationDelay,
                              accessLog: configuration.isReadOnly ? nil : SQLAuditLog(database: database))
        settlements = SettlementService(settlements: SQLSettlementRepository(database: database), commission: configuration.commission,
                                        cursors: cursors, clock: configuration.clock)
        statistics = StatisticsService(statistics: SQLSalesStatistics(database: database), clock: configuration.clock)
        search = SearchService(index: SQLSearchRepository(database: database), catalog: catalog, clock: configuration.clock)
        webhooks = PaymentWebhookReceiver(
            verifier: WebhookVerifier(secrets: setup.webhookSecrets, clock: configuration.clock), checkout: checkout,
            notifications: setup.acceptsNotifications
                ? NotificationBudget(perOrder: PaymentWebhookReceiver.notificationLimitPerOrder,
                                     overall: PaymentWebhookReceiver.notificationLimit, clock: configuration.clock) : nil,
            log: configuration.gatewayLog)
        paymentSimulator = setup.simulator
        ownsSimulator = setup.ownsSimulator
    }

    /// Opens the database, creating and migrating it as `configuration` says.
    ///
    /// The file must be KeyCat's: stamped with KeyCat's `application_id`, or a KeyCat database
    /// from before the stamp (recognised by its first migration, stamped on this open unless it
    /// is read-only), or empty/missing when `createIfMissing` allows creating it. Anything else
    /// (the PG simulator's `keycat.pg.db`, another program's database) is refused before a
    /// byte of it is written. A write-open that migrates also recreates any index or trigger
    /// the migrations made that has gone missing (``schemaObjectsRestored``).
    ///
    /// - Throws: ``KeyCatError/Code/storage`` when the file cannot be opened, is not a SQLite
    ///   database, is another application's, was written by a newer KeyCat, or (read-only) was
    ///   never initialised. The message names the path and what to do; nothing is created or
    ///   changed then. ``KeyCatError/Code/validation`` for a configuration out of range
    ///   (password iterations outside 1–10,000,000, token lifetimes not positive).
    public static func open(_ configuration: Configuration) async throws(KeyCatError) -> KeyCat {
        try validate(configuration)
        switch configuration.store {
        case let .sqlite(file): return try await open(try await file.open(configuration), configuration)
        case let .postgres(server): return try await open(try await server.open(configuration), configuration)
        }
    }

    /// KeyCat on a store just opened and migrated: the secrets loaded (or made), the gateway,
    /// every use case wired to the store's repositories. The same for every store.
    private static func open<Store: OpenedStore>(_ opened: OpenedDatabase<Store>, _ configuration: Configuration) async throws(KeyCatError) -> KeyCat {
        do {
            let writes = configuration.migrates && !configuration.isReadOnly
            let secrets = try await KeyCatSecrets.loadOrCreate(
                opened.store.database, tokenSigningKey: configuration.tokenSigningKey?.bytes, cursorKey: configuration.cursorKey?.bytes,
                persist: writes)
            let gateway = try makeGateway(configuration, simulatorWebhookSecret: secrets.simulatorWebhookSecret)
            return KeyCat(configuration: configuration, store: opened.store, secrets: secrets,
                          migrationsApplied: opened.migrationsApplied, restored: opened.restored, gateway: gateway)
        } catch {
            opened.store.close()
            throw error
        }
    }

    /// Closes every connection. Calls made afterwards fail with a storage error.
    public func close() {
        store.close()
        if ownsSimulator { paymentSimulator?.close() }
    }

    /// The schema version recorded in the database.
    public func schemaVersion() async throws(KeyCatError) -> Int {
        try await storage { try await store.schemaVersion() }
    }

    /// The newest schema version this build knows.
    public static var latestSchemaVersion: Int { KeyCatSchema.migrations.count }

    /// The audit log of operator actions.
    public var auditLog: any AuditLog { store.auditLog }

    /// The log of domain events (docs/events.md), written with the changes they report.
    public var eventLog: any EventLog { store.events }

    /// Every event after `position`, in commit order, waiting for new ones as they commit (in
    /// this process, another process on the same SQLite file, or another server on the same
    /// Postgres database) without polling:
    ///
    /// ```swift
    /// for try await event in keycat.events(after: storedPosition) {
    ///     try await handle(event)
    ///     storedPosition = event.position!  // keep it where the handling is kept
    /// }
    /// ```
    ///
    /// At least once: store each event's position after handling it, and resume from the stored
    /// one. Cancel the iterating task to stop.
    public func events(after position: EventPosition = .start) -> EventStream {
        EventStream(log: store.events, after: position)
    }

    /// Paging through the audit log, for operators.
    public var audit: AuditService {
        AuditService(log: auditLog, cursors: HMACPageCursorCodec(key: secrets.cursorKey))
    }

    /// Runs SQLite's integrity and foreign-key checks, KeyCat's invariants, and compares the
    /// schema with the one KeyCat's migrations build (every table, index and trigger), checks
    /// the search index against the catalog, and warns of files beside the database that group
    /// or others may read.
    public func checkHealth() async throws(KeyCatError) -> HealthReport {
        guard let file = store.file else {
            var report = HealthReport(integrityProblems: [], foreignKeyProblems: [], invariantProblems: try await storage { try await store.invariantProblems() })
            report.schemaProblems = try await storage { try await store.schemaProblems() }
            report.searchProblems = try await search.problems()
            return report
        }
        let health = try await storage { try await DatabaseHealth.check(file) }
        var report = HealthReport(
            integrityProblems: health.integrityProblems,
            foreignKeyProblems: health.foreignKeyProblems,
            invariantProblems: health.invariantProblems)
        report.schemaProblems = health.schemaProblems
        report.searchProblems = try await search.problems()
        report.permissionWarnings = Self.filePermissionWarnings(databaseAt: configuration.databasePath)
        return report
    }
}
