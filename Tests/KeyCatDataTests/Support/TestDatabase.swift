import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
@testable import KeyCatData

/// A migrated database in a fresh temporary folder, always closed and removed afterwards.
func withTestDatabase<Result>(_ body: (SQLiteDatabase) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = try SQLiteDatabase(path: folder.appendingPathComponent("keycat.db").path)
    defer { database.close() }
    try KeyCatSchema.migrator().migrate(database, now: Date(timeIntervalSince1970: 1_767_225_600))
    return try await body(database)
}

/// A migrated Postgres schema of its own (see `withPostgresDatabase`), always dropped afterwards.
func withPostgresTestDatabase<Result>(_ body: (PostgresDatabase) async throws -> Result) async throws -> Result {
    try await withPostgresDatabase { database in
        try KeyCatSchema.migrator().migrate(database, now: Date(timeIntervalSince1970: 1_767_225_600))
        return try await body(database)
    }
}

/// Two pools over one migrated Postgres schema: two servers sharing a database.
func withTwoPostgresServers<Result>(
    _ body: (PostgresDatabase, PostgresDatabase) async throws -> Result
) async throws -> Result {
    try await withPostgresSchema { configuration in
        let first = try PostgresDatabase(configuration: configuration)
        defer { first.close() }
        let second = try PostgresDatabase(configuration: configuration)
        defer { second.close() }
        try KeyCatSchema.migrator().migrate(first)
        return try await body(first, second)
    }
}

/// Where the repositories live in a test: all three must behave the same.
enum Backend: String, CaseIterable, Sendable {
    case inMemory
    case sqlite
    case postgres

    /// Every store, Postgres only when a server is configured (always under CI, where a missing
    /// server fails the Postgres cases instead of skipping them).
    static var allCases: [Backend] {
        PostgresTestServer.isConfigured || PostgresTestServer.isCI ? [.inMemory, .sqlite, .postgres] : [.inMemory, .sqlite]
    }

    /// The stores that keep rows in SQL.
    static var stored: [Backend] { allCases.filter { $0 != .inMemory } }
}

/// The account and seller use cases over one backend, with a test clock and cheap hashing.
struct AccountsHarness: Sendable {
    static let iterations = 1_000
    static let signingKey = [UInt8](repeating: 0x5A, count: 32)
    static let deviceKey = HMACDeviceTokenCodec.derivedKey(from: signingKey)

    let clock: TestClock
    let accounts: AccountService
    let sellers: SellerService
    let users: any UserRepository
    let hasher: PBKDF2PasswordHasher
    let database: SQLiteDatabase?
    let postgres: PostgresDatabase?
    /// The business registry the sellers' use cases ask, which a test may load again.
    let registry: InMemoryBusinessRegistry

    /// The rows `sql` selects, one value each as `decode` reads it, from the SQL store (nil in memory).
    func query<Value: Sendable>(_ sql: String, _ decode: @escaping (any SQLRow) -> Value) async throws -> [Value]? {
        if let database { return try await database.read { try $0.query(sql, []) { decode($0) } } }
        if let postgres { return try await postgres.read { try $0.query(sql, []) { decode($0) } } }
        return nil
    }

    /// Signs a buyer up with valid data and returns them.
    func signUp(_ email: String = "kim@example.com", password: String = "keycat2026", nick: String = "kim")
        async throws -> User
    {
        try await accounts.signUp(SignUpForm(email: email, password: password, nick: nick))
    }
}

func withAccounts(
    _ backend: Backend, iterations: Int = AccountsHarness.iterations,
    registry: [BusinessRegistryEntry] = [], throttle: LogInThrottlePolicy? = nil, signUpThrottle: SignUpThrottlePolicy? = nil,
    hasher wrapping: (PBKDF2PasswordHasher) -> any PasswordHasher = { $0 },
    tokens wrappingTokens: (any RefreshTokenRepository, any UserRepository) -> any RefreshTokenRepository = { tokens, _ in tokens },
    _ body: (AccountsHarness) async throws -> Void
) async throws {
    let clock = TestClock()
    let hasher = PBKDF2PasswordHasher(iterations: iterations)
    let cursors = HMACPageCursorCodec(key: [UInt8](repeating: 0x11, count: 32))
    let businessRegistry = InMemoryBusinessRegistry(registry)
    func make(users: any UserRepository, tokens: any RefreshTokenRepository,
              applications: any SellerApplicationRepository, attempts: any LogInAttemptStore,
              database: SQLiteDatabase?, postgres: PostgresDatabase? = nil) -> AccountsHarness {
        let versions = TokenVersionCache(lifetime: AccountService.defaultTokenVersionCacheLifetime)
        return AccountsHarness(
            clock: clock,
            accounts: AccountService(
                users: users, refreshTokens: wrappingTokens(tokens, users), passwords: wrapping(hasher),
                accessTokens: JWTAccessTokenCodec(key: AccountsHarness.signingKey),
                refreshTokenMinter: RandomRefreshTokenMinter(), cursors: cursors, clock: clock,
                logInThrottle: throttle.map {
                    LogInThrottle(policy: $0, store: attempts, devices: HMACDeviceTokenCodec(key: AccountsHarness.deviceKey))
                },
                signUpThrottle: signUpThrottle.map { SignUpThrottle(policy: $0, store: attempts) }, tokenVersions: versions),
            sellers: SellerService(
                applications: applications, users: users, registry: businessRegistry,
                cursors: cursors, clock: clock, tokenVersions: versions),
            users: users, hasher: hasher, database: database, postgres: postgres, registry: businessRegistry)
    }
    func stored(_ database: some SQLDatabase, sqlite: SQLiteDatabase?, postgres: PostgresDatabase? = nil) -> AccountsHarness {
        make(users: SQLUserRepository(database: database), tokens: SQLRefreshTokenRepository(database: database),
             applications: SQLSellerApplicationRepository(database: database),
             attempts: SQLLogInAttemptStore(database: database), database: sqlite, postgres: postgres)
    }
    switch backend {
    case .inMemory:
        let users = InMemoryUserRepository()
        try await body(make(
            users: users, tokens: InMemoryRefreshTokenRepository(),
            applications: InMemorySellerApplicationRepository(users: users), attempts: InMemoryLogInAttemptStore(),
            database: nil))
    case .postgres:
        try await withPostgresTestDatabase { try await body(stored($0, sqlite: nil, postgres: $0)) }
    case .sqlite:
        try await withTestDatabase { try await body(stored($0, sqlite: $0)) }
    }
}
