import Foundation
import KeyCat
import KeyCatPGSimulator

/// Bookmark toggles, cart reads and checkout + confirm, the writes at `synchronous=FULL` and,
/// for checkout, also at `NORMAL`.
struct CommerceScenarios {
    let keycat: KeyCat
    let normalKeycat: KeyCat
    let raw: RawDatabase
    let normalRaw: RawDatabase
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
        let seller = UserID(1)  // the first synthetic seller
        var draft = ProductDraft(
            kind: .commercial, category: .keyboard, title: "벤치 키보드", content: "벤치마크용",
            pricing: Pricing(regularPrice: Money(won: 129_000), salePrice: Money(won: 119_000)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 1_000_000)
        let product = try keycat.catalog.create(draft, for: seller, by: admin)
        draft.title = "벤치 키캡"
        let bookmarked = try keycat.catalog.create(draft, for: seller, by: admin)

        var rows: [Comparison] = []
        let commerce = RawCommerce(database: raw, simulator: simulator, token: try await RawCommerce.token(from: simulator))
        rows.append(try compare("bookmark toggle", operations: operations,
            library: { index in
                if index % 2 == 0 { _ = try keycat.bookmarks.add(bookmarked.id, by: libraryBuyer) }
                else { _ = try keycat.bookmarks.remove(bookmarked.id, by: libraryBuyer) }
            },
            baseline: { index in try commerce.toggleBookmark(user: rawBuyer.userID.rawValue, product: bookmarked.id.rawValue, add: index % 2 == 0) }))

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

        let checkouts = max(50, operations / 10)
        for (name, library, database) in [("FULL", keycat, raw), ("NORMAL", normalKeycat, normalRaw)] {
            let rawSide = RawCommerce(database: database, simulator: simulator, token: commerce.token)
            rows.append(try await compareAsync("checkout + confirm (\(name))", operations: checkouts,
                library: { _ in
                    let order = try await library.checkout.checkout(
                        CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])), by: libraryBuyer)
                    let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
                    _ = try await library.checkout.confirm(order.id, impUID: payment.impUID, by: libraryBuyer)
                },
                baseline: { _ in try await rawSide.checkoutAndConfirm(buyer: rawBuyer.userID.rawValue, product: product.id.rawValue) }))
        }
        return rows
    }
}
