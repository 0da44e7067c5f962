import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport

/// A KeyCat on a fresh file in a temporary directory, with a test clock and cheap password
/// hashing, closed and removed after the body.
struct TestShop {
    let keycat: KeyCat
    let clock: TestClock
    let directory: URL
    let operatorConsole = Principal.operatorConsole("tester")

    /// - Parameter configure: adjusts the configuration before opening (a purchase history, a
    ///   rate limit…).
    static func with<Result>(
        configure: (inout KeyCat.Configuration) -> Void = { _ in }, _ body: (TestShop) throws -> Result
    ) async throws -> Result {
        try await withTemporaryDirectory { directory async throws in
            let shop = try await TestShop(directory: directory, configure: configure)
            defer { shop.keycat.close() }
            return try body(shop)
        }
    }

    static func with<Result>(
        configure: (inout KeyCat.Configuration) -> Void = { _ in }, _ body: (TestShop) async throws -> Result
    ) async throws -> Result {
        try await withTemporaryDirectory { directory async throws in
            let shop = try await TestShop(directory: directory, configure: configure)
            defer { shop.keycat.close() }
            return try await body(shop)
        }
    }

    /// The same shop on `store`: its rows in a fresh file, or in a fresh Postgres schema (its
    /// images and PG simulator still in a temporary directory).
    static func with<Result>(
        _ store: TestStore, configure: @escaping (inout KeyCat.Configuration) -> Void = { _ in },
        _ body: (TestShop) async throws -> Result
    ) async throws -> Result {
        guard store == .postgres else { return try await with(configure: configure, body) }
        return try await withPostgresSchema { postgres in
            let url = try postgres.schemaURL()
            return try await with(configure: { configuration in
                configuration.store = .postgres(url: url, filesBeside: configuration.databasePath)
                configure(&configuration)
            }, body)
        }
    }

    /// A configuration naming a fresh store of `store`'s kind, nothing opened: a file in a
    /// temporary directory, or a fresh Postgres schema with its files in one.
    static func withConfiguration<Result>(
        _ store: TestStore, _ body: (KeyCat.Configuration) async throws -> Result
    ) async throws -> Result {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("shop.db").path
            guard store == .postgres else { return try await body(KeyCat.Configuration(databasePath: path)) }
            return try await withPostgresSchema { postgres in
                try await body(KeyCat.Configuration(.postgres(url: try postgres.schemaURL(), filesBeside: path)))
            }
        }
    }

    private init(directory: URL, configure: (inout KeyCat.Configuration) -> Void = { _ in }) async throws {
        self.directory = directory
        var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("shop.db").path)
        configuration.clock = TestClock()
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        configuration.gatewayInitialBackoff = .milliseconds(1)
        configure(&configuration)
        // A configuration may bring its own test clock (a gateway built around it): it is the
        // shop's, so that `clock.advance` moves what the shop sees.
        guard let clock = configuration.clock as? TestClock else { preconditionFailure("a TestShop runs on a TestClock") }
        self.clock = clock
        keycat = try await KeyCat.open(configuration)
    }

    /// A new user with `role`, as a principal.
    func user(_ role: Role, _ name: String = "user\(UUID().uuidString.prefix(6))") async throws -> Principal {
        let user = try await keycat.accounts.createUser(
            SignUpForm(email: "\(name)@example.com", password: "keycat123", nick: String(name.prefix(20))),
            role: role, by: operatorConsole)
        return Principal(userID: user.id, role: role)
    }

    /// A valid keyboard listing; `change` adjusts it.
    static func draft(_ title: String = "Felt F99 유무선 기계식 키보드", price: Int64 = 129_000,
                      _ change: (inout ProductDraft) -> Void = { _ in }) -> ProductDraft {
        var draft = ProductDraft(
            kind: .commercial, category: .keyboard, title: title, content: "가스켓 마운트, 핫스왑 PCB.",
            pricing: Pricing(regularPrice: Money(won: price + 20_000), salePrice: Money(won: price)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 10,
            spec: KeyboardSpec(input: .mechanical, connection: .multi, pcb: .hotSwap, switchType: .linear,
                               layout: .seventyFivePercent, keycapProfile: .cherry, backlight: true))
        change(&draft)
        return draft
    }
}

import Testing

/// Expects `body` to throw a ``KeyCatError`` with `code` (and, when given, naming `field`).
func expectError<Result>(
    _ code: KeyCatError.Code, field: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Result
) async {
    do {
        _ = try await body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as KeyCatError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field { #expect(error.context["field"] == field, "\(error)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
