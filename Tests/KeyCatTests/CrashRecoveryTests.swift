import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// A process dies at the worst moments; another opens the same database, reconciles, and nothing
/// is lost: `db check` passes, money paid at the PG ends in a paid order, stock comes back.
@Suite("Crash recovery")
struct CrashRecoveryTests {
    /// Opens KeyCat on `store` with `clock`, runs `body`, then closes it: a "process".
    func process<Result>(_ store: KeyCat.Configuration, _ clock: TestClock, _ body: (KeyCat) async throws -> Result)
        async throws -> Result
    {
        let keycat = try await TestShop.open(store, clock: clock)
        defer { keycat.close() }
        return try await body(keycat)
    }

    @Test("killed between checkout and confirm, and between the PG's answer and the commit: reconcile settles both",
          arguments: TestStore.allCases)
    func crashBetweenCheckoutAndConfirm(_ store: TestStore) async throws {
        try await TestShop.withConfiguration(store) { configuration in
            let clock = TestClock()
            let admin = Principal.operatorConsole("tester")
            // Process 1: two buyers check out and pay at the PG, then the process dies before
            // confirming; one confirm even reached the PG but its answer was lost.
            let (productID, buyer, paidOrder, lostOrder, abandoned) = try await process(configuration, clock) { keycat in
                let seller = try await keycat.accounts.createUser(SignUpForm(email: "s@example.com", password: "keycat123", nick: "seller"), role: .seller, by: admin)
                let user = try await keycat.accounts.createUser(SignUpForm(email: "b@example.com", password: "keycat123", nick: "buyer"), role: .buyer, by: admin)
                let buyer = Principal(userID: user.id, role: .buyer)
                // Ten units: the three orders hold theirs (holds leave half a product's units on the shelf).
                let product = try await keycat.catalog.create(TestShop.draft { $0.stock = 10 }, for: seller.id, by: admin)
                let request = CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)]))
                let first = try await keycat.checkout.checkout(request, by: buyer)
                let second = try await keycat.checkout.checkout(request, by: buyer)
                let third = try await keycat.checkout.checkout(request, by: buyer)
                let simulator = keycat.paymentSimulator!
                try simulator.pay(merchantUID: first.merchantUID, cardNumber: PGTestCard.success.number)
                let paid = try simulator.pay(merchantUID: second.merchantUID, cardNumber: PGTestCard.success.number)
                simulator.injectFault(.lostAnswer, on: .payment, times: 10)
                await expectFailure(.gatewayTimeout) { try await keycat.checkout.confirm(second.id, impUID: paid.impUID, by: buyer) }
                return (product.id, buyer, first.id, second.id, third.id)
            }
            // Process 2, a fresh start on the same database: the lost answer is settled at once, and
            // so is the payment nobody confirmed, found in the PG's own listing…
            try await process(configuration, clock) { keycat in
                await #expect(try keycat.catalog.product(productID).stock == 7)
                let report = try await keycat.checkout.reconcile()
                #expect(report.paid == 2 && report.gatewayPaymentsChecked == 2 && report.orphans == 0)
                await #expect(try keycat.orders.order(lostOrder, by: buyer).status == .paid)
                await #expect(try keycat.orders.order(paidOrder, by: buyer).status == .paid)
                // …and once the reservations run out, the abandoned order expires.
                clock.advance(by: 21 * 60)
                let later = try await keycat.checkout.reconcile()
                #expect(later.paid == 0 && later.expired == 1)
                await #expect(try keycat.orders.order(abandoned, by: buyer).status == .expired)
                await #expect(try keycat.catalog.product(productID).stock == 8)
                await #expect(try keycat.checkHealth().isHealthy)
                // Reconciling again, as another process might, changes nothing.
                var quiet = ReconcileReport()
                quiet.gatewayPaymentsChecked = 2
                #expect(try await keycat.checkout.reconcile() == quiet)
            }
        }
    }

    @Test("when the PG cannot register the amount the unit comes back at once; an abandoned order expires and gives it back",
          arguments: TestStore.allCases)
    func crashBeforePrepare(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            // Four units, so the order holds one (a product of one or two is sold on payment).
            let product = try await shop.product(stock: 4)
            let buyer = try await shop.user(.buyer)
            shop.simulator.injectFault(.error(.serviceUnavailable), on: .prepare, times: 4)  // every attempt the client makes
            await expectFailure(.gatewayUnavailable) { try await shop.checkout(product, by: buyer) }
            // The failed registration gave the unit back at once.
            await #expect(try shop.stock(of: product.id) == 4)
            let order = try await shop.checkout(product, by: buyer)
            await #expect(try shop.stock(of: product.id) == 3)
            shop.clock.advance(by: 20 * 60)  // the reservation and its grace
            #expect(try await shop.keycat.checkout.reconcile().expired == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .expired)
            await #expect(try shop.stock(of: product.id) == 4)
            try await shop.expectHealthy()
        }
    }

    @Test("a payment that arrives after the order expired is cancelled at the PG, never kept",
          arguments: TestStore.allCases)
    func paymentAfterExpiry(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 1)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: 21 * 60)
            _ = try await shop.keycat.checkout.reconcile()
            let payment = try shop.pay(order)
            await expectFailure(.illegalTransition) { try await shop.keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer) }
            #expect(shop.simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            await #expect(try shop.keycat.orders.payments(of: order.id, by: buyer).map(\.status) == [.voided])
            try await shop.expectHealthy()
        }
    }

    @Test("a payment made after the reservation and its grace ended pays nothing, though reconciliation has not run; one within it pays",
          arguments: TestStore.allCases)
    func latePaymentBeforeReconciliation(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 2)
            let buyer = try await shop.user(.buyer)
            // Paid four minutes after the 15-minute reservation: within the grace, it pays.
            let inTime = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: 19 * 60)
            let paid = try await shop.keycat.checkout.confirm(inTime.id, impUID: try shop.pay(inTime).impUID, by: buyer)
            #expect(paid.status == .paid)

            // Paid twenty-one minutes after checkout: the order expires, its unit comes back, the
            // money goes back, at the confirm itself.
            let late = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: 21 * 60)
            let payment = try shop.pay(late)
            let refused = await expectFailure(.illegalTransition) {
                try await shop.keycat.checkout.confirm(late.id, impUID: payment.impUID, by: buyer)
            }
            #expect(refused?.context["status"] == "expired", "\(String(describing: refused))")
            #expect(shop.simulator.payment(impUID: payment.impUID)?.status == .cancelled)
            await #expect(try shop.keycat.orders.payments(of: late.id, by: buyer).map(\.status) == [.voided])
            await #expect(try shop.stock(of: product.id) == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a reconciliation run within the grace leaves the order to a buyer still paying; once the grace is over it expires it",
          arguments: TestStore.allCases)
    func reconciliationWithinTheGrace(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 3)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            // The reservation ended a minute ago; the buyer is still in the payment window.
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + 60)
            let during = try await shop.keycat.checkout.reconcile()
            #expect(during.expired == 0 && during.unresolved == 0, "\(during)")
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).status == .awaitingPayment)
            if store == .postgres {
                // Another run within the grace leaves the order's row as it was: rewriting it
                // unchanged would leave a dead row version each run (its `xmin` would move).
                let version = "SELECT xmin::text::bigint FROM orders WHERE id = \(order.id)"
                let before = try await shop.integer(version)
                #expect(try await shop.keycat.checkout.reconcile().expired == 0)
                #expect(try await shop.integer(version) == before)
            }
            shop.clock.advance(by: 60)
            let paid = try await shop.keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
            #expect(paid.status == .paid)

            // One paid in time whose confirm and webhook were lost: a run within the grace finds it.
            let lost = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime - 60)
            _ = try shop.pay(lost)
            shop.clock.advance(by: 120)
            #expect(try await shop.keycat.checkout.reconcile().paid == 1)
            await #expect(try shop.keycat.orders.order(lost.id, by: buyer).status == .paid)

            // One nobody pays expires at the first run after its grace, its unit back on the shelf.
            let abandoned = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + CheckoutService.latePaymentGrace - 1)
            #expect(try await shop.keycat.checkout.reconcile().expired == 0)
            shop.clock.advance(by: 1)
            #expect(try await shop.keycat.checkout.reconcile().expired == 1)
            await #expect(try shop.keycat.orders.order(abandoned.id, by: buyer).status == .expired)
            await #expect(try shop.stock(of: product.id) == 1)  // three, less the two paid
            try await shop.expectHealthy()
        }
    }
}
