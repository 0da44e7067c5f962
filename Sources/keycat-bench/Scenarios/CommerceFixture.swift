import Foundation
import KeyCat
import KeyCatPGSimulator

/// What the commerce rows share on either store: a buyer for each side, the keyboard they both
/// buy, ten lines in each cart, and KeyCat's side of checkout + confirm.
struct CommerceFixture {
    /// The listing the rows buy (and, retitled, bookmark): stock enough for any run.
    static let draft = ProductDraft(
        kind: .commercial, category: .keyboard, title: "벤치 키보드", content: "벤치마크용",
        pricing: Pricing(regularPrice: Money(won: 129_000), salePrice: Money(won: 119_000)),
        delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 1_000_000)
    /// The first synthetic seller.
    static let seller = UserID(1)

    /// The operator the fixture acts as.
    static let admin = Principal.operatorConsole("bench")
    let libraryBuyer: Principal
    let rawBuyer: Principal
    let product: Product

    init(_ keycat: KeyCat) async throws {
        func buyer(_ name: String) async throws -> Principal {
            let email = "\(name)-\(UUID().uuidString.prefix(8))@example.com"
            return try await keycat.accounts.createUser(SignUpForm(email: email, password: "keycat2026", nick: name),
                                                        role: .buyer, by: Self.admin).principal
        }
        libraryBuyer = try await buyer("lib")
        rawBuyer = try await buyer("raw")
        product = try await keycat.catalog.create(Self.draft, for: Self.seller, by: Self.admin)
    }

    /// Ten lines in each buyer's cart, through KeyCat; `rawLines` counts the raw side's, which
    /// must be ten too.
    func fillCarts(_ keycat: KeyCat, rawLines: () throws -> Int) async throws {
        for id in 1...10 {
            _ = try await keycat.cart.add(ProductID(Int64(id)), quantity: 1, by: libraryBuyer)
            _ = try await keycat.cart.add(ProductID(Int64(id)), quantity: 1, by: rawBuyer)
        }
        guard try await keycat.cart.cart(of: libraryBuyer).lines.count == 10, try rawLines() == 10 else {
            throw RawDatabase.Failure(description: "carts differ")
        }
    }

    /// One order of the keyboard, paid at the simulator and confirmed: KeyCat's side of the
    /// checkout + confirm rows.
    func checkoutAndConfirm(on keycat: KeyCat, simulator: PGSimulator) async throws {
        let order = try await keycat.checkout.checkout(
            CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])), by: libraryBuyer)
        let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
        _ = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: libraryBuyer)
    }
}
