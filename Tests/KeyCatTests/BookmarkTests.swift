import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("Bookmarks")
struct BookmarkTests {
    @Test("adding and removing are idempotent and keep the product's count", arguments: TestStore.allCases)
    func idempotent(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let user = try await shop.user()
            let bookmarks = shop.keycat.bookmarks
            await #expect(try bookmarks.add(product.id, by: user))
            await #expect(try !bookmarks.add(product.id, by: user))
            await #expect(try bookmarks.isBookmarked(product.id, by: user))
            await #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == 1)
            await #expect(try bookmarks.remove(product.id, by: user))
            await #expect(try !bookmarks.remove(product.id, by: user))
            await #expect(try !bookmarks.isBookmarked(product.id, by: user))
            await #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == 0)
            // Removing what was never there, even of a product that does not exist, is fine.
            await #expect(try !bookmarks.remove(ProductID(9_999), by: user))
        }
    }

    @Test("the count drives the popular sort", arguments: TestStore.allCases)
    func popular(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let quiet = try await shop.product("조용한 키보드")
            let loved = try await shop.product("인기 키보드")
            for _ in 0..<3 { try await shop.keycat.bookmarks.add(loved.id, by: try shop.user()) }
            try await shop.keycat.bookmarks.add(quiet.id, by: try shop.user())
            let ranked = try await shop.keycat.catalog.list(ProductListRequest(sort: .popular)).items
            #expect(ranked.map(\.id) == [loved.id, quiet.id])
            #expect(ranked.map(\.bookmarkCount) == [3, 1])
        }
    }

    @Test("bookmarking a listing out of the catalog (its seller suspended) is not found, as its page is", arguments: TestStore.allCases)
    func unlisted(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let user = try await shop.user()
            let product = try await shop.product()
            _ = try await shop.keycat.accounts.suspend(product.sellerID, by: shop.shop.operatorConsole)
            // Until 2026-12-02 the bookmark was taken, and the buyer's list showed the hidden listing whole.
            await expectError(.notFound) { try await shop.keycat.bookmarks.add(product.id, by: user) }
            #expect(try await shop.keycat.bookmarks.bookmarks(by: user).items.isEmpty)
            _ = try await shop.keycat.accounts.reinstate(product.sellerID, by: shop.shop.operatorConsole)
            #expect(try await shop.keycat.bookmarks.add(product.id, by: user))
        }
    }

    @Test("bookmarking a missing or deleted product is not found; so is a withdrawn user", arguments: TestStore.allCases)
    func missing(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let user = try await shop.user()
            await expectError(.notFound) { try await shop.keycat.bookmarks.add(ProductID(9_999), by: user) }
            let product = try await shop.product()
            try await shop.keycat.catalog.delete(product.id, by: shop.shop.operatorConsole)
            await expectError(.notFound) { try await shop.keycat.bookmarks.add(product.id, by: user) }
            let live = try await shop.product("살아 있는 상품")
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: user)
            await expectError(.notFound) { try await shop.keycat.bookmarks.add(live.id, by: user) }
            await #expect(try shop.keycat.catalog.product(live.id).bookmarkCount == 0)
        }
    }

    @Test("a withdrawal erases the person's bookmarks, cart and follows, moving the counts back; others' follows of them stay",
          arguments: TestStore.allCases)
    func withdrawalErases(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let leaving = try await shop.user()
            let other = try await shop.user()
            let loved = try await shop.product("인기 키보드")
            let star = Principal(userID: loved.sellerID, role: .seller)
            try await shop.keycat.bookmarks.add(loved.id, by: leaving)
            try await shop.keycat.bookmarks.add(loved.id, by: other)
            _ = try await shop.keycat.cart.add(loved.id, by: leaving)
            try await shop.keycat.follows.follow(star.userID, by: leaving)
            try await shop.keycat.follows.follow(leaving.userID, by: other)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: leaving)
            // Until 2026-12-01 the bookmark kept lifting the listing, the follow the seller.
            await #expect(try shop.keycat.catalog.product(loved.id).bookmarkCount == 1)
            await #expect(try shop.keycat.follows.counts(of: star.userID).followers == 0)
            await #expect(try shop.keycat.follows.counts(of: leaving.userID).following == 0)
            #expect(try await shop.shop.integer("SELECT count(*) FROM cart_lines WHERE user_id = \(leaving.userID.rawValue)") == 0)
            #expect(try await shop.shop.integer("SELECT count(*) FROM bookmarks WHERE user_id = \(leaving.userID.rawValue)") == 0)
            // The other's follow of them is the other's list: it stays, shown withdrawn.
            let following = try await shop.keycat.follows.following(of: other.userID).items
            #expect(following.map(\.userID) == [leaving.userID] && following[0].isWithdrawn)
            await #expect(try shop.keycat.follows.counts(of: leaving.userID).followers == 1)
            try await shop.shop.expectHealthy()
        }
    }

    @Test("a seller cannot bookmark their own listing, which would lift it in the ranking", arguments: TestStore.allCases)
    func ownListing(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let product = try await shop.product()
            let seller = Principal(userID: product.sellerID, role: .seller)
            let refused = try await #require(throws: KeyCatError.self) { try await shop.keycat.bookmarks.add(product.id, by: seller) }
            #expect(refused.code == .forbidden && refused.context["product_id"] == "\(product.id)", "\(refused)")
            await #expect(try shop.keycat.catalog.product(product.id).bookmarkCount == 0)
            await #expect(try shop.keycat.bookmarks.isBookmarked(product.id, by: seller) == false)
            // Another seller's listing is bookmarked as any buyer's would be.
            let other = try await shop.product("다른 키보드")
            await #expect(try shop.keycat.bookmarks.add(other.id, by: seller))
        }
    }

    @Test("a user's bookmarks walk newest first, deleted products marked and removable", arguments: TestStore.allCases)
    func list(_ store: TestStore) async throws {
        try await SocialShop.with(store) { shop throws in
            let user = try await shop.user()
            var products: [Product] = []
            for index in 0..<5 {
                shop.clock.advance(by: Double(index % 2))  // some share a time: ties by id
                let product = try await shop.product("상품 \(index)")
                try await shop.keycat.bookmarks.add(product.id, by: user)
                products.append(product)
            }
            try await shop.keycat.bookmarks.add(try shop.product("남의 북마크").id, by: try shop.user())
            try await shop.keycat.catalog.delete(products[1].id, by: shop.shop.operatorConsole)

            let first = try await shop.keycat.bookmarks.bookmarks(by: user, limit: try PageLimit(2))
            let rest = try await shop.keycat.bookmarks.bookmarks(by: user, limit: try PageLimit(10), cursor: first.nextCursor)
            let all = first.items + rest.items
            #expect(rest.nextCursor == nil)
            #expect(all.map(\.product.id) == products.reversed().map(\.id))
            #expect(all.filter(\.isDeleted).map(\.product.id) == [products[1].id])

            try await shop.keycat.bookmarks.remove(products[1].id, by: user)
            await #expect(try shop.keycat.bookmarks.bookmarks(by: user).items.count == 4)
            await #expect(try shop.keycat.checkHealth().isHealthy)

            // Another user's cursor is not this user's.
            await expectError(.invalidCursor) {
                try await shop.keycat.bookmarks.bookmarks(by: try shop.user(), cursor: first.nextCursor)
            }
        }
    }
}
