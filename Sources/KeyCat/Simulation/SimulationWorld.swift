import Foundation
import KeyCatDomain

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
        var products: [ProductID] = []
        for index in 0..<max(1, options.products) {
            let product = try keycat.catalog.create(
                draft("Simulation switch \(index + 1) (\(tag))", stock: options.unitsPerProduct), for: seller.id, by: console)
            products.append(product.id)
        }
        var buyers: [Principal] = []
        for index in 0..<max(1, options.buyers) {
            let buyer = try account("b\(index)", .buyer)
            buyers.append(Principal(userID: buyer.id, role: .buyer))
        }
        return SimulationWorld(tag: tag, products: products, initialStock: options.unitsPerProduct, buyers: buyers)
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
