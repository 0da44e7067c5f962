import Foundation
import KeyCat
import KeyCatPGSimulator

/// The cart read and checkout + confirm on Postgres, KeyCat against ``RawPostgresCommerce``.
/// (Postgres commits are durable by the server's `synchronous_commit`; there is no NORMAL row.)
struct PostgresCommerceScenarios {
    let keycat: KeyCat
    let raw: RawPostgres
    let simulator: PGSimulator
    let operations: Int

    func run() async throws -> [Comparison] {
        let admin = Principal.operatorConsole("bench")
        func buyer(_ name: String) throws -> Principal {
            let email = "\(name)-\(UUID().uuidString.prefix(8))@example.com"
            return try keycat.accounts.createUser(SignUpForm(email: email, password: "keycat2026", nick: name), role: .buyer, by: admin).principal
        }
        let libraryBuyer = try buyer("lib")
        let rawBuyer = try buyer("raw")
        let draft = ProductDraft(
            kind: .commercial, category: .keyboard, title: "벤치 키보드", content: "벤치마크용",
            pricing: Pricing(regularPrice: Money(won: 129_000), salePrice: Money(won: 119_000)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 1_000_000)
        let product = try keycat.catalog.create(draft, for: UserID(1), by: admin)

        var rows: [Comparison] = []
        let commerce = RawPostgresCommerce(database: raw, simulator: simulator, token: try await RawCommerce.token(from: simulator))
        // Ten lines in each buyer's cart.
        for id in 1...10 {
            _ = try keycat.cart.add(ProductID(Int64(id)), quantity: 1, by: libraryBuyer)
            _ = try keycat.cart.add(ProductID(Int64(id)), quantity: 1, by: rawBuyer)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        guard try keycat.cart.cart(of: libraryBuyer).lines.count == 10,
              try commerce.cartTotal(user: rawBuyer.userID.rawValue, now: now).lines == 10
        else { throw RawDatabase.Failure(description: "carts differ") }
        rows.append(try compare("cart read (10 lines)", operations: operations,
            library: { _ in _ = try keycat.cart.cart(of: libraryBuyer) },
            baseline: { _ in _ = try commerce.cartTotal(user: rawBuyer.userID.rawValue, now: now) }))

        rows.append(try await compareAsync("checkout + confirm", operations: max(50, operations / 10),
            library: { _ in
                let order = try await keycat.checkout.checkout(
                    CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])), by: libraryBuyer)
                let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
                _ = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: libraryBuyer)
            },
            baseline: { _ in try await commerce.checkoutAndConfirm(buyer: rawBuyer.userID.rawValue, product: product.id.rawValue) }))
        return rows
    }
}
