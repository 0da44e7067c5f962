import Foundation
@testable import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// The event log on each store: every change a shop reacts to is told once, in commit order,
/// with its change and never without it; subscribers resume after a position and are woken by
/// other instances' commits rather than by polling.
@Suite("Domain events", .serialized)
struct EventTests {
    @Test("an order's life is told as events in the order it happened, with no part of the address", arguments: TestStore.allCases)
    func orderLife(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let product = try await shop.product(stock: 1, price: 50_000)
            let start = try #require(try await keycat.eventLog.settled(after: .start).last?.position)
            let buyer = try await shop.user(.buyer)
            let address = try DeliveryAddress.validated(recipient: "김민아", phone: "01055551234", postcode: "06236",
                                                        roadAddress: "서울특별시 강남구 테헤란로 152", detail: "12층", request: "")
            let order = try await keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)]),
                                                                           destination: .inline(address)), by: buyer)
            let payment = try shop.pay(order)
            _ = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            _ = try await keycat.orders.ship(order.id, carrier: "CJ대한통운", trackingNumber: "123456789012", by: shop.operatorConsole)
            let delivered = try await keycat.orders.deliver(order.id, by: shop.operatorConsole)
            let parcel = try #require(delivered.shipments.first)
            _ = try await keycat.orders.confirmReceipt(of: parcel.id, by: buyer)
            _ = try await keycat.orders.refund(order.id, RefundRequest(reason: "불량", restock: true), by: shop.operatorConsole)

            let events = try await keycat.eventLog.settled(after: start)
            // The one unit is more than a buyer may hold unpaid (StockHoldPolicy): it is taken,
            // and the shelf empties, with the payment; the refund's restock comes before its event.
            try #require(events.map(\.type) == [
                .orderCreated, .productOutOfStock, .orderPaid, .shipmentShipped, .shipmentDelivered,
                .shipmentReceiptConfirmed, .productBackInStock, .orderRefunded,
            ])
            let positions = events.compactMap(\.position)
            #expect(positions.count == events.count && positions == positions.sorted() && Set(positions).count == positions.count)
            #expect(Set(events.map(\.id)).count == events.count && events.allSatisfy { $0.id.hasPrefix("evt_") && $0.id.count == 36 })
            #expect(events.allSatisfy { $0.occurredAt <= shop.clock.now() && $0.schemaVersion == 1 })

            let created = events[0], paid = events[2], shipped = events[3], refunded = events[7]
            #expect(created.aggregate == EventAggregate(.order, order.id.rawValue))
            #expect(created.data["amount"] == .integer(order.amount.won) && created.data["buyer_id"] == .integer(buyer.userID.rawValue))
            #expect(created.data["lines"] == [["product_id": .integer(product.id.rawValue), "seller_id": .integer(product.sellerID.rawValue),
                                               "title": .string(product.title), "quantity": 1, "unit_price": 50_000]])
            #expect(paid.data["imp_uid"] == .string(payment.impUID) && paid.data["status"] == "paid"
                    && paid.data["amount"] == .integer(order.amount.won))
            #expect(shipped.aggregate == EventAggregate(.shipment, parcel.id.rawValue) && shipped.data["tracking_number"] == "123456789012"
                    && shipped.data["order_id"] == .integer(order.id.rawValue) && shipped.data["seller_id"] == .integer(product.sellerID.rawValue))
            #expect(events[5].data["confirmed_by"] == "buyer")
            #expect(refunded.data["full"] == true && refunded.data["refund_amount"] == .integer(order.amount.won)
                    && refunded.data["refunded_amount"] == .integer(order.amount.won) && refunded.data["status"] == "refunded")
            #expect(events[1].data["stock"] == 0 && events[6].data["stock"] == 1 && events[6].aggregate == EventAggregate(.product, product.id.rawValue))
            // Nothing of where the parcel went: a receiver asks for the order under its own rights.
            let texts = events.map { $0.data.json() }.joined()
            for secret in ["김민아", "5555-1234", "55551234", "06236", "테헤란로", "12층", "recipient", "phone", "postcode"] {
                #expect(!texts.contains(secret), "\(secret) in \(texts)")
            }
            // One event by its id, as a webhook receiver would look it up.
            await #expect(try keycat.eventLog.event(id: paid.id) == paid)
            await #expect(try keycat.eventLog.event(id: "evt_none") == nil)
        }
    }

    @Test("a return's life is told on its parcel: asked for, rejected by its seller, disputed, approved on the dispute; no one's words",
          arguments: TestStore.allCases)
    func returnLife(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let product = try await shop.product(stock: 5, price: 40_000)
            let seller = Principal(userID: product.sellerID, role: .seller)
            let buyer = try await shop.user(.buyer)
            let parcel = try #require(try await shop.paidOrder(product, by: buyer).shipments.first).id
            _ = try await keycat.orders.ship(shipment: parcel, carrier: "cj", trackingNumber: "553120261123", by: seller)
            _ = try await keycat.orders.deliver(shipment: parcel, by: seller)
            let start = try #require(try await keycat.eventLog.settled(after: .start).last?.position)
            let asked = try await keycat.orders.requestReturn(of: parcel, reason: "010-1234-5678로 연락 주세요", by: buyer)
            _ = try await keycat.orders.rejectReturn(asked.id, reason: "포장 훼손으로 불가", by: seller)
            _ = try await keycat.orders.disputeReturn(asked.id, reason: "처음부터 훼손되어 왔어요", by: buyer)
            _ = try await keycat.orders.approveReturn(asked.id, restock: true, by: shop.operatorConsole)

            let events = try await keycat.eventLog.settled(after: start)
            let told = events.filter { $0.type.rawValue.hasPrefix("return.") }
            try #require(told.map(\.type) == [.returnRequested, .returnRejected, .returnDisputed, .returnApproved])
            // The approval is told before the refund it makes.
            let approved = try #require(events.firstIndex { $0.type == .returnApproved })
            #expect(events[approved...].contains { $0.type == .orderRefunded })
            #expect(told.allSatisfy {
                $0.aggregate == EventAggregate(.shipment, parcel.rawValue) && $0.data["return_id"] == .integer(asked.id.rawValue)
                    && $0.data["buyer_id"] == .integer(buyer.userID.rawValue) && $0.data["seller_id"] == .integer(product.sellerID.rawValue)
            })
            #expect(told.map { $0.data["status"] } == ["requested", "rejected", "disputed", "approved"])
            #expect(told[1].data["disputable"] == true && told[1].data["disputed"] == false && told[3].data["disputed"] == true)
            let texts = told.map { $0.data.json() }.joined()
            for words in ["010", "연락", "포장", "훼손"] { #expect(!texts.contains(words), "\(words) in \(texts)") }
            try await shop.expectHealthy()
        }
    }

    @Test("a change that fails writes no event, and a cancelled unpaid order and the catalog's changes are told", arguments: TestStore.allCases)
    func rollbackAndCatalog(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let seller = try await shop.user(.seller)
            let board = try await keycat.catalog.create(TestShop.draft("Board") { $0.stock = 1 }, for: seller.userID, by: seller)
            let caps = try await keycat.catalog.create(TestShop.draft("Caps") { $0.stock = 0 }, for: seller.userID, by: seller)
            let buyer = try await shop.user(.buyer)
            let before = try await keycat.eventLog.settled(after: .start)
            // The board's take (and its stock reaching zero) is in the transaction the caps refuse.
            await expectFailure(.outOfStock) {
                try await keycat.checkout.checkout(CheckoutRequest(.items([
                    CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 1),
                ])), by: buyer)
            }
            await #expect(try keycat.eventLog.settled(after: .start) == before)
            #expect(try await shop.stock(of: board.id) == 1)

            let mark = try #require(before.last?.position)
            let order = try await shop.checkout(board, by: buyer)
            _ = try await keycat.orders.cancel(order.id, reason: "변심", by: buyer)
            var changes = ProductChanges(expectedVersion: nil)
            changes.title = "Board v2"
            _ = try await keycat.catalog.update(board.id, changes, by: seller)
            try await keycat.catalog.delete(caps.id, by: seller)
            let events = try await keycat.eventLog.settled(after: mark)
            // The board's one unit is sold on payment (more than a buyer may hold), so the shelf
            // never emptied.
            try #require(events.map(\.type) == [.orderCreated, .orderCancelled, .productUpdated, .productWithdrawn])
            #expect(events[1].data["cause"] == "cancelled" && events[1].data["paid"] == false && events[1].data["status"] == "cancelled")
            #expect(events[2].data["changed"] == ["title"] && events[2].data["title"] == "Board v2")
            #expect(events[3].aggregate == EventAggregate(.product, caps.id.rawValue) && events[3].data["cause"] == "seller")
            // Both creates were told, before the mark.
            #expect(before.filter { $0.type == .productCreated }.map(\.aggregate.id).suffix(2) == [board.id.rawValue, caps.id.rawValue])
            try await shop.expectHealthy()
            // db check: an event about nothing, or an entity's creation told twice, is a problem.
            try await shop.execute("""
                INSERT INTO events (id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data)
                VALUES ('evt_forged', 'order.paid', 'order', 999999, 0, 1, '{}'),
                       ('evt_twice', 'product.created', 'product', \(board.id.rawValue), 0, 1, '{}')
                """)
            let problems = try await keycat.checkHealth().invariantProblems
            #expect(problems.contains("event evt_forged (order.paid): order 999999 does not exist"), "\(problems)")
            #expect(problems.contains("product.created was written 2 times for \(board.id.rawValue)"), "\(problems)")
        }
    }

    @Test("operators' decisions are told: an application approved and one rejected, a user suspended; and a withdrawal", arguments: TestStore.allCases)
    func operatorDecisions(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            try await keycat.loadBusinessRegistry(try ["220-81-62517", "220-81-62176"].map {
                BusinessRegistryEntry(number: try BusinessRegistrationNumber($0), status: BusinessStatus(taxServiceCode: "01"))
            }, by: shop.operatorConsole)
            let mark = try await keycat.eventLog.settled(after: .start).last?.position ?? .start
            let applicants = [try await shop.user(.buyer), try await shop.user(.buyer), try await shop.user(.buyer)]
            var applications: [SellerApplication] = []
            for (index, applicant) in applicants.enumerated() {
                // The third number is not in the registry: refused at once.
                let number = ["2208162517", "220-81-62176", "120-81-47521"][index]
                applications.append(try await keycat.sellers.apply(
                    SellerApplicationForm(businessNumber: number, representativeName: "홍길동",
                                          openingDate: try CalendarDate(iso8601: "2020-01-01")), by: applicant))
            }
            _ = try await keycat.sellers.approve(applications[0].id, by: shop.operatorConsole)
            _ = try await keycat.sellers.reject(applications[1].id, reason: "서류 불일치", by: shop.operatorConsole)
            _ = try await keycat.accounts.suspend(applicants[1].userID, by: shop.operatorConsole)
            try await keycat.accounts.withdraw(password: "keycat123", by: applicants[2])
            let events = try await keycat.eventLog.settled(after: mark)
            try #require(events.map(\.type) == [.sellerApplicationRejected, .sellerApplicationApproved, .sellerApplicationRejected,
                                                 .userSuspended, .userWithdrawn])
            #expect(applications[2].status == .rejected && events[0].aggregate == EventAggregate(.sellerApplication, applications[2].id.rawValue))
            #expect(events[1].data["user_id"] == .integer(applicants[0].userID.rawValue))
            #expect(events[2].data["reason"] == "서류 불일치" && events[2].aggregate == EventAggregate(.sellerApplication, applications[1].id.rawValue))
            #expect(events[3].aggregate == EventAggregate(.user, applicants[1].userID.rawValue))
            // A withdrawal is told by id alone, and kept in the audit log.
            #expect(events[4].data == ["user_id": .integer(applicants[2].userID.rawValue)])
            let audit = try await keycat.audit.list(AuditFilter(action: "user.withdraw"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["user:\(applicants[2].userID)"])
        }
    }

    @Test("an unpaid order expired inside another buyer's checkout, and a discount that lapsed, are told", arguments: TestStore.allCases)
    func expiryAndLapsedDiscount(_ store: TestStore) async throws {
        try await TestShop.with(store, configure: { $0.stockHolds = nil }) { shop in
            let keycat = shop.keycat
            let product = try await shop.product(stock: 1)
            let (first, second) = (try await shop.user(.buyer), try await shop.user(.buyer))
            let lapsed = try await shop.order(of: product, by: first)
            let mark = try #require(try await keycat.eventLog.settled(after: .start).last?.position)
            shop.clock.advance(by: 21 * 60)  // the reservation's 15 minutes and the late payment's 5
            let taken = try await shop.order(of: product, by: second)
            let events = try await keycat.eventLog.settled(after: mark)
            try #require(events.map(\.type) == [.productBackInStock, .orderCancelled, .productOutOfStock, .orderCreated])
            #expect(events[1].aggregate == EventAggregate(.order, lapsed.id.rawValue) && events[1].data["cause"] == "expired"
                    && events[1].data["status"] == "expired")
            #expect(events[3].aggregate == EventAggregate(.order, taken.id.rawValue))

            // A discount that ends: the price goes back up, told as an edit of its pricing.
            let seller = try await shop.user(.seller)
            let discounted = try await keycat.catalog.create(TestShop.draft("Sale") {
                $0.pricing = Pricing(regularPrice: Money(won: 150_000), salePrice: Money(won: 120_000),
                                     discountEndsAt: shop.clock.now().addingTimeInterval(3_600))
            }, for: seller.userID, by: seller)
            let beforeSweep = try #require(try await keycat.eventLog.settled(after: mark).last?.position)
            shop.clock.advance(by: 2 * 3_600)
            #expect(try await keycat.catalog.sweepLapsedDiscounts() == 1)
            let swept = try await keycat.eventLog.settled(after: beforeSweep)
            #expect(swept.map(\.type) == [.productUpdated] && swept.first?.data["changed"] == ["pricing"]
                    && swept.first?.data["price"] == 150_000 && swept.first?.aggregate.id == discounted.id.rawValue)
        }
    }

    @Test("a subscriber resumes after its position and is woken by another instance's commit, not by polling",
          arguments: TestStore.allCases)
    func wakeUpAcrossInstances(_ store: TestStore) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            let clock = TestClock()
            let reader = try await TestShop.open(configuration, clock: clock)
            defer { reader.close() }
            let writer = try await TestShop.open(configuration, clock: clock)
            defer { writer.close() }
            let seller = try await writer.accounts.createUser(
                SignUpForm(email: "seller@example.com", password: "keycat123", nick: "seller"), role: .seller,
                by: .operatorConsole("tester"))
            let principal = Principal(userID: seller.id, role: .seller)
            let first = try await writer.catalog.create(TestShop.draft("First"), for: seller.id, by: principal)
            let position = try #require(try await reader.eventLog.settled(after: .start).last?.position)

            // Caught up: the stream waits. Its safety-net re-read is an hour away, so only a
            // wake-up can deliver the next event within the test's five minutes (as long, on a
            // shared server, as another suite's transaction may hold newer events back).
            let stream = EventStream(log: reader.eventLog, after: position, idleCheck: .seconds(3_600))
            let received = Task { () throws -> DomainEvent? in
                var iterator = stream.makeAsyncIterator()
                return try await iterator.next()
            }
            try await Task.sleep(for: .milliseconds(200))
            let second = try await writer.catalog.create(TestShop.draft("Second"), for: seller.id, by: principal)
            let event = try await withThrowingTaskGroup(of: DomainEvent?.self) { group in
                group.addTask { try await received.value }
                group.addTask {
                    try await Task.sleep(for: .seconds(300))
                    received.cancel()
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(event?.type == .productCreated && event?.aggregate.id == second.id.rawValue, "\(String(describing: event))")
            #expect(first.id != second.id)

            // Resuming from the first event's position reads the second alone.
            let resumed = try await reader.eventLog.settled(after: position)
            #expect(resumed.map(\.aggregate.id) == [second.id.rawValue])
        }
    }

    @Test("events older than the retention are pruned by reconciliation's step, newer ones stay", arguments: TestStore.allCases)
    func pruning(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let old = try await shop.product()
            shop.clock.advance(by: 31 * 24 * 60 * 60)
            let recent = try await shop.product()
            let pruned = try await shop.keycat.pruneEvents()
            let left = try await shop.keycat.eventLog.settled(after: .start)
            #expect(pruned >= 1)
            #expect(!left.contains { $0.aggregate.id == old.id.rawValue && $0.aggregate.kind == .product })
            #expect(left.contains { $0.aggregate.id == recent.id.rawValue && $0.type == .productCreated })
            await #expect(try shop.keycat.pruneEvents() == 0)

            // Everything old: the newest event stays, so no later event is given an old position.
            shop.clock.advance(by: 31 * 24 * 60 * 60)
            _ = try await shop.keycat.pruneEvents()
            let kept = try await shop.keycat.eventLog.settled(after: .start)
            #expect(kept.count == 1)
            let newest = try #require(kept.last?.position)
            let later = try await shop.product()
            let after = try await shop.keycat.eventLog.settled(after: newest)
            #expect(after.map(\.aggregate.id) == [later.id.rawValue] && (after.first?.position).map { $0 > newest } == true)
        }
    }

    @Test("an event retention shorter than the webhook retries' span, or past ten years, is refused")
    func retentionBounds() async throws {
        #expect(KeyCat.Configuration.minimumEventRetention > WebhookRetrySchedule.standard.span)
        try await TestShop.withConfiguration(.sqlite) { base in
            for retention in [0, 3 * 86_400, KeyCat.Configuration.minimumEventRetention - 1, 11 * 365 * 86_400] as [TimeInterval] {
                var configuration = base
                configuration.eventRetention = retention
                await expectError(.validation, field: "event_retention") { try await KeyCat.open(configuration) }
            }
            var configuration = base
            configuration.eventRetention = KeyCat.Configuration.minimumEventRetention
            let keycat = try await KeyCat.open(configuration)
            keycat.close()
        }
    }

    @Test("pruning deletes in bounded transactions, as many as it takes, and keeps what it kept before", arguments: TestStore.allCases)
    func pruningInBatches(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            for _ in 0..<7 { _ = try await shop.product() }
            let old = try await shop.keycat.eventLog.settled(after: .start)
            shop.clock.advance(by: 31 * 24 * 60 * 60)
            let recent = try await shop.product()
            func prune<Database: SQLDatabase>(_ database: Database) async throws -> Int {
                try await SQLEventLog(database: database).prune(before: shop.clock.now().addingTimeInterval(-30 * 24 * 60 * 60), batch: 3)
            }
            // Three at a time: 3, 3, then the rest, which ends it.
            #expect(try await prune(shop.keycat.store.database) == old.count)
            let left = try await shop.keycat.eventLog.settled(after: .start)
            #expect(!left.isEmpty && left.allSatisfy { $0.occurredAt >= shop.clock.now() })
            #expect(left.contains { $0.aggregate.id == recent.id.rawValue && $0.type == .productCreated })
            #expect(try await prune(shop.keycat.store.database) == 0)
        }
    }

    @Test("a position reads back from its text, and text that is not one is refused")
    func positionText() {
        let position = EventPosition(transaction: 7421, sequence: 1042)
        #expect(EventPosition(position.description) == position && position.description == "7421.1042")
        #expect(EventPosition.start < position && EventPosition(transaction: 7421, sequence: 1043) > position)
        for text in ["", "1", "1.", ".1", "a.b", "1.-2", "1.2.3", "-1.2"] { #expect(EventPosition(text) == nil, "\(text)") }
    }

    @Test("event patterns select types by name, by noun or all, and refuse what selects nothing")
    func patterns() throws {
        let patterns = try EventPattern.list("order.paid, shipment.*,order.paid")
        #expect(patterns.map(\.rawValue) == ["order.paid", "shipment.*"])
        #expect(patterns[1].matches(.shipmentDelivered) && !patterns[1].matches(.orderPaid) && patterns[0].matches(.orderPaid))
        #expect(try EventPattern("*").matches(.userSuspended))
        for bad in ["order.shipped", "ship.*", "", " , "] {
            #expect(throws: KeyCatError.self) { try EventPattern.list(bad) }
        }
    }
}

extension TestShop {
    /// `buyer` checks out one of `product`, unpaid.
    func order(of product: Product, by buyer: Principal) async throws -> Order {
        try await keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])), by: buyer)
    }
}

extension EventLog {
    /// Every event after `position` once none is waiting behind another server's transaction
    /// still running (Postgres: ``EventLog/page(after:limit:)``): what a test reads right after
    /// its writes, while other suites write to the same server.
    func settled(after position: EventPosition) async throws -> [DomainEvent] {
        let deadline = ContinuousClock.now + .seconds(300)
        while true {
            let page = try await page(after: position, limit: 1_000)
            if !page.isBehind || ContinuousClock.now > deadline { return page.events }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
