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
        let fixture = try await CommerceFixture(keycat)
        let libraryBuyer = fixture.libraryBuyer
        let rawBuyer = fixture.rawBuyer
        var draft = CommerceFixture.draft
        draft.title = "벤치 키캡"
        let bookmarked = try await keycat.catalog.create(draft, for: CommerceFixture.seller, by: CommerceFixture.admin)

        var rows: [Comparison] = []
        let gateway = try await RawGateway.signIn(to: simulator)
        let commerce = RawCommerce(database: raw, gateway: gateway)
        rows.append(try await compare("bookmark toggle", operations: operations,
            library: { index in
                if index % 2 == 0 { _ = try await keycat.bookmarks.add(bookmarked.id, by: libraryBuyer) }
                else { _ = try await keycat.bookmarks.remove(bookmarked.id, by: libraryBuyer) }
            },
            baseline: { index in try commerce.toggleBookmark(user: rawBuyer.userID.rawValue, product: bookmarked.id.rawValue, add: index % 2 == 0) }))

        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await fixture.fillCarts(keycat) { try commerce.cartTotal(user: rawBuyer.userID.rawValue, now: now).lines }
        rows.append(try await compare("cart read (10 lines)", operations: operations,
            library: { _ in _ = try await keycat.cart.cart(of: libraryBuyer) },
            baseline: { _ in _ = try commerce.cartTotal(user: rawBuyer.userID.rawValue, now: now) }))

        let checkouts = max(50, operations / 10)
        for (name, library, database) in [("FULL", keycat, raw), ("NORMAL", normalKeycat, normalRaw)] {
            let rawSide = RawCommerce(database: database, gateway: gateway)
            rows.append(try await onStorage(of: library) {
                try await compare("checkout + confirm (\(name))", operations: checkouts, warmup: 10,
                    library: { _ in try await fixture.checkoutAndConfirm(on: library, simulator: simulator) },
                    baseline: { _ in try await rawSide.checkoutAndConfirm(buyer: rawBuyer.userID.rawValue, product: fixture.product.id.rawValue) })
            })
        }
        return rows
    }
}
