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
        // The digit is fixed: a tag of eight hex letters (about one run in 2,500) would leave the
        // password without one, and the run would stop at its first account.
        let password = "simulation-2026-\(tag)"
        func account(_ name: String, _ role: Role) async throws(KeyCatError) -> User {
            try await keycat.accounts.createUser(
                SignUpForm(email: "\(name)-\(tag)@simulation.keycat", password: password, nick: String("\(name)\(tag)".prefix(20))),
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
