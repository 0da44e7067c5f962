import CSQLite
import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator

/// Checkout + confirm, each with an idempotency key, on a database holding 1,000,000 keys (half
/// of them past their retention) against the same on a database whose key table is empty. Both
/// sides run the library on their own fresh file with the same seller, buyer and product, timed
/// alternately; the "raw" columns of this row are the empty-table side. Target ≤ 1.1: claiming a
/// key must not pay for the size of the table (expired keys are swept by reconciliation through
/// an index, never on the claim path).
struct IdempotencyScenario {
    let directory: URL
    let simulator: PGSimulator
    let keyCount: Int
    let operations: Int
    let log: (String) -> Void

    func run() async throws -> Comparison {
        let empty = try await Side(path: directory.appendingPathComponent("keys-empty.db").path, simulator: simulator)
        defer { empty.keycat.close() }
        let full = try await Side(path: directory.appendingPathComponent("keys-full.db").path, simulator: simulator)
        defer { full.keycat.close() }
        log("writing \(keyCount) idempotency keys, half expired…")
        try Self.seedKeys(keyCount, at: full.path)
        return try await compare(
            "checkout + confirm with keys, \(keyCount) keys ÷ empty table (FULL)", operations: operations, warmup: 10,
            target: .timeRatioAtMost(1.1),
            library: { _ in try await full.checkoutAndConfirm(simulator) },
            baseline: { _ in try await empty.checkoutAndConfirm(simulator) })
    }

    /// One file with a seller, a buyer and a product of 1,000,000 units.
    struct Side {
        let path: String
        let keycat: KeyCat
        let buyer: Principal
        let product: ProductID

        init(path: String, simulator: PGSimulator) async throws {
            self.path = path
            var configuration = KeyCat.Configuration(databasePath: path)
            configuration.paymentGateway = .simulator(simulator)
            configuration.gatewayLog = DiscardingLogSink()
            configuration.passwordIterations = 1_000
            configuration.stockHolds = nil  // one buyer, thousands of orders
            keycat = try await KeyCat.open(configuration)
            let admin = Principal.operatorConsole("bench")
            let seller = try await keycat.accounts.createUser(
                SignUpForm(email: "keys-seller@example.com", password: "keycat2026", nick: "키셀러"), role: .seller, by: admin)
            buyer = try await keycat.accounts.createUser(
                SignUpForm(email: "keys-buyer@example.com", password: "keycat2026", nick: "키바이어"), role: .buyer, by: admin).principal
            let draft = ProductDraft(
                kind: .commercial, category: .keyboard, title: "벤치 키보드", content: "벤치마크용",
                pricing: Pricing(regularPrice: Money(won: 129_000), salePrice: Money(won: 119_000)),
                delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 1_000_000)
            product = try await keycat.catalog.create(draft, for: seller.id, by: admin).id
        }

        func checkoutAndConfirm(_ simulator: PGSimulator) async throws {
            let order = try await keycat.checkout.checkout(
                CheckoutRequest(.items([CheckoutItem(productID: product, quantity: 1)]), idempotencyKey: UUID().uuidString), by: buyer)
            let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
            _ = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, idempotencyKey: UUID().uuidString, by: buyer)
        }
    }

    /// `count` completed keys in one transaction: even ones expired an hour ago, odd ones with a
    /// day to go, each with a stored answer the size of an order's.
    static func seedKeys(_ count: Int, at path: String) throws {
        let raw = try RawDatabase(path: path)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let day: Int64 = 86_400_000
        let answer = Array(repeating: UInt8(ascii: "x"), count: 400)
        try raw.execute("BEGIN IMMEDIATE")
        let insert = try raw.statement("""
            INSERT INTO idempotency_keys (scope, key, fingerprint, response, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for index in 0..<count {
            let expires = index % 2 == 0 ? now - 3_600_000 : now + day - 3_600_000
            sqlite3_reset(insert)
            raw.bindText(insert, 1, "checkout:\(index % 5_000)")
            raw.bindText(insert, 2, "seeded-\(index)")
            raw.bindText(insert, 3, "fingerprint-\(index)")
            _ = answer.withUnsafeBytes { keycat_sqlite3_bind_blob_transient(insert, 4, $0.baseAddress, Int32($0.count)) }
            sqlite3_bind_int64(insert, 5, expires - day)
            sqlite3_bind_int64(insert, 6, expires)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw RawDatabase.Failure(description: String(cString: sqlite3_errmsg(raw.handle))) }
        }
        try raw.execute("COMMIT")
    }
}
