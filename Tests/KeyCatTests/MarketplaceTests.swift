import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The marketplace's half on each store: addresses, per-seller shipments, the sellers' desks,
/// line refunds and a month's settlement, traced to the payment and refund rows.
@Suite("Marketplace fulfilment", .serialized)
struct MarketplaceTests {
    static let home = try! DeliveryAddress.validated(
        recipient: "김민아", phone: "01012345678", postcode: "06236", roadAddress: "서울특별시 강남구 테헤란로 152",
        detail: "12층 1201호", request: "문 앞에 놓아 주세요")

    @Test("two sellers, one buyer: a saved address, two parcels, each desk its own, a line refund, a settlement", arguments: TestStore.allCases)
    func journey(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let (sellerA, sellerB, stranger) = (try await shop.user(.seller), try await shop.user(.seller), try await shop.user(.seller))
            let buyer = try await shop.user(.buyer)
            let board = try await keycat.catalog.create(TestShop.draft("Board", price: 100_000) { $0.stock = 5; $0.delivery.fee = Money(won: 3_000) },
                                                        for: sellerA.userID, by: sellerA)
            let caps = try await keycat.catalog.create(TestShop.draft("Caps", price: 20_000) { $0.stock = 5; $0.delivery.fee = Money(won: 2_500) },
                                                       for: sellerB.userID, by: sellerB)
            let switches = try await keycat.catalog.create(TestShop.draft("Switches", price: 10_000) { $0.stock = 5; $0.delivery.fee = Money(won: 3_000) },
                                                           for: sellerB.userID, by: sellerB)

            // The address book: the first entry is the default.
            let saved = try await keycat.addresses.add(Self.home, by: buyer)
            #expect(saved.isDefault && saved.address.phone == "010-1234-5678")
            await #expect(try keycat.addresses.list(by: sellerA).isEmpty)
            await expectFailure(.notFound) { try await keycat.addresses.update(saved.id, AddressChanges(detail: "x"), by: sellerA) }

            // Checkout with two sellers' products, to the saved address.
            let order = try await keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 2),
                CheckoutItem(productID: switches.id, quantity: 1),
            ]), destination: .saved(saved.id)), by: buyer)
            #expect(order.shipments.count == 2)
            // One fee per seller: A's 3,000; B's two lines bundled at the higher of 2,500 and 3,000.
            #expect(order.deliveryTotal == Money(won: 6_000) && order.amount == Money(won: 100_000 + 40_000 + 10_000 + 6_000))
            #expect(order.shippingAddress == Self.home)
            // What the app hands PortOne v1's payment window: the order's amount and the buyer fields.
            let window = try #require(PaymentWindowRequest(order))
            #expect(window.merchantUID == order.merchantUID && window.amount == order.amount && window.name == "Board 외 2건")
            #expect(window.buyerName == "김민아" && window.buyerTel == "010-1234-5678" && window.buyerPostcode == "06236"
                    && window.buyerAddr == "서울특별시 강남구 테헤란로 152 12층 1201호")
            // Editing the book never changes the order's copy.
            _ = try await keycat.addresses.update(saved.id, AddressChanges(detail: "13층"), by: buyer)
            let payment = try shop.pay(order)
            let paid = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
            #expect(paid.status == .paid && paid.fulfilment == .unfulfilled && paid.shippingAddress?.detail == "12층 1201호")
            #expect(PaymentWindowRequest(paid) == nil)

            // Each seller's desk shows only their lines, the address and the buyer's nick.
            let deskA = try await keycat.orders.sellerOrders(by: sellerA).items
            let deskB = try await keycat.orders.sellerOrders(by: sellerB).items
            #expect(deskA.count == 1 && deskA[0].lines.map(\.line.productID) == [board.id] && deskA[0].shippingAddress == Self.home)
            #expect(deskB.count == 1 && Set(deskB[0].lines.map(\.line.productID)) == [caps.id, switches.id])
            #expect(!deskA[0].buyerNick.isEmpty)
            await #expect(try keycat.orders.sellerOrders(by: stranger).items.isEmpty)
            let shipmentA = deskA[0].shipment, shipmentB = deskB[0].shipment
            await expectFailure(.notFound) {
                try await keycat.orders.ship(shipment: shipmentA.id, carrier: "cj", trackingNumber: "123456789012", by: stranger)
            }
            await expectFailure(.notFound) {
                try await keycat.orders.ship(shipment: shipmentA.id, carrier: "cj", trackingNumber: "123456789012", by: sellerB)
            }
            await expectFailure(.validation) {
                try await keycat.orders.ship(shipment: shipmentA.id, carrier: "우체국", trackingNumber: "123456789012", by: sellerA)
            }

            // A ships: the order is partly shipped and still paid.
            let partly = try await keycat.orders.ship(shipment: shipmentA.id, carrier: "CJ대한통운", trackingNumber: "5531-2026-1123", by: sellerA)
            #expect(partly.status == .paid && partly.fulfilment == .partiallyShipped)
            #expect(partly.shipments.first { $0.id == shipmentA.id }?.trackingNumber == "553120261123")
            await #expect(try keycat.orders.sellerOrders(status: .pending, by: sellerA).items.isEmpty)

            // B refunds the switches line before shipping: its units come back.
            let switchesLine = try #require(order.lines.firstIndex { $0.productID == switches.id })
            let refunded = try await keycat.orders.refundLines(
                of: shipmentB.id, LineRefundRequest(lines: [switchesLine], reason: "out of that colour"), by: sellerB)
            #expect(refunded.status == .partiallyRefunded && refunded.refundedAmount == Money(won: 10_000))
            #expect(refunded.lines[switchesLine].refundedAt != nil)
            await #expect(try shop.stock(of: switches.id) == 5)
            await expectFailure(.illegalTransition) {
                try await keycat.orders.refundLines(of: shipmentB.id, LineRefundRequest(lines: [switchesLine], reason: "again"), by: sellerB)
            }

            // B ships and both deliver: the order keeps partially_refunded, its goods are delivered.
            _ = try await keycat.orders.ship(shipment: shipmentB.id, carrier: "kr.hanjin", trackingNumber: "4123456789", by: sellerB)
            _ = try await keycat.orders.deliver(shipment: shipmentA.id, by: sellerA)
            let delivered = try await keycat.orders.deliver(shipment: shipmentB.id, by: sellerB)
            #expect(delivered.status == .partiallyRefunded && delivered.fulfilment == .delivered)
            try await shop.expectHealthy()

            // A's board arrives scuffed and the buyer keeps it: A gives back part of its parcel's value.
            await expectFailure(.validation) {
                try await keycat.orders.refundLines(of: shipmentA.id, LineRefundRequest(lines: [0], amount: Money(won: 5_000), reason: "scuffed"), by: sellerA)
            }
            await expectFailure(.validation) {
                try await keycat.orders.refundLines(of: shipmentA.id, LineRefundRequest(amount: Money(won: 5_000), reason: "scuffed", restock: true), by: sellerA)
            }
            await expectFailure(.cancelAmountExceedsCancellable) {
                try await keycat.orders.refundLines(of: shipmentA.id, LineRefundRequest(amount: Money(won: 103_001), reason: "scuffed"), by: sellerA)
            }
            await expectFailure(.notFound) {
                try await keycat.orders.refundLines(of: shipmentA.id, LineRefundRequest(amount: Money(won: 5_000), reason: "scuffed"), by: sellerB)
            }
            let compensated = try await keycat.orders.refundLines(
                of: shipmentA.id, LineRefundRequest(amount: Money(won: 5_000), reason: "scuffed corner, kept"), by: sellerA)
            #expect(compensated.refundedAmount == Money(won: 15_000) && compensated.lines.allSatisfy { $0.productID == switches.id || $0.refundedAt == nil })
            await #expect(try shop.stock(of: board.id) == 4)
            try await shop.expectHealthy()

            // Nothing is payable until receipt is confirmed (구매확정): it all waits for it.
            let january = try SettlementPeriod("2026-01")
            let waiting = try await keycat.settlements.upcoming(by: sellerB)
            #expect(waiting.tally == SettlementTally() && waiting.awaitingConfirmation.payout == 38_700 && waiting.payableEntryIDs.isEmpty)
            await #expect(try keycat.settlements.close(january, dryRun: true, by: shop.operatorConsole).isEmpty)
            // The buyer confirms B's parcel; A's is confirmed by reconciliation once 7 days passed.
            let confirmedB = try await keycat.orders.confirmReceipt(of: shipmentB.id, by: buyer)
            #expect(confirmedB.shipments.first { $0.id == shipmentB.id }?.confirmedAt != nil)
            await #expect(try keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: 7 * 86_400 + 1)
            await #expect(try keycat.confirmDeliveredParcels() == 1)
            await #expect(try keycat.orders.order(order.id, by: buyer).shipments.allSatisfy { $0.confirmedAt != nil })

            // The month closes a month later: each payout traced to its rows.
            await expectFailure(.validation) { try await keycat.settlements.close(january, by: shop.operatorConsole) }
            await expectFailure(.validation) { try await keycat.settlements.close(try SettlementPeriod("2026-02"), dryRun: true, by: shop.operatorConsole) }
            // Before the month ends: a dry run shows it so far, and each seller's upcoming figures agree.
            let soFar = try await keycat.settlements.close(january, dryRun: true, by: shop.operatorConsole)
            let upcomingB = try await keycat.settlements.upcoming(by: sellerB)
            #expect(soFar.first { $0.sellerID == sellerB.userID }?.payout.won == upcomingB.tally.payout && upcomingB.tally.payout == 38_700)
            #expect(upcomingB.entries.count == 4 && upcomingB.entries.allSatisfy { $0.orderID == order.id && $0.commission != nil })
            await #expect(try keycat.settlements.upcoming(seller: sellerB.userID, by: sellerA).sellerID == sellerA.userID)
            await #expect(try keycat.settlements.upcoming(seller: sellerB.userID, by: shop.operatorConsole).tally == upcomingB.tally)
            await #expect(try keycat.settlements.upcoming(by: stranger).tally == SettlementTally())
            await expectFailure(.forbidden) { try await keycat.settlements.upcoming(by: buyer) }
            shop.clock.advance(by: 40 * 86_400)
            let preview = try await keycat.settlements.close(january, dryRun: true, by: shop.operatorConsole)
            let settlements = try await keycat.settlements.close(january, by: shop.operatorConsole)
            #expect(preview.map(\.payout) == settlements.map(\.payout))
            let a = try #require(settlements.first { $0.sellerID == sellerA.userID })
            let b = try #require(settlements.first { $0.sellerID == sellerB.userID })
            // A: 100,000 sold + 3,000 fee − 5,000 given back − 10 % of the 95,000 kept and of the fee.
            #expect(a.sales == Money(won: 100_000) && a.deliveryFees == Money(won: 3_000) && a.refunds == Money(won: 5_000)
                    && a.commission == Money(won: 9_800) && a.payout == Money(won: 88_200))
            // B: 50,000 sold + 3,000 fee − 10,000 refunded − 10 % of the 40,000 kept and of the fee.
            #expect(b.sales == Money(won: 50_000) && b.refunds == Money(won: 10_000) && b.commission == Money(won: 4_300)
                    && b.payout == Money(won: 38_700))
            #expect(a.payout.won + b.payout.won + a.commission.won + b.commission.won == paid.amount.won - 10_000 - 5_000)
            let (_, entries) = try await keycat.settlements.settlement(b.id, by: sellerB)
            #expect(entries.filter { $0.kind == .sale }.allSatisfy { $0.paymentID != nil })
            #expect(entries.filter { $0.kind == .refund }.map(\.amount) == [Money(won: 10_000)])
            await expectFailure(.notFound) { try await keycat.settlements.settlement(b.id, by: sellerA) }
            await #expect(try keycat.settlements.list(by: sellerA).items.map(\.id) == [a.id])
            await expectFailure(.duplicate) { try await keycat.settlements.close(january, by: shop.operatorConsole) }
            await #expect(try keycat.settlements.upcoming(by: sellerB).tally == SettlementTally())
            try await shop.expectHealthy()

            // A's parcel is confirmed and paid out: its seller may no longer refund it.
            await expectFailure(.illegalTransition) {
                try await keycat.orders.refundLines(of: shipmentA.id, LineRefundRequest(reason: "returned", restock: true), by: sellerA)
            }
            // An operator's later refund falls into the next month; January stays as it was. The
            // board comes back: its line gives back what it still holds, 95,000 (5,000 went earlier).
            let returned = try await keycat.orders.refundLines(of: shipmentA.id, LineRefundRequest(reason: "returned", restock: true),
                                                               by: shop.operatorConsole)
            #expect(returned.refundedAmount == Money(won: 110_000))
            await #expect(try shop.stock(of: board.id) == 5)
            await #expect(try keycat.settlements.settlement(a.id, by: sellerA).0 == a)
            await #expect(try keycat.settlements.upcoming(by: sellerA).tally.refunds == 95_000)
            try await shop.expectHealthy()
        }
    }

    @Test("a refund gives back, in proportion, the commission its sale was charged, though the rate changed since", arguments: TestStore.allCases)
    func refundCommissionFollowsItsSale(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let product = try await shop.product(price: 100_000)
            let order = try await shop.receivedOrder(product, by: try await shop.user(.buyer))
            shop.clock.advance(by: 40 * 86_400)
            // January closes at 10 %: the board's sale is charged 10,000, its 3,000 fee 300.
            let january = try await keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.map(\.commission) == [Money(won: 10_300)])

            // In February an operator gives the buyer back 30,001 of the board (its seller may not:
            // the parcel was confirmed and paid out), and February closes at 20 %.
            let shipment = try #require(order.shipments.first)
            _ = try await keycat.orders.refundLines(
                of: shipment.id, LineRefundRequest(amount: Money(won: 30_001), reason: "scuffed corner, kept"), by: shop.operatorConsole)
            shop.clock.advance(by: 30 * 86_400)
            let february = try await keycat.settlements.close(try SettlementPeriod("2026-02"), commission: CommissionPolicy(defaultRate: 2_000),
                                                              by: shop.operatorConsole)
            let settlement = try #require(february.first)
            // 10,000 × 30,001 / 100,000, rounded down: 3,000 given back, not the 6,000 of today's 20 %.
            #expect(settlement.refunds == Money(won: 30_001) && settlement.commission == Money(won: -3_000), "\(settlement)")
            // The month earned −27,001: nothing is paid, and the seller owes it to their next settlement.
            #expect(settlement.payout == .zero && settlement.carriedForward == Money(won: 27_001) && settlement.broughtForward == .zero)
            let entries = try await keycat.settlements.settlement(settlement.id, by: shop.operatorConsole).1
            #expect(entries.map(\.commission) == [Money(won: 3_000)])
            try await shop.expectHealthy()
        }
    }

    @Test("a month that earns less than nothing is carried, and taken off the seller's next settlements until covered",
          arguments: TestStore.allCases)
    func debtCarriedForward(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let board = try await shop.product(price: 100_000)
            let seller = Principal(userID: board.sellerID, role: .seller)
            let caps = try await keycat.catalog.create(TestShop.draft(price: 20_000) { $0.stock = 10 }, for: seller.userID, by: seller)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.receivedOrder(board, by: buyer)
            shop.clock.advance(by: 40 * 86_400)
            // January pays the board: 100,000 + 3,000 fee − 10,300 commission.
            let january = try await keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.map(\.payout) == [Money(won: 92_700)])

            // In February an operator gives back the board's 100,000, which January paid out: the
            // month earns 10,000 of commission back less 100,000, and pays nothing.
            _ = try await keycat.orders.refundLines(
                of: try #require(order.shipments.first).id, LineRefundRequest(amount: Money(won: 100_000), reason: "never arrived"),
                by: shop.operatorConsole)
            shop.clock.advance(by: 30 * 86_400)
            let february = try #require(try await keycat.settlements.close(try SettlementPeriod("2026-02"), by: shop.operatorConsole).first)
            #expect(february.earned == Money(won: -90_000))
            #expect(february.broughtForward == .zero && february.payout == .zero && february.carriedForward == Money(won: 90_000))

            // March: the seller sells nothing, gets no settlement, and still owes it.
            shop.clock.advance(by: 30 * 86_400)
            await #expect(try keycat.settlements.close(try SettlementPeriod("2026-03"), by: shop.operatorConsole).isEmpty)
            await #expect(try keycat.settlements.upcoming(by: seller).owed == Money(won: 90_000))

            // April's caps earn 20,700, all of it kept against the debt.
            _ = try await shop.receivedOrder(caps, by: buyer)
            shop.clock.advance(by: 30 * 86_400)
            let april = try #require(try await keycat.settlements.close(try SettlementPeriod("2026-04"), by: shop.operatorConsole).first)
            #expect(april.earned == Money(won: 20_700))
            #expect(april.broughtForward == Money(won: 90_000) && april.payout == .zero && april.carriedForward == Money(won: 69_300))

            // May's board covers the rest: the upcoming figures, the dry run and the close agree.
            _ = try await shop.receivedOrder(board, by: buyer)
            let upcoming = try await keycat.settlements.upcoming(by: seller)
            #expect(upcoming.owed == Money(won: 69_300) && upcoming.tally.payout == 92_700)
            #expect(upcoming.balance == SettlementBalance(earned: 92_700, owed: 69_300) && upcoming.balance.payout == 23_400)
            shop.clock.advance(by: 30 * 86_400)
            let may = try SettlementPeriod("2026-05")
            let dry = try #require(try await keycat.settlements.close(may, dryRun: true, by: shop.operatorConsole).first)
            let closed = try #require(try await keycat.settlements.close(may, by: shop.operatorConsole).first)
            #expect(dry.broughtForward == closed.broughtForward && dry.payout == closed.payout && dry.carriedForward == closed.carriedForward)
            #expect(closed.broughtForward == Money(won: 69_300) && closed.payout == Money(won: 23_400) && closed.carriedForward == .zero)
            await #expect(try keycat.settlements.upcoming(by: seller).owed == .zero)
            // What was paid and kept is what the PG kept: two boards and the caps, less the refund.
            let settled = [january[0], february, april, closed]
            let kept: Int64 = 100_000 + 20_000 + 100_000 + 3 * 3_000 - 100_000
            let paidAndCharged = settled.reduce(Int64(0)) { $0 + $1.payout.won + $1.commission.won }
            #expect(paidAndCharged == kept)
            try await shop.expectHealthy()

            // A debt dropped on the way is found, though each settlement's own figures still add up.
            try await shop.execute("UPDATE settlements SET brought_forward = brought_forward - 1000, payout = payout + 1000 WHERE period = '2026-05'")
            let report = try await keycat.checkHealth()
            #expect(report.invariantProblems.contains { $0.contains("brought forward 68300 won but the seller's previous settlement carried 69300") },
                    "\(report.invariantProblems)")
        }
    }

    @Test("a parcel's refund that takes the last of the balance cancels the other parcels not sent, and their units come back",
          arguments: TestStore.allCases)
    func lastRefundReturnsOtherParcels(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let (sellerA, sellerB) = (try await shop.user(.seller), try await shop.user(.seller))
            let board = try await keycat.catalog.create(TestShop.draft("Board", price: 100_000) { $0.stock = 5; $0.delivery.fee = .zero },
                                                        for: sellerA.userID, by: sellerA)
            let caps = try await keycat.catalog.create(TestShop.draft("Caps", price: 20_000) { $0.stock = 5; $0.delivery.fee = Money(won: 3_000) },
                                                       for: sellerB.userID, by: sellerB)
            let buyer = try await shop.user(.buyer)
            let order = try await keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 1),
            ])), by: buyer)
            _ = try await keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
            // An operator gives back the board's price by amount; then seller B refunds their
            // parcel, which takes the rest: 20,000 and its 3,000 fee.
            _ = try await keycat.orders.refund(order.id, RefundRequest(amount: Money(won: 100_000), reason: "goodwill"),
                                               by: shop.operatorConsole)
            let parcelB = try #require(order.shipments.first { $0.sellerID == sellerB.userID })
            let refunded = try await keycat.orders.refundLines(of: parcelB.id, LineRefundRequest(reason: "out of caps", restock: true),
                                                               by: sellerB)
            #expect(refunded.status == .refunded && refunded.refundedAmount == refunded.amount, "\(refunded.status)")
            #expect(refunded.shipments.allSatisfy { $0.status == .cancelled }, "\(refunded.shipments.map(\.status))")
            // A's board never left: its unit is back on the shelf, as B's caps are.
            await #expect(try shop.stock(of: board.id) == 5)
            await #expect(try shop.stock(of: caps.id) == 5)
            try await shop.expectHealthy()
        }
    }

    @Test("a seller with parcels to send or returns to decide cannot withdraw until they are seen through", arguments: TestStore.allCases)
    func sellerWithdrawalWaitsForParcels(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(price: 30_000)
            let seller = Principal(userID: product.sellerID, role: .seller)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            let refused = await expectFailure(.illegalTransition) { try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller) }
            #expect(refused?.context["parcels"] == "1" && refused?.context["returns"] == "0", "\(String(describing: refused))")
            // Delivered, and a return asked for: still theirs to decide.
            let parcel = try #require(order.shipments.first).id
            _ = try await shop.keycat.orders.ship(shipment: parcel, carrier: "CJ대한통운", trackingNumber: "123456789012", by: seller)
            _ = try await shop.keycat.orders.deliver(shipment: parcel, by: seller)
            let request = try await shop.keycat.orders.requestReturn(of: parcel, reason: "소리가 달라요", by: buyer)
            let open = await expectFailure(.illegalTransition) { try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller) }
            #expect(open?.context["parcels"] == "1" && open?.context["returns"] == "1", "\(String(describing: open))")
            _ = try await shop.keycat.orders.rejectReturn(request.id, reason: "사용 흔적", by: seller)
            // Delivered but not confirmed: a return may still come. Once the buyer confirms, it may go.
            let delivered = await expectFailure(.illegalTransition) { try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller) }
            #expect(delivered?.context["parcels"] == "1", "\(String(describing: delivered))")
            _ = try await shop.keycat.orders.confirmReceipt(of: parcel, by: buyer)
            // An order whose reservation may still be paid holds the seller too.
            _ = try await shop.checkout(product, by: buyer)
            await expectFailure(.illegalTransition) { try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller) }
            // So does one past its reservation within the late payment's grace, which the buyer may still pay.
            shop.clock.advance(by: shop.keycat.configuration.reservationLifetime + 60)
            await expectFailure(.illegalTransition) { try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller) }
            shop.clock.advance(by: CheckoutService.latePaymentGrace)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: seller)
            await expectFailure(.notFound) { try await shop.keycat.catalog.product(product.id) }
        }
    }

    @Test("a settlement's balance: what is earned less what is owed, paid when positive and carried when not")
    func balance() {
        func parts(_ balance: SettlementBalance) -> [Int64] { [balance.broughtForward, balance.payout, balance.carriedForward] }
        #expect(parts(SettlementBalance(earned: 50_000, owed: 0)) == [0, 50_000, 0])
        #expect(parts(SettlementBalance(earned: 50_000, owed: 20_000)) == [20_000, 30_000, 0])
        #expect(parts(SettlementBalance(earned: 50_000, owed: 50_000)) == [50_000, 0, 0])
        #expect(parts(SettlementBalance(earned: 20_000, owed: 50_000)) == [50_000, 0, 30_000])
        #expect(parts(SettlementBalance(earned: -10_000, owed: 5_000)) == [5_000, 0, 15_000])
        #expect(parts(SettlementBalance(earned: -10_000, owed: 0)) == [0, 0, 10_000])
    }

    @Test("a seller's upcoming figures give back a settled sale's commission as the close will, not at today's rate",
          arguments: TestStore.allCases)
    func upcomingFollowsTheSale(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(price: 100_000)
            let seller = Principal(userID: product.sellerID, role: .seller)
            let order = try await shop.receivedOrder(product, by: try await shop.user(.buyer))
            shop.clock.advance(by: 40 * 86_400)
            // January closes at 5 %: the board's sale is charged 5,000.
            _ = try await shop.keycat.settlements.close(try SettlementPeriod("2026-01"), commission: CommissionPolicy(defaultRate: 500),
                                                        by: shop.operatorConsole)
            _ = try await shop.keycat.orders.refundLines(
                of: try #require(order.shipments.first).id, LineRefundRequest(amount: Money(won: 30_001), reason: "scuffed"),
                by: shop.operatorConsole)
            // Today's rate is 10 %, but the refund gives back 5,000 × 30,001 / 100,000 = 1,500.
            let upcoming = try await shop.keycat.settlements.upcoming(by: seller)
            #expect(upcoming.tally.refunds == 30_001 && upcoming.tally.commission == -1_500, "\(upcoming.tally)")
            shop.clock.advance(by: 30 * 86_400)
            let february = try await shop.keycat.settlements.close(try SettlementPeriod("2026-02"), dryRun: true, by: shop.operatorConsole)
            #expect(february.first?.commission.won == upcoming.tally.commission)
        }
    }

    @Test("the commission given back is the sale's in proportion, rounded down, so parts never give back more than was charged")
    func commissionGivenBack() {
        #expect(SettlementTally.commission(givenBackBy: 30_001, ofSale: 100_000, charged: 10_000) == 3_000)
        #expect(SettlementTally.commission(givenBackBy: 100_000, ofSale: 100_000, charged: 10_000) == 10_000)
        let thirds = (0..<3).map { _ in SettlementTally.commission(givenBackBy: 33_333, ofSale: 99_999, charged: 9_999) }
        #expect(thirds.reduce(0, +) <= 9_999)
        // The largest line there can be (99 × ₩100,000,000) at 10 %, refunded whole: the product
        // passes Int64, the answer does not.
        #expect(SettlementTally.commission(givenBackBy: 9_900_000_000, ofSale: 9_900_000_000, charged: 990_000_000) == 990_000_000)
        #expect(SettlementTally.commission(givenBackBy: 4_950_000_001, ofSale: 9_900_000_000, charged: 990_000_000) == 495_000_000)
    }

    @Test("addresses: Korean phone and postcode formats, a bounded book, one default, deleted on withdrawal", arguments: TestStore.allCases)
    func addresses(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let buyer = try await shop.user(.buyer)
            for phone in ["02-123-4567", "0311234567", "070-1234-5678", "1588-1234", "010 1234 5678"] where phone != "010 1234 5678" {
                #expect(throws: Never.self) { try AddressRules.phone(phone) }
            }
            #expect(try AddressRules.phone("0212345678") == "02-1234-5678")
            #expect(try AddressRules.phone("15881234") == "1588-1234")
            for bad in ["010-1234-567", "123-4567-8901", "010 1234 5678", "+82-10-1234-5678", "０１０12345678", ""] {
                #expect(throws: KeyCatError.self) { try AddressRules.phone(bad) }
            }
            for bad in ["6236", "062360", "76236", "O6236", "０６２３６"] {
                #expect(throws: KeyCatError.self) { try AddressRules.postcode(bad) }
            }
            let first = try await shop.keycat.addresses.add(Self.home, by: buyer)
            let second = try await shop.keycat.addresses.add(Self.home, makeDefault: true, by: buyer)
            let book = try await shop.keycat.addresses.list(by: buyer)
            #expect(book.map(\.id) == [second.id, first.id] && book.map(\.isDefault) == [true, false])
            _ = try await shop.keycat.addresses.update(first.id, AddressChanges(isDefault: true), by: buyer)
            await #expect(try shop.keycat.addresses.list(by: buyer).filter(\.isDefault).map(\.id) == [first.id])
            for _ in 2..<AddressRules.maximumPerUser { _ = try await shop.keycat.addresses.add(Self.home, by: buyer) }
            await expectFailure(.limitReached) { try await shop.keycat.addresses.add(Self.home, by: buyer) }

            // A delivered order keeps its copy until withdrawal anonymises it, keeping the district.
            let product = try await shop.product()
            let order = try await shop.receivedOrder(product, by: buyer)
            #expect(order.shippingAddress == Self.home)
            try await shop.keycat.accounts.withdraw(password: "keycat123", by: buyer)
            await #expect(try shop.keycat.orders.order(order.id, by: shop.operatorConsole).shippingAddress == nil)
            await #expect(try shop.keycat.addresses.list(by: buyer).isEmpty)
            try await shop.expectHealthy()
        }
    }

    @Test("a book with addresses always has a default: deleting or unmarking it makes the newest other one the default, and a checkout ships there",
          arguments: TestStore.allCases)
    func bookKeepsADefault(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let buyer = try await shop.user(.buyer)
            var office = Self.home
            office.detail = "사무실 3층"
            let home = try await shop.keycat.addresses.add(Self.home, by: buyer)
            let work = try await shop.keycat.addresses.add(office, by: buyer)
            let defaults = { try await shop.keycat.addresses.list(by: buyer).filter(\.isDefault).map(\.id) }
            #expect(try await defaults() == [home.id])
            // Unmarked, the default passes to the other address; the only one stays the default.
            _ = try await shop.keycat.addresses.update(home.id, AddressChanges(isDefault: false), by: buyer)
            #expect(try await defaults() == [work.id])
            try await shop.keycat.addresses.delete(work.id, by: buyer)
            #expect(try await defaults() == [home.id])
            _ = try await shop.keycat.addresses.update(home.id, AddressChanges(isDefault: false), by: buyer)
            #expect(try await defaults() == [home.id])
            // Deleted, the default passes to the newest other; a checkout naming none ships there.
            let third = try await shop.keycat.addresses.add(office, by: buyer)
            try await shop.keycat.addresses.delete(home.id, by: buyer)
            #expect(try await defaults() == [third.id])
            let order = try await shop.checkout(try await shop.product(), by: buyer)
            #expect(order.shippingAddress == office)
            // Another's address changes nothing, the caller's default included.
            let other = try await shop.user(.buyer)
            await expectFailure(.notFound) { try await shop.keycat.addresses.update(third.id, AddressChanges(isDefault: true), by: other) }
            #expect(try await defaults() == [third.id])
        }
    }

    @Test("a seller's desk stops showing the address of their cancelled parcel, with the order open or closed", arguments: TestStore.allCases)
    func cancelledParcelHidesAddress(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let buyer = try await shop.user(.buyer)
            _ = try await keycat.addresses.add(Self.home, by: buyer)
            let (board, caps) = (try await shop.product(), try await shop.product())
            let (sellerA, sellerB) = (Principal(userID: board.sellerID, role: .seller), Principal(userID: caps.sellerID, role: .seller))
            let order = try await keycat.checkout.checkout(CheckoutRequest(.items([
                CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 1),
            ])), by: buyer)
            _ = try await keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer)
            func desk(_ seller: Principal) async throws -> SellerOrder {
                try #require(try await keycat.orders.sellerOrders(by: seller).items.first { $0.orderID == order.id })
            }
            #expect(try await desk(sellerA).shippingAddress == Self.home)
            #expect(try await desk(sellerB).shippingAddress == Self.home)

            // B's parcel is cancelled while A's still goes: only B loses the address.
            let parcelB = try #require(order.shipments.first { $0.sellerID == caps.sellerID })
            _ = try await keycat.orders.cancel(order.id, reason: "caps no longer wanted", shipments: [parcelB.id], by: buyer)
            let deskB = try await desk(sellerB)
            #expect(deskB.shipment.status == .cancelled && deskB.shippingAddress == nil)
            #expect(try await desk(sellerA).shippingAddress == Self.home)

            // The rest of the order is cancelled: it has closed, and neither desk shows where it went.
            let closed = try await keycat.orders.cancel(order.id, reason: "changed my mind", by: buyer)
            #expect(closed.status == .refunded || closed.status == .cancelled, "\(closed.status)")
            #expect(try await desk(sellerA).shippingAddress == nil)
            #expect(try await desk(sellerB).shippingAddress == nil)
            // The buyer and operators keep the order's copy until it is anonymised.
            await #expect(try keycat.orders.order(order.id, by: buyer).shippingAddress == Self.home)
        }
    }

    @Test("addresses are anonymised the retention after delivery, not before", arguments: TestStore.allCases)
    func retention(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let buyer = try await shop.user(.buyer)
            _ = try await shop.keycat.addresses.add(Self.home, by: buyer)
            let order = try await shop.receivedOrder(try shop.product(), by: buyer)
            let open = try await shop.paidOrder(try shop.product(), by: buyer)
            await #expect(try shop.keycat.orders.anonymiseAddresses(olderThan: 86_400, by: shop.operatorConsole) == 0)
            shop.clock.advance(by: 2 * 86_400)
            await #expect(try shop.keycat.orders.anonymiseAddresses(olderThan: 86_400, by: shop.operatorConsole) == 1)
            await #expect(try shop.keycat.orders.order(order.id, by: buyer).shippingAddress == nil)
            await #expect(try shop.keycat.orders.order(open.id, by: buyer).shippingAddress == Self.home)
        }
    }
}
