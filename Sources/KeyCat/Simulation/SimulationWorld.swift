import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

/// The sellers, products and buyers one simulation run creates, tagged so runs (and processes)
/// never collide. The products alternate between two sellers with different delivery fees, so
/// carts hold two sellers' parcels; every buyer keeps an address, and some check out to another
/// given inline.
struct SimulationWorld: Sendable {
    let tag: String
    let products: [ProductID]
    let initialStock: Int
    let buyers: [Principal]

    static func build(_ keycat: KeyCat, options: PaymentSimulation.Options) async throws(KeyCatError) -> SimulationWorld {
        let tag = String(UUID().uuidString.prefix(8)).lowercased()
        let console = Principal.operatorConsole("simulation")
        // Random, not derived from the tag the accounts' names show; the digit is fixed, since
        // random hex letters alone would now and then leave the password without one.
        let password = "simulation-2026-\(UUID().uuidString.lowercased())"
        func account(_ name: String, _ role: Role) async throws(KeyCatError) -> User {
            try await keycat.accounts.createUser(
                SignUpForm(email: "\(name)-\(tag)@\(emailDomain)", password: password, nick: String("\(name)\(tag)".prefix(20))),
                role: role, by: console)
        }
        let sellers = await [try account("seller", .seller).id, try account("seller2", .seller).id]
        let products = try await catalog(named: options.sharedCatalog ?? tag, count: max(1, options.products),
                                         stock: options.unitsPerProduct, sellers: sellers, in: keycat)
        var buyers: [Principal] = []
        for index in 0..<max(1, options.buyers) {
            let buyer = await Principal(userID: try account("b\(index)", .buyer).id, role: .buyer)
            _ = try await keycat.addresses.add(try address(index), by: buyer)
            buyers.append(buyer)
        }
        return SimulationWorld(tag: tag, products: products, initialStock: options.unitsPerProduct, buyers: buyers)
    }

    /// The domain of every account a run creates: a database holding any other account is a
    /// shop's, and a run never touches one.
    static let emailDomain = "simulation.keycat"

    /// Refuses a database that holds accounts a run did not create. A run moves its clock past
    /// every reservation and reconciles every order awaiting payment: on a shop's database it
    /// would expire real buyers' orders (the simulator knows none of their payments) and leave
    /// sellers and buyers whose passwords follow from their names.
    static func requireOwnDatabase(_ keycat: KeyCat) async throws(KeyCatError) {
        try refuse(foreignAccounts: try await storage { try await foreignAccounts(in: keycat.store.database) })
    }

    /// ``requireOwnDatabase(_:)`` before the run opens `store` to write: read-only, without
    /// migrating it or making the PG simulator's file beside it, so a shop's database is refused
    /// as it was found. A missing or empty SQLite file and a Postgres database without KeyCat's
    /// tables are new, the run's own. A store the probe cannot open (a file never initialised,
    /// another program's) is left to the run's own open, which refuses what is not KeyCat's,
    /// and to ``requireOwnDatabase(_:)`` after it.
    static func requireOwnDatabase(at store: KeyCat.Configuration.Store) async throws(KeyCatError) {
        var probe = KeyCat.Configuration(store)
        probe.createIfMissing = false
        probe.migrates = false
        switch store {
        case var .sqlite(file):
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            guard size > 0 else { return }
            file.readOnly = true
            guard let opened = try? await file.open(probe) else { return }
            try await refuseForeignAccounts(opened)
        case let .postgres(server):
            guard let opened = try? await server.open(probe) else { return }
            try await refuseForeignAccounts(opened)
        }
    }

    private static func refuseForeignAccounts<Store: OpenedStore>(_ opened: KeyCat.OpenedDatabase<Store>) async throws(KeyCatError) {
        defer { opened.store.close() }
        guard try await storage({ try await opened.store.schemaVersion() }) > 0 else { return }
        try refuse(foreignAccounts: try await storage { try await foreignAccounts(in: opened.store.database) })
    }

    private static func refuse(foreignAccounts others: Int) throws(KeyCatError) {
        guard others == 0 else {
            throw KeyCatError(.illegalTransition, "the database holds \(others) account\(others == 1 ? "" : "s") no simulation created: "
                              + "payments simulate runs only on a database of its own (a new file or Postgres database), "
                              + "since it moves time past every reservation and reconciles every order", context: ["accounts": "\(others)"])
        }
    }

    private static func foreignAccounts<Database: SQLDatabase>(in database: Database) async throws -> Int {
        try await database.read { connection in
            try connection.queryOne("SELECT count(*) FROM users WHERE email NOT LIKE ?", [.text("%@" + emailDomain)]) { $0.int(0) } ?? 0
        }
    }

    /// The catalog's products, created in one write transaction by the first run that names it,
    /// so runs in several processes find the same ones.
    private static func catalog(named name: String, count: Int, stock: Int, sellers: [UserID], in keycat: KeyCat) async throws(KeyCatError) -> [ProductID] {
        let now = keycat.configuration.clock.now()
        return try await storage {
            try await catalog(named: name, count: count, stock: stock, sellers: sellers, at: now, in: keycat.store.database)
        }
    }

    /// A buyer's address: Seoul postcodes and landline numbers that vary with `index`.
    static func address(_ index: Int) throws(KeyCatError) -> DeliveryAddress {
        try DeliveryAddress.validated(
            recipient: "구매자 \(index)", phone: String(format: "02-%04d-%04d", 2_000 + index % 8_000, index % 10_000),
            postcode: String(format: "0%04d", index % 10_000), roadAddress: "서울특별시 중구 세종대로 \(index % 200 + 1)",
            detail: "\(index % 30 + 1)층", request: "")
    }

    /// On Postgres the write is `SERIALIZABLE`, so two runs naming one catalog at once cannot
    /// both create it: the loser is retried and finds the winner's products.
    private static func catalog<Database: SQLDatabase>(
        named name: String, count: Int, stock: Int, sellers: [UserID], at now: Date, in database: Database
    ) async throws -> [ProductID] {
        try await database.write { connection in
                var products: [ProductID] = []
                for index in 0..<count {
                    let title = "Simulation switch \(index + 1) (\(name))"
                    if let existing = try connection.queryOne(
                        "SELECT id FROM products WHERE title = ? AND deleted_at IS NULL ORDER BY id LIMIT 1", [.text(title)], { $0.int64(0) }) {
                        products.append(ProductID(existing))
                    } else {
                        let product = try ProductRow.insert(
                            draft(title, stock: stock, fee: index % 2 == 0 ? 3_000 : 2_500).validated(at: now),
                            sellerID: sellers[index % sellers.count], images: [], at: now, on: connection)
                        products.append(product.id)
                    }
                }
            return products
        }
    }

    private static func draft(_ title: String, stock: Int, fee: Int64) -> ProductDraft {
        ProductDraft(
            kind: .commercial, category: .switch, title: title, content: "A switch made for the payment simulation.",
            pricing: Pricing(regularPrice: Money(won: 12_000), salePrice: Money(won: 9_900)),
            delivery: Delivery(fee: Money(won: fee), schedule: .nextDay), stock: stock,
            spec: KeyboardSpec(input: .mechanical, connection: .wired, pcb: .hotSwap, switchType: .linear,
                               layout: .other, keycapProfile: .cherry, backlight: false))
    }
}
