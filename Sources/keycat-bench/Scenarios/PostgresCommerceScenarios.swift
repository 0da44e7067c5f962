import Foundation
import KeyCat
import KeyCatPGSimulator

/// Bookmark toggles, the cart read and checkout + confirm on Postgres, KeyCat against
/// ``RawPostgresCommerce``.
/// (Postgres commits are durable by the server's `synchronous_commit`; there is no NORMAL row.)
struct PostgresCommerceScenarios {
    let keycat: KeyCat
    let raw: RawPostgres
    let simulator: PGSimulator
    let operations: Int

    func run() async throws -> [Comparison] {
        let fixture = try await CommerceFixture(keycat)
        let rawBuyer = fixture.rawBuyer.userID.rawValue
        var rows: [Comparison] = []
        let commerce = RawPostgresCommerce(database: raw, gateway: try await RawGateway.signIn(to: simulator))
        var draft = CommerceFixture.draft
        draft.title = "벤치 키캡"
        let bookmarked = try await keycat.catalog.create(draft, for: CommerceFixture.seller, by: CommerceFixture.admin)
        rows.append(try await compare("bookmark toggle", operations: operations,
            library: { index in
                if index % 2 == 0 { _ = try await keycat.bookmarks.add(bookmarked.id, by: fixture.libraryBuyer) }
                else { _ = try await keycat.bookmarks.remove(bookmarked.id, by: fixture.libraryBuyer) }
            },
            baseline: { index in try commerce.toggleBookmark(user: rawBuyer, product: bookmarked.id.rawValue, add: index % 2 == 0) }))

        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await fixture.fillCarts(keycat) { try commerce.cartTotal(user: rawBuyer, now: now).lines }
        rows.append(try await compare("cart read (10 lines)", operations: operations,
            library: { _ in _ = try await keycat.cart.cart(of: fixture.libraryBuyer) },
            baseline: { _ in _ = try commerce.cartTotal(user: rawBuyer, now: now) }))

        rows.append(try await compare("checkout + confirm", operations: max(50, operations / 10), warmup: 10,
            library: { _ in try await fixture.checkoutAndConfirm(on: keycat, simulator: simulator) },
            baseline: { _ in try await commerce.checkoutAndConfirm(buyer: rawBuyer, product: fixture.product.id.rawValue) }))
        return rows
    }
}
