import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

/// The seller, products and buyers one simulation run creates, tagged so runs (and processes)
/// never collide.
struct SimulationWorld: Sendable {
    let tag: String
    let products: [ProductID]
    let initialStock: Int
    let buyers: [Principal]

    static func build(_ keycat: KeyCat, options: PaymentSimulation.Options) throws(KeyCatError) -> SimulationWorld {
        let tag = String(UUID().uuidString.prefix(8)).lowercased()
        let console = Principal.operatorConsole("simulation")
        let password = "simulation-\(tag)"
        func account(_ name: String, _ role: Role) throws(KeyCatError) -> User {
            try keycat.accounts.createUser(
                SignUpForm(email: "\(name)-\(tag)@simulation.keycat", password: password, nick: String("\(name)\(tag)".prefix(20))),
                role: role, as: console)
        }
        let seller = try account("seller", .seller)
        let products = try catalog(named: options.sharedCatalog ?? tag, count: max(1, options.products),
                                   stock: options.unitsPerProduct, seller: seller.id, in: keycat)
        var buyers: [Principal] = []
        for index in 0..<max(1, options.buyers) {
            let buyer = try account("b\(index)", .buyer)
            buyers.append(Principal(userID: buyer.id, role: .buyer))
        }
        return SimulationWorld(tag: tag, products: products, initialStock: options.unitsPerProduct, buyers: buyers)
    }

    /// The catalog's products, created in one write transaction by the first run that names it,
    /// so runs in several processes find the same ones.
    private static func catalog(named name: String, count: Int, stock: Int, seller: UserID, in keycat: KeyCat) throws(KeyCatError) -> [ProductID] {
        let now = keycat.configuration.clock.now()
        return try storage {
            switch keycat.store {
            case let .sqlite(database): try catalog(named: name, count: count, stock: stock, seller: seller, at: now, in: database)
            case let .postgres(database): try catalog(named: name, count: count, stock: stock, seller: seller, at: now, in: database)
            }
        }
    }

    /// On Postgres the write is `SERIALIZABLE`, so two runs naming one catalog at once cannot
    /// both create it: the loser is retried and finds the winner's products.
    private static func catalog<Database: SQLDatabase>(
        named name: String, count: Int, stock: Int, seller: UserID, at now: Date, in database: Database
    ) throws -> [ProductID] {
        try database.write { connection in
                var products: [ProductID] = []
                for index in 0..<count {
                    let title = "Simulation switch \(index + 1) (\(name))"
                    if let existing = try connection.queryOne(
                        "SELECT id FROM products WHERE title = ? AND deleted_at IS NULL ORDER BY id LIMIT 1", [.text(title)], { $0.int64(0) }) {
                        products.append(ProductID(existing))
                    } else {
                        let product = try ProductRow.insert(
                            draft(title, stock: stock).validated(at: now), sellerID: seller, images: [], at: now, on: connection)
                        products.append(product.id)
                    }
                }
            return products
        }
    }

    private static func draft(_ title: String, stock: Int) -> ProductDraft {
        ProductDraft(
            kind: .commercial, category: .switch, title: title, content: "A switch made for the payment simulation.",
            pricing: Pricing(regularPrice: Money(won: 12_000), salePrice: Money(won: 9_900)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: stock,
            spec: KeyboardSpec(input: .mechanical, connection: .wired, pcb: .hotSwap, switchType: .linear,
                               layout: .other, keycapProfile: .cherry, backlight: false))
    }
}
