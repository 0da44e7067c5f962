import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// The ports kept only in SQL (reviews, bookmarks, follows, refunds, idempotency keys, webhook
/// events, statistics, the audit log, settings and the business registry) behave the same on
/// SQLite and on Postgres.
@Suite("Stored ports on SQLite and Postgres")
struct StoredPortsTests {
    @Test("a buyer whose order was delivered reviews once; the rating moves with the review and back with its deletion",
          arguments: Backend.stored)
    func reviews(_ backend: Backend) async throws {
        try await withPorts(backend) { ports in
            let id = ports.shop.product.id, buyer = ports.shop.buyer
            #expect(await keycatError { try await ports.reviews.write(ReviewForm(rating: 4, content: "smooth and quiet"), of: id, by: buyer) }?.code
                    == .forbidden)
            _ = try await ports.paidOrder(impUID: "imp_paid")
            // Paid is not enough: the order must have been delivered.
            #expect(await keycatError { try await ports.reviews.write(ReviewForm(rating: 4, content: "smooth and quiet"), of: id, by: buyer) }?.code
                    == .forbidden)
            _ = try await ports.receivedOrder(impUID: "imp_review")
            let review = try await ports.reviews.write(ReviewForm(rating: 4, content: "smooth and quiet"), of: id, by: buyer)
            #expect(review.authorNick == "buyer" && review.rating == 4)
            #expect(await keycatError { try await ports.reviews.write(ReviewForm(rating: 5, content: "second thoughts"), of: id, by: buyer) }?.code
                    == .duplicate)
            await #expect(try ports.shop.products.find(id)?.ratingCount == 1)
            await #expect(try ports.reviews.reviews(of: id).items.map(\.id) == [review.id])
            try await ports.reviews.delete(review.id, by: buyer)
            await #expect(try ports.shop.products.find(id)?.ratingCount == 0)
            await #expect(try ports.reviews.reviews(by: buyer.userID).items.isEmpty)
        }
    }

    @Test("bookmarks and follows are idempotent, keep their counters and page newest first", arguments: Backend.stored)
    func toggles(_ backend: Backend) async throws {
        try await withPorts(backend) { ports in
            let id = ports.shop.product.id, buyer = ports.shop.buyer
            await #expect(try ports.bookmarks.add(id, by: buyer))
            await #expect(try !ports.bookmarks.add(id, by: buyer))
            await #expect(try ports.bookmarks.isBookmarked(id, by: buyer))
            await #expect(try ports.shop.products.find(id)?.bookmarkCount == 1)
            await #expect(try ports.bookmarks.bookmarks(by: buyer).items.map(\.product.id) == [id])
            await #expect(try ports.bookmarks.remove(id, by: buyer))
            await #expect(try ports.shop.products.find(id)?.bookmarkCount == 0)

            let seller = UserID(1)
            await #expect(try ports.follows.follow(seller, by: buyer))
            await #expect(try !ports.follows.follow(seller, by: buyer))
            await #expect(try ports.follows.follow(seller, by: ports.admin))
            await #expect(try ports.follows.counts(of: seller) == FollowCounts(followers: 2, following: 0))
            let page = try await ports.follows.followers(of: seller, limit: PageLimit(1))
            #expect(page.items.map(\.userID) == [ports.admin.userID])
            let next = try await ports.follows.followers(of: seller, limit: PageLimit(1), cursor: page.nextCursor)
            #expect(next.items.map(\.userID) == [buyer.userID])
            #expect(await keycatError { try await ports.follows.follow(buyer.userID, by: buyer) }?.code == .forbidden)
            await #expect(try ports.follows.unfollow(seller, by: buyer))
            await #expect(try ports.follows.counts(of: buyer.userID) == FollowCounts(followers: 0, following: 0))
        }
    }

    @Test("a partial then a full refund move the balance, the status and, with restock, the stock", arguments: Backend.stored)
    func refunds(_ backend: Backend) async throws {
        try await withPorts(backend) { ports in
            let order = try await ports.paidOrder(quantity: 2, impUID: "imp_refund")
            await #expect(try ports.shop.stock() == 3)
            let partial = try await ports.orders.refund(order.id, RefundRequest(amount: Money(won: 1_000), reason: "scratch"),
                                                         by: ports.admin)
            #expect(partial.status == .partiallyRefunded && partial.refundedAmount == Money(won: 1_000))
            let full = try await ports.orders.refund(order.id, RefundRequest(reason: "returned", restock: true), by: ports.admin)
            #expect(full.status == .refunded && full.refundedAmount == order.amount)
            await #expect(try ports.shop.stock() == 5)
            await #expect(try ports.shop.orders.refunds(of: order.id).map(\.status) == [.done, .done])
            let statuses = try await ports.statistics.report(by: ports.admin).ordersByStatus
            #expect(statuses.contains { $0.status == .refunded && $0.count == 1 })
        }
    }

    @Test("idempotency keys replay, refuse other input and wait for a running request; a webhook id counts once",
          arguments: Backend.stored)
    func idempotencyAndWebhooks(_ backend: Backend) async throws {
        try await withPorts(backend) { ports in
            let store = ports.idempotency, now = ports.shop.clock.now()
            await #expect(try store.claim(scope: "s", key: "k", fingerprint: "f", at: now, retention: 86_400, lease: 60) == .claimed)
            #expect(await keycatError { try await store.claim(scope: "s", key: "k", fingerprint: "f", at: now, retention: 86_400, lease: 60) }?.code
                    == .requestInProgress)
            try await store.complete(scope: "s", key: "k", response: Data([0, 1, 0xFF]), claimedAt: now)
            await #expect(try store.claim(scope: "s", key: "k", fingerprint: "f", at: now, retention: 86_400, lease: 60)
                          == .replay(Data([0, 1, 0xFF])))
            #expect(await keycatError { try await store.claim(scope: "s", key: "k", fingerprint: "g", at: now, retention: 86_400, lease: 60) }?.code
                    == .idempotencyKeyReused)
            await #expect(try store.sweepExpired(before: now.addingTimeInterval(86_401), limit: 10) == 1)
            await #expect(try !ports.webhookEvents.isRecorded("msg_1"))
            await #expect(try ports.webhookEvents.recordFirstDelivery(of: "msg_1", at: now))
            await #expect(try ports.webhookEvents.isRecorded("msg_1"))
            await #expect(try !ports.webhookEvents.recordFirstDelivery(of: "msg_1", at: now))
            await #expect(try !ports.webhookEvents.isRecorded("msg_2"))
        }
    }

    @Test("db check's invariants hold after orders, refunds, reviews and toggles, and name a tampered row",
          arguments: Backend.stored)
    func invariants(_ backend: Backend) async throws {
        try await withPorts(backend) { ports in
            let order = try await ports.receivedOrder(quantity: 2, impUID: "imp_check")
            _ = try await ports.orders.refund(order.id, RefundRequest(amount: Money(won: 500), reason: "dent"), by: ports.admin)
            _ = try await ports.reviews.write(ReviewForm(rating: 5, content: "lovely switches"), of: ports.shop.product.id,
                                              by: ports.shop.buyer)
            _ = try await ports.bookmarks.add(ports.shop.product.id, by: ports.shop.buyer)
            _ = try await ports.follows.follow(UserID(1), by: ports.shop.buyer)
            await #expect(try ports.invariants() == [])
            try await ports.tamper("UPDATE products SET bookmark_count = 7, stock = stock + 1")
            try await ports.tamper("UPDATE users SET follower_count = 0 WHERE id = 1")
            let problems = try await ports.invariants()
            #expect(problems.contains { $0.contains("bookmark_count is 7") })
            #expect(problems.contains { $0.contains("follower_count") || $0.contains("user 1") })
            #expect(problems.count >= 3, "\(problems)")
        }
    }

    @Test("the audit log, the settings' keys and the business registry read back what was written", arguments: Backend.stored)
    func auditSettingsRegistry(_ backend: Backend) async throws {
        try await withPorts(backend) { ports in
            let now = ports.shop.clock.now()
            for action in ["product.create", "order.refund", "product.create"] {
                try await ports.auditLog.record(AuditEntry(actor: "admin:3", action: action, target: "x", at: now))
            }
            let created = try await ports.audit.list(AuditFilter(action: "product.create"), by: ports.admin)
            #expect(created.items.count == 2 && created.items.allSatisfy { $0.action == "product.create" })
            let keys = try await ports.secrets()
            await #expect(try ports.secrets().tokenSigningKey == keys.tokenSigningKey)
            let number = try BusinessRegistrationNumber("220-81-62517")
            let loaded = try await ports.registry.load([BusinessRegistryEntry(number: number, status: .active)], now,
                                                       AuditEntry(actor: "admin:3", action: "registry.load", at: now))
            #expect(loaded == 1)
            #expect(try await ports.registry.status(number) == .active)
        }
    }
}
