import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// Purchase confirmation (구매확정) and returns on each store: the buyer confirms a delivered
/// parcel, or reconciliation does 7 days after delivery unless a return is asked for; until then
/// the buyer may ask to return it, and its seller approves (a refund) or rejects.
@Suite("Purchase confirmation and returns", .serialized)
struct PurchaseConfirmationTests {
    struct Parcel {
        let shop: TestShop
        let buyer: Principal, seller: Principal
        let product: Product
        let order: Order
        var shipment: Shipment { order.shipments[0] }

        init(_ shop: TestShop, stock: Int = 5) async throws {
            self.shop = shop
            (buyer, seller) = (try await shop.user(.buyer), try await shop.user(.seller))
            product = try await shop.keycat.catalog.create(TestShop.draft("Board", price: 100_000) { $0.stock = stock },
                                                          for: seller.userID, by: seller)
            order = try await shop.paidOrder(product, quantity: 2, by: buyer)
        }

        /// The parcel's own number (one number names one parcel).
        var number: String { parcelNumber(shipment.id.rawValue) }

        func ship(number: String? = nil) async throws -> Order {
            try await shop.keycat.orders.ship(shipment: shipment.id, carrier: "cj", trackingNumber: number ?? self.number, by: seller)
        }

        func deliver() async throws -> Order {
            _ = try await ship()
            return try await shop.keycat.orders.deliver(shipment: shipment.id, by: seller)
        }
    }

    @Test("the buyer confirms a delivered parcel once; nobody else can, nor before delivery", arguments: TestStore.allCases)
    func buyerConfirms(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer) }
            _ = try await parcel.ship()
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer) }
            _ = try await shop.keycat.orders.deliver(shipment: parcel.shipment.id, by: parcel.seller)
            let stranger = try await shop.user(.buyer)
            await expectFailure(.notFound) { try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: stranger) }
            await expectFailure(.notFound) { try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.seller) }
            let confirmed = try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            let at = try #require(confirmed.shipments[0].confirmedAt)
            // Again: the same answer, nothing new written.
            shop.clock.advance(by: 60)
            await #expect(try shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer).shipments[0].confirmedAt == at)
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.confirm"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["shipment:\(parcel.shipment.id)"])
            // Confirmed: no return can be asked for any more.
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "changed my mind", by: parcel.buyer)
            }
            try await shop.expectHealthy()
        }
    }

    @Test("a suspended seller's delivered parcels wait: time confirms none of them until the seller is reinstated, the buyer still may",
          arguments: TestStore.allCases)
    func suspendedSellersParcelsWait(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let waiting = try await Parcel(shop)
            _ = try await waiting.deliver()
            _ = try await shop.keycat.accounts.suspend(waiting.seller.userID, by: shop.operatorConsole)
            shop.clock.advance(by: 8 * 86_400)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 0)
            await #expect(try shop.keycat.orders.order(waiting.order.id, by: waiting.buyer).shipments[0].confirmedAt == nil)
            _ = try await shop.keycat.accounts.reinstate(waiting.seller.userID, by: shop.operatorConsole)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)

            // The buyer who has the goods confirms whatever the seller's standing.
            let kept = try await Parcel(shop)
            _ = try await kept.deliver()
            _ = try await shop.keycat.accounts.suspend(kept.seller.userID, by: shop.operatorConsole)
            let confirmed = try await shop.keycat.orders.confirmReceipt(of: kept.shipment.id, by: kept.buyer)
            #expect(confirmed.shipments[0].confirmedAt != nil)
            try await shop.expectHealthy()
        }
    }

    @Test("reconciliation confirms a parcel 7 days after delivery, not before, and not while a return is asked for",
          arguments: TestStore.allCases)
    func automaticConfirmation(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let quiet = try await Parcel(shop)
            let returning = try await Parcel(shop)
            _ = try await quiet.deliver()
            _ = try await returning.deliver()
            _ = try await shop.keycat.orders.requestReturn(of: returning.shipment.id, reason: "스위치 소리가 달라요", by: returning.buyer)
            shop.clock.advance(by: 7 * 86_400 - 60)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: 120)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)
            await #expect(try shop.keycat.orders.order(quiet.order.id, by: quiet.buyer).shipments[0].confirmedAt != nil)
            await #expect(try shop.keycat.orders.order(returning.order.id, by: returning.buyer).shipments[0].confirmedAt == nil)
            // While the return is open the buyer cannot confirm either; once it is rejected, time
            // does, after the window in which the buyer may dispute the rejection.
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.confirmReceipt(of: returning.shipment.id, by: returning.buyer)
            }
            let request = try #require(try await shop.keycat.orders.returnRequests(of: returning.order.id, by: returning.buyer).first)
            let rejected = try await shop.keycat.orders.rejectReturn(request.id, reason: "사용 흔적이 있어 반품 불가", by: returning.seller)
            #expect(rejected.status == .rejected && rejected.decision == "사용 흔적이 있어 반품 불가")
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.rejectReturn(request.id, reason: "again", by: returning.seller)
            }
            // A rejected return is not asked for again: asking again and again would hold the
            // parcel's confirmation, and its seller's pay, forever.
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.requestReturn(of: returning.shipment.id, reason: "다시 요청합니다", by: returning.buyer)
            }
            shop.clock.advance(by: OrderService.defaultDisputeWindow - 60)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: 120)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.confirm"), by: shop.operatorConsole)
            #expect(audit.items.count == 2 && audit.items.allSatisfy { $0.actor == "system:reconcile" })
            try await shop.expectHealthy()
        }
    }

    @Test("a seller's rejection is disputed once, within its window: time waits, and an operator's ruling is final",
          arguments: TestStore.allCases)
    func disputedRejection(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            let asked = try await keycat.orders.requestReturn(of: parcel.shipment.id, reason: "상자만 왔어요", by: parcel.buyer)
            // Only a seller's rejection is disputed: not an open request.
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(asked.id, reason: "빨리요", by: parcel.buyer) }
            shop.clock.advance(by: 7 * 86_400 + 60)
            _ = try await keycat.orders.rejectReturn(asked.id, reason: "배송 완료되었습니다", by: parcel.seller)
            // The parcel was delivered over a week ago, but the buyer may still dispute: time waits.
            await #expect(try keycat.confirmDeliveredParcels() == 0)

            let stranger = try await shop.user(.buyer)
            await expectFailure(.notFound) { try await keycat.orders.disputeReturn(asked.id, reason: "제 것", by: stranger) }
            await expectFailure(.notFound) { try await keycat.orders.disputeReturn(asked.id, reason: "제 것", by: parcel.seller) }
            await expectFailure(.validation) { try await keycat.orders.disputeReturn(asked.id, reason: "  ", by: parcel.buyer) }
            shop.clock.advance(by: 86_400)
            let disputed = try await keycat.orders.disputeReturn(asked.id, reason: "송장 조회가 안 되고 받은 적이 없어요", by: parcel.buyer)
            #expect(disputed.status == .disputed && disputed.dispute == "송장 조회가 안 되고 받은 적이 없어요"
                    && disputed.decision == "배송 완료되었습니다" && disputed.disputedAt == shop.clock.now())
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(asked.id, reason: "again", by: parcel.buyer) }
            await expectFailure(.illegalTransition) {
                try await keycat.orders.requestReturn(of: parcel.shipment.id, reason: "다시", by: parcel.buyer)
            }
            // Open before the operators: no confirmation by time, nor by the buyer, and no
            // second word from the seller but giving in.
            shop.clock.advance(by: 30 * 86_400)
            await #expect(try keycat.confirmDeliveredParcels() == 0)
            await expectFailure(.illegalTransition) { try await keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer) }
            await expectFailure(.forbidden) { try await keycat.orders.rejectReturn(asked.id, reason: "아닙니다", by: parcel.seller) }
            await #expect(try keycat.orders.returnRequests(status: .disputed, by: shop.operatorConsole).items.map(\.id) == [asked.id])
            // Unpaid meanwhile: the sale waits for a confirmation that cannot come yet.
            let waiting = try await keycat.settlements.upcoming(by: parcel.seller)
            #expect(waiting.tally.payout == 0 && waiting.awaitingConfirmation.payout > 0)

            let ruled = try await keycat.orders.rejectReturn(asked.id, reason: "택배사 확인 결과 배송 완료", by: shop.operatorConsole)
            #expect(ruled.status == .rejected && ruled.ruling == "택배사 확인 결과 배송 완료" && ruled.ruledBy == shop.operatorConsole.auditActor
                    && ruled.decision == "배송 완료되었습니다" && ruled.dispute != nil)
            // The ruling is final; time confirms at once.
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(asked.id, reason: "다시요", by: parcel.buyer) }
            await expectFailure(.illegalTransition) { try await keycat.orders.approveReturn(asked.id, by: parcel.seller) }
            await #expect(try keycat.confirmDeliveredParcels() == 1)
            let actions = try await keycat.audit.list(AuditFilter(target: "return:\(asked.id)"), by: shop.operatorConsole).items.map(\.action)
            #expect(actions.sorted() == ["return.dispute", "return.reject", "return.reject"], "\(actions)")
            try await shop.expectHealthy()
        }
    }

    @Test("a dispute an operator upholds refunds the parcel; a seller may give in; past its window, or on an operator's rejection, there is none",
          arguments: TestStore.allCases)
    func disputeOutcomes(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            func rejected(_ parcel: Parcel, by decider: Principal) async throws -> ReturnRequest {
                _ = try await parcel.deliver()
                let asked = try await keycat.orders.requestReturn(of: parcel.shipment.id, reason: "불량", by: parcel.buyer)
                return try await keycat.orders.rejectReturn(asked.id, reason: "정상 제품입니다", by: decider)
            }
            // Upheld: the operator approves, and the parcel is refunded as any approved return.
            let upheld = try await Parcel(shop)
            let first = try await rejected(upheld, by: upheld.seller)
            _ = try await keycat.orders.disputeReturn(first.id, reason: "영상 첨부했습니다", by: upheld.buyer)
            let refunded = try await keycat.orders.approveReturn(first.id, restock: true, by: shop.operatorConsole)
            #expect(refunded.refundedAmount == Money(won: 200_000))
            let approved = try await keycat.orders.returnRequest(first.id, by: upheld.buyer)
            #expect(approved.status == .approved && approved.ruledBy == shop.operatorConsole.auditActor && approved.refundedAt != nil)
            await #expect(try shop.stock(of: upheld.product.id) == 5)

            // The seller, seeing the dispute, gives in.
            let conceded = try await Parcel(shop)
            let second = try await rejected(conceded, by: conceded.seller)
            _ = try await keycat.orders.disputeReturn(second.id, reason: "사진 보세요", by: conceded.buyer)
            #expect(try await keycat.orders.approveReturn(second.id, by: conceded.seller).refundedAmount == Money(won: 200_000))
            let givenIn = try await keycat.orders.returnRequest(second.id, by: conceded.buyer)
            #expect(givenIn.status == .approved && givenIn.ruledBy == conceded.seller.auditActor && givenIn.ruling == nil
                    && givenIn.decision == "정상 제품입니다", "\(givenIn)")

            // A seller who is also an operator: their rejection is still the seller's word, which
            // the buyer disputes and which another operator, not they, rules on.
            let operating = try await Parcel(shop)
            let sellerAsOperator = Principal(userID: operating.seller.userID, role: .admin)
            let sixth = try await rejected(operating, by: sellerAsOperator)
            #expect(sixth.isDisputable)
            _ = try await keycat.orders.disputeReturn(sixth.id, reason: "판매자가 직접 거절했어요", by: operating.buyer)
            await expectFailure(.forbidden) { try await keycat.orders.rejectReturn(sixth.id, reason: "아니요", by: sellerAsOperator) }
            let colleague = try await shop.user(.admin)
            #expect(try await keycat.orders.rejectReturn(sixth.id, reason: "확인 결과 정상", by: colleague).ruledBy == colleague.auditActor)

            // Past the window: no dispute.
            let late = try await Parcel(shop)
            let third = try await rejected(late, by: late.seller)
            shop.clock.advance(by: OrderService.defaultDisputeWindow + 1)
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(third.id, reason: "늦었지만", by: late.buyer) }

            // An operator's rejection is the shop's word, from the console or signed in:
            // nothing to dispute, and time does not wait for a dispute that cannot come.
            let shops = try await Parcel(shop)
            _ = try await shops.deliver()
            let fourth = try await keycat.orders.requestReturn(of: shops.shipment.id, reason: "불량", by: shops.buyer)
            shop.clock.advance(by: 7 * 86_400 + 1)
            _ = try await keycat.orders.rejectReturn(fourth.id, reason: "정상 제품입니다", by: shop.operatorConsole)
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(fourth.id, reason: "왜요", by: shops.buyer) }
            let signedIn = try await Parcel(shop)
            let seventh = try await rejected(signedIn, by: try await shop.user(.admin))
            #expect(!seventh.isDisputable)
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(seventh.id, reason: "왜요", by: signedIn.buyer) }
            _ = try await keycat.confirmDeliveredParcels()
            for confirmed in [late, shops] {
                await #expect(try keycat.orders.order(confirmed.order.id, by: confirmed.buyer).shipments[0].confirmedAt != nil)
            }

            // A rejection made while the parcel was on its way: the window runs from the delivery.
            let onItsWay = try await Parcel(shop)
            _ = try await onItsWay.ship()
            let early = try await keycat.orders.requestReturn(of: onItsWay.shipment.id, reason: "주문 취소하고 싶어요", by: onItsWay.buyer)
            _ = try await keycat.orders.rejectReturn(early.id, reason: "이미 발송되었습니다", by: onItsWay.seller)
            shop.clock.advance(by: OrderService.defaultDisputeWindow + 86_400)
            _ = try await keycat.orders.deliver(shipment: onItsWay.shipment.id, by: onItsWay.seller)
            shop.clock.advance(by: 86_400)
            #expect(try await keycat.orders.disputeReturn(early.id, reason: "받아보니 불량이에요", by: onItsWay.buyer).status == .disputed)

            // Refunded in full: nothing is left to dispute.
            let goodwill = try await Parcel(shop)
            let eighth = try await rejected(goodwill, by: goodwill.seller)
            _ = try await keycat.orders.refund(goodwill.order.id, RefundRequest(reason: "operator's goodwill"), by: shop.operatorConsole)
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(eighth.id, reason: "환불됐지만", by: goodwill.buyer) }

            // A request its seller leaves undecided goes to the operators once the window has passed.
            let ignored = try await Parcel(shop)
            _ = try await ignored.deliver()
            let unanswered = try await keycat.orders.requestReturn(of: ignored.shipment.id, reason: "답이 없어요", by: ignored.buyer)
            shop.clock.advance(by: OrderService.defaultDisputeWindow - 60)
            await expectFailure(.illegalTransition) {
                try await keycat.orders.disputeReturn(unanswered.id, reason: "판매자가 답이 없어요", by: ignored.buyer)
            }
            shop.clock.advance(by: 120)
            let escalated = try await keycat.orders.disputeReturn(unanswered.id, reason: "판매자가 답이 없어요", by: ignored.buyer)
            #expect(escalated.status == .disputed && escalated.decision == nil && escalated.dispute == "판매자가 답이 없어요")
            await expectFailure(.forbidden) { try await keycat.orders.rejectReturn(unanswered.id, reason: "늦었지만 거절", by: ignored.seller) }
            #expect(try await keycat.orders.rejectReturn(unanswered.id, reason: "사용감 확인", by: shop.operatorConsole).ruling == "사용감 확인")

            // The buyer who confirms the receipt gives the dispute up.
            let content = try await Parcel(shop)
            let fifth = try await rejected(content, by: content.seller)
            _ = try await keycat.orders.confirmReceipt(of: content.shipment.id, by: content.buyer)
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(fifth.id, reason: "역시", by: content.buyer) }
            try await shop.expectHealthy()
        }
    }

    @Test("a shop's dispute window is 0 to 90 days; at 0 a seller's rejection is final and time does not wait for it")
    func noDisputes() async throws {
        try await TestShop.withConfiguration(.sqlite) { base in
            for window in [-1, 90 * 86_400 + 1] as [TimeInterval] {
                var configuration = base
                configuration.returnDisputeWindow = window
                await expectError(.validation, field: "return_dispute_window") { try await KeyCat.open(configuration) }
            }
        }
        try await TestShop.with(.sqlite, configure: { $0.returnDisputeWindow = 0 }) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            let asked = try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "변심", by: parcel.buyer)
            shop.clock.advance(by: 7 * 86_400 + 1)
            _ = try await shop.keycat.orders.rejectReturn(asked.id, reason: "단순 변심은 불가", by: parcel.seller)
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.disputeReturn(asked.id, reason: "왜요", by: parcel.buyer) }
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)
            // Nor is a request left undecided taken to the operators.
            let undecided = try await Parcel(shop)
            _ = try await undecided.deliver()
            let waiting = try await shop.keycat.orders.requestReturn(of: undecided.shipment.id, reason: "변심", by: undecided.buyer)
            shop.clock.advance(by: 30 * 86_400)
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.disputeReturn(waiting.id, reason: "답이 없어요", by: undecided.buyer) }
            // Nor a rejection made while the parcel is still on its way, whose window would run
            // from a delivery not yet made.
            let onItsWay = try await Parcel(shop)
            _ = try await onItsWay.ship()
            let early = try await shop.keycat.orders.requestReturn(of: onItsWay.shipment.id, reason: "취소", by: onItsWay.buyer)
            #expect(try await !shop.keycat.orders.rejectReturn(early.id, reason: "발송됨", by: onItsWay.seller).isDisputable)
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.disputeReturn(early.id, reason: "왜요", by: onItsWay.buyer) }
        }
    }

    @Test("a return asked for and approved: the parcel's lines refunded to its seller's account, restocked as the seller says",
          arguments: TestStore.allCases)
    func approvedReturn(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            // A parcel still pending is cancelled, not returned.
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "too slow", by: parcel.buyer)
            }
            _ = try await parcel.ship()
            await expectFailure(.validation) { try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: " ", by: parcel.buyer) }
            let stranger = try await shop.user(.buyer)
            await expectFailure(.notFound) {
                try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "not mine", by: stranger)
            }
            let request = try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "불량: 키 하나가 안 눌려요", by: parcel.buyer)
            #expect(request.status == .requested && request.sellerID == parcel.seller.userID && request.buyerID == parcel.buyer.userID)
            await expectFailure(.duplicate) {
                try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "again", by: parcel.buyer)
            }
            // The seller's list shows it; another seller's shows nothing and cannot decide it.
            let other = try await shop.user(.seller)
            await #expect(try shop.keycat.orders.returnRequests(status: .requested, by: parcel.seller).items.map(\.id) == [request.id])
            await #expect(try shop.keycat.orders.returnRequests(by: other).items.isEmpty)
            await expectFailure(.notFound) { try await shop.keycat.orders.approveReturn(request.id, by: other) }
            await expectFailure(.notFound) { try await shop.keycat.orders.approveReturn(request.id, by: parcel.buyer) }
            await expectFailure(.forbidden) { try await shop.keycat.orders.returnRequests(by: parcel.buyer) }
            _ = try await shop.keycat.orders.deliver(shipment: parcel.shipment.id, by: parcel.seller)
            await #expect(try shop.stock(of: parcel.product.id) == 3)

            let approved = try await shop.keycat.orders.approveReturn(request.id, restock: true, by: parcel.seller)
            // The lines come back (200,000); the fee stays with the seller: the parcel travelled.
            #expect(approved.refundedAmount == Money(won: 200_000) && approved.status == .partiallyRefunded)
            #expect(approved.lines.allSatisfy { $0.refundedAt != nil })
            await #expect(try shop.stock(of: parcel.product.id) == 5)
            await #expect(try shop.keycat.orders.returnRequests(of: parcel.order.id, by: parcel.buyer).map(\.status) == [.approved])
            // Approving again refunds nothing more; rejecting an approved request is refused.
            await #expect(try shop.keycat.orders.approveReturn(request.id, restock: true, by: parcel.seller).refundedAmount == Money(won: 200_000))
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.rejectReturn(request.id, reason: "no", by: parcel.seller) }
            // Every line refunded, its fee still held: the parcel waits for its confirmation, as the
            // fee of any parcel that travelled does, and then pays the fee alone.
            var upcoming = try await shop.keycat.settlements.upcoming(by: parcel.seller)
            #expect(upcoming.tally == SettlementTally() && upcoming.awaitingConfirmation.refunds == 200_000
                    && upcoming.awaitingConfirmation.deliveryFees == 3_000, "\(upcoming)")
            _ = try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            upcoming = try await shop.keycat.settlements.upcoming(by: parcel.seller)
            #expect(upcoming.awaitingConfirmation == SettlementTally() && upcoming.tally.sales == upcoming.tally.refunds
                    && upcoming.tally.deliveryFees == 3_000, "\(upcoming)")
            try await shop.expectHealthy()
        }
    }

    @Test("a return is decided once: a rejected one is never approved, and the buyer's reason stays on the request", arguments: TestStore.allCases)
    func decidedOnce(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let rejected = try await Parcel(shop)
            _ = try await rejected.deliver()
            let first = try await shop.keycat.orders.requestReturn(of: rejected.shipment.id, reason: "색이 달라요", by: rejected.buyer)
            _ = try await shop.keycat.orders.rejectReturn(first.id, reason: "사진과 같은 색입니다", by: rejected.seller)
            await expectFailure(.illegalTransition) { try await shop.keycat.orders.approveReturn(first.id, by: shop.operatorConsole) }
            await #expect(try shop.keycat.orders.order(rejected.order.id, by: rejected.buyer).refundedAmount == .zero)

            let long = try await Parcel(shop)
            _ = try await long.deliver()
            let reason = String(repeating: "키", count: OrderService.reasonLength.upperBound)
            let second = try await shop.keycat.orders.requestReturn(of: long.shipment.id, reason: reason, by: long.buyer)
            let approved = try await shop.keycat.orders.approveReturn(second.id, by: long.seller)
            #expect(approved.refundedAmount == Money(won: 200_000))
            let refund = try #require(try await shop.keycat.orders.refunds(of: long.order.id, by: long.buyer).first)
            // The refund, its PG cancel and its `order.refunded` event name the request, not the buyer's words.
            #expect(refund.reason == "return \(second.id)")
            await #expect(try shop.keycat.orders.returnRequest(second.id, by: long.buyer).reason == reason)
            try await shop.expectHealthy()
        }
    }

    @Test("an approved return is refunded whatever keys its seller used first, by reconciliation if not at once, and its parcel is never confirmed before",
          arguments: TestStore.allCases)
    func approvedReturnKeepsItsRefund(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            let request = try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "축이 두 개 불량", by: parcel.buyer)
            // The seller refunds ₩1 under the key an approval once used: it no longer stands in
            // for the approval's refund, and KeyCat's own keys cannot be taken.
            _ = try await shop.keycat.orders.refundLines(of: parcel.shipment.id, LineRefundRequest(
                amount: Money(won: 1), reason: "사과의 뜻", idempotencyKey: "return-\(request.id)"), by: parcel.seller)
            let reserved = await expectFailure(.validation) {
                try await shop.keycat.orders.refundLines(of: parcel.shipment.id, LineRefundRequest(
                    amount: Money(won: 1), reason: "사과의 뜻", idempotencyKey: "keycat:return-\(request.id)"), by: parcel.seller)
            }
            #expect(reserved?.context["field"] == "Idempotency-Key")

            // The approval's refund is refused by the PG: the request stays approved, and the
            // parcel waits: neither time nor its buyer confirms it while it owes the buyer money.
            shop.simulator.injectFault(.error(.unauthorized), on: .cancel, times: 2)  // a 401, then again with a new token
            await expectFailure(.gatewayAuthenticationFailed) {
                try await shop.keycat.orders.approveReturn(request.id, restock: true, by: parcel.seller)
            }
            await #expect(try shop.keycat.orders.returnRequests(of: parcel.order.id, by: parcel.buyer).map(\.status) == [.approved])
            // Its buyer cannot ask again: the approval already covers every line of the parcel.
            let again = await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "다시 요청", by: parcel.buyer)
            }
            #expect(again?.message.contains("was approved") == true)
            await #expect(try shop.keycat.orders.returnRequests(of: parcel.order.id, by: parcel.buyer).map(\.status) == [.approved])
            shop.clock.advance(by: 8 * 86_400)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 0)
            let held = await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            }
            #expect(held?.message.contains("not refunded yet") == true)
            await #expect(try shop.keycat.settlements.upcoming(by: parcel.seller).tally.payout == 0)

            // Reconciliation approves it again, restocking as it was approved: the lines come back
            // (less the ₩1 already given); then the parcel, owing nothing, is confirmed by time
            // and its fee is the seller's.
            await #expect(try shop.keycat.orders.settleApprovedReturns(by: shop.operatorConsole) == 1)
            let approved = try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer)
            #expect(approved.lines.allSatisfy { $0.refundedAt != nil } && approved.refundedAmount == Money(won: 200_000))
            await #expect(try shop.stock(of: parcel.product.id) == 5)
            await #expect(try shop.keycat.orders.settleApprovedReturns(by: shop.operatorConsole) == 0)
            await #expect(try shop.keycat.orders.approveReturn(request.id, restock: true, by: parcel.seller).refundedAmount == approved.refundedAmount)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("approving an approved return again refunds as it was approved, whatever the retry says about restocking",
          arguments: TestStore.allCases)
    func retryRestocksAsApproved(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            for approvedRestocking in [true, false] {
                let parcel = try await Parcel(shop)
                _ = try await parcel.deliver()
                let request = try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "축 불량", by: parcel.buyer)
                shop.simulator.injectFault(.error(.unauthorized), on: .cancel, times: 2)  // a 401, then again with a new token
                await expectFailure(.gatewayAuthenticationFailed) {
                    try await shop.keycat.orders.approveReturn(request.id, restock: approvedRestocking, by: parcel.seller)
                }
                await #expect(try shop.keycat.orders.returnRequest(request.id, by: parcel.seller).restocks == approvedRestocking)
                // The retry says the opposite; the approval stands. Until 2026-12-01 the retry's
                // word was taken: units the seller said came back were kept, or ones never
                // returned were given back.
                let refunded = try await shop.keycat.orders.approveReturn(request.id, restock: !approvedRestocking, by: parcel.seller)
                #expect(refunded.lines.allSatisfy { $0.refundedAt != nil })
                await #expect(try shop.stock(of: parcel.product.id) == (approvedRestocking ? 5 : 3), "approved restocking: \(approvedRestocking)")
            }
            try await shop.expectHealthy()
        }
    }

    @Test("reconciliation tries the approvals it tried least recently first: one that keeps failing holds back no other",
          arguments: TestStore.allCases)
    func approvalsTakeTurns(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            var requests: [ReturnRequest] = []
            for _ in 0..<2 {
                let parcel = try await Parcel(shop)
                _ = try await parcel.deliver()
                let request = try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "불량", by: parcel.buyer)
                shop.simulator.injectFault(.error(.unauthorized), on: .cancel, times: 2)  // a 401, then again with a new token
                await expectFailure(.gatewayAuthenticationFailed) { try await shop.keycat.orders.approveReturn(request.id, by: parcel.seller) }
                requests.append(request)
            }
            // One at a time: the first fails again and goes to the back; the next run takes the second.
            shop.simulator.injectFault(.error(.unauthorized), on: .cancel, times: 2)
            await #expect(try shop.keycat.orders.settleApprovedReturns(limit: 1, by: shop.operatorConsole) == 0)
            await #expect(try shop.keycat.orders.settleApprovedReturns(limit: 1, by: shop.operatorConsole) == 1)
            await #expect(try shop.keycat.orders.returnRequest(requests[0].id, by: shop.operatorConsole).refundedAt == nil)
            await #expect(try shop.keycat.orders.returnRequest(requests[1].id, by: shop.operatorConsole).refundedAt != nil)
            await #expect(try shop.keycat.orders.settleApprovedReturns(limit: 1, by: shop.operatorConsole) == 1)
            await #expect(try shop.keycat.orders.returnRequest(requests[0].id, by: shop.operatorConsole).refundedAt != nil)
            try await shop.expectHealthy()
        }
    }

    @Test("a return approved after the seller's compensations gave back all its lines held is seen through without money",
          arguments: TestStore.allCases)
    func returnOfACompensatedParcel(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            // Both boards arrived scratched; the seller gives back all they cost, the fee aside.
            let compensated = try await shop.keycat.orders.refundLines(
                of: parcel.shipment.id, LineRefundRequest(amount: Money(won: 200_000), reason: "긁힘 보상"), by: parcel.seller)
            #expect(compensated.refundedAmount == Money(won: 200_000))
            // Then the buyer sends them back after all, and the seller takes them.
            let request = try await shop.keycat.orders.requestReturn(of: parcel.shipment.id, reason: "결국 반품", by: parcel.buyer)
            let cancels = shop.simulator.cancellations(impUID: parcel.order.impUID!).count
            let approved = try await shop.keycat.orders.approveReturn(request.id, restock: true, by: parcel.seller)
            #expect(approved.lines.allSatisfy { $0.refundedAt != nil } && approved.refundedAmount == Money(won: 200_000))
            #expect(shop.simulator.cancellations(impUID: parcel.order.impUID!).count == cancels, "no money left to move")
            await #expect(try shop.stock(of: parcel.product.id) == 5)
            await #expect(try shop.keycat.orders.returnRequest(request.id, by: parcel.buyer).refundedAt != nil)
            // Nothing holds the parcel any more: 7 days on, time confirms it, and the fee is the seller's.
            shop.clock.advance(by: 8 * 86_400)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)
            await #expect(try shop.keycat.orders.settleApprovedReturns(by: shop.operatorConsole) == 0)
            try await shop.expectHealthy()
        }
    }

    @Test("a parcel is not confirmed while a refund of its order is pending, by time or by its buyer; once it settles it is",
          arguments: TestStore.allCases)
    func pendingRefundHoldsConfirmation(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            // The seller compensates a scuffed corner; the PG acts, but its answer is lost.
            shop.simulator.injectFault(.lostAnswer, on: .cancel, times: 4)
            await expectFailure(.gatewayTimeout) {
                try await shop.keycat.orders.refundLines(of: parcel.shipment.id, LineRefundRequest(amount: Money(won: 30_000), reason: "흠집"),
                                                         by: parcel.seller)
            }
            shop.clock.advance(by: 8 * 86_400)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 0)
            let held = await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            }
            #expect(held?.message.contains("refund of order \(parcel.order.id) is in progress") == true, "\(String(describing: held))")
            // Reconciliation learns the PG's answer: the refund is done, and the parcel can be confirmed.
            #expect(try await shop.keycat.checkout.reconcile().refundsSettled == 1)
            await #expect(try shop.keycat.confirmDeliveredParcels() == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a confirmed parcel is its seller's to be paid, not to refund: only an operator refunds it, and nothing moves on a seller's try",
          arguments: TestStore.allCases)
    func confirmedParcelRefundedByOperatorOnly(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            _ = try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            // January closes and pays the seller for the parcel.
            shop.clock.advance(by: 35 * 86_400)
            let january = try await shop.keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.count == 1 && january[0].payout > .zero, "\(january)")
            // The next day the seller tries to give it all back from the shop's money.
            for request in [LineRefundRequest(reason: "환불"), LineRefundRequest(amount: Money(won: 50_000), reason: "보상")] {
                let refused = await expectFailure(.illegalTransition) {
                    try await shop.keycat.orders.refundLines(of: parcel.shipment.id, request, by: parcel.seller)
                }
                #expect(refused?.message.contains("only an operator refunds it") == true)
            }
            await #expect(try shop.keycat.orders.refunds(of: parcel.order.id, by: parcel.buyer).isEmpty)
            #expect(shop.simulator.cancellations(impUID: parcel.order.impUID!).isEmpty)
            // An operator still can: it is the shop's decision, and the shop's ledger records it.
            let refunded = try await shop.keycat.orders.refundLines(of: parcel.shipment.id, LineRefundRequest(amount: Money(won: 50_000),
                                                                                                               reason: "운영자 보상"),
                                                                    by: shop.operatorConsole)
            #expect(refunded.refundedAmount == Money(won: 50_000))
            try await shop.expectHealthy()
        }
    }

    @Test("a parcel refunded after its month waits for the month of its refund: no close pays a sale whose refund it leaves out",
          arguments: TestStore.allCases)
    func refundedAfterTheMonth(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            // Paid on 1 January; cancelled on 1 February, before January is closed.
            shop.clock.advance(by: 31 * 86_400)
            _ = try await shop.keycat.orders.cancel(parcel.order.id, reason: "changed my mind", by: parcel.buyer)
            shop.clock.advance(by: 3 * 86_400)
            let january = try await shop.keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.isEmpty, "\(january)")
            shop.clock.advance(by: 30 * 86_400)
            let february = try await shop.keycat.settlements.close(try SettlementPeriod("2026-02"), by: shop.operatorConsole)
            #expect(february.count == 1 && february[0].payout == .zero && february[0].sales == Money(won: 200_000)
                    && february[0].refunds.won == february[0].sales.won + february[0].deliveryFees.won, "\(february)")
            try await shop.expectHealthy()
        }
    }

    @Test("a confirmed parcel refunded in part after its month waits for that month too: no close pays a sale whose refund it leaves out",
          arguments: TestStore.allCases)
    func confirmedAfterARefundPastTheMonth(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            // Paid and delivered in January. On 1 February, before January is closed, the seller
            // gives back most of the parcel's value, and the buyer confirms.
            shop.clock.advance(by: 31 * 86_400)
            _ = try await shop.keycat.orders.refundLines(of: parcel.shipment.id, LineRefundRequest(amount: Money(won: 180_000), reason: "보상"),
                                                        by: parcel.seller)
            _ = try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            shop.clock.advance(by: 3 * 86_400)
            let january = try await shop.keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.isEmpty, "\(january)")
            shop.clock.advance(by: 30 * 86_400)
            let february = try await shop.keycat.settlements.close(try SettlementPeriod("2026-02"), by: shop.operatorConsole)
            #expect(february.count == 1 && february[0].sales == Money(won: 200_000) && february[0].refunds == Money(won: 180_000)
                    && february[0].payout > .zero && february[0].carriedForward == .zero, "\(february)")
            try await shop.expectHealthy()
        }
    }

    @Test("a parcel that left keeps its fee waiting for its confirmation when every line is refunded",
          arguments: TestStore.allCases)
    func refundedParcelsFeeWaits(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            // An empty box, or a made-up number: the seller ships, then refunds the lines and
            // keeps the fee, as a parcel that travelled does.
            let parcel = try await Parcel(shop)
            _ = try await parcel.ship()
            _ = try await shop.keycat.orders.refundLines(of: parcel.shipment.id, LineRefundRequest(lines: [0], reason: "품절"), by: parcel.seller)
            // The buyer says it never came: the fee goes back before anyone is paid it.
            let other = try await Parcel(shop)
            _ = try await other.ship()
            _ = try await shop.keycat.orders.refundLines(of: other.shipment.id, LineRefundRequest(lines: [0], reason: "품절"), by: other.seller)
            shop.clock.advance(by: 34 * 86_400)
            // Nothing confirmed either parcel, so January's close pays neither fee.
            let january = try await shop.keycat.settlements.close(try SettlementPeriod("2026-01"), by: shop.operatorConsole)
            #expect(january.isEmpty, "\(january)")
            let refunded = try await shop.keycat.orders.refundLines(of: other.shipment.id,
                                                                   LineRefundRequest(amount: Money(won: 3_000), reason: "미도착"),
                                                                   by: other.seller)
            #expect(refunded.status == .refunded && refunded.refundedAmount == Money(won: 203_000))
            // The first arrives and its buyer confirms it: its fee is the seller's, by February's close.
            _ = try await shop.keycat.orders.deliver(shipment: parcel.shipment.id, by: parcel.seller)
            _ = try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: parcel.buyer)
            shop.clock.advance(by: 31 * 86_400)
            let february = try await shop.keycat.settlements.close(try SettlementPeriod("2026-02"), by: shop.operatorConsole)
            let paid = february.first { $0.sellerID == parcel.seller.userID }
            #expect(paid?.deliveryFees == Money(won: 3_000) && paid?.sales == Money(won: 200_000) && paid?.refunds == Money(won: 200_000),
                    "\(february)")
            // The second parcel's sale and refunds net to nothing, and settle so.
            let nothing = february.first { $0.sellerID == other.seller.userID }
            #expect(nothing == nil || nothing?.payout == .zero, "\(february)")
            try await shop.expectHealthy()
        }
    }

    @Test("an operator who is a parcel's seller does not confirm its receipt for the buyer")
    func sellerOperatorDoesNotConfirm() async throws {
        try await TestShop.with(.sqlite) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            let sellerAsOperator = Principal(userID: parcel.seller.userID, role: .admin)
            await expectFailure(.forbidden) { try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: sellerAsOperator) }
            #expect(try await shop.keycat.orders.confirmReceipt(of: parcel.shipment.id, by: shop.operatorConsole).shipments[0].confirmedAt != nil)
        }
    }

    @Test("racing moves of one return end in one state: a dispute against the buyer's confirmation, a seller's giving in against a ruling",
          arguments: TestStore.allCases)
    func racingMoves(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            for _ in 0..<4 {
                // The buyer disputes the seller's rejection and confirms the parcel at once.
                let first = try await Parcel(shop)
                _ = try await first.deliver()
                let asked = try await keycat.orders.requestReturn(of: first.shipment.id, reason: "불량", by: first.buyer)
                _ = try await keycat.orders.rejectReturn(asked.id, reason: "정상", by: first.seller)
                let (buyer, shipment) = (first.buyer, first.shipment.id)
                async let disputing = Self.outcome { () async throws(KeyCatError) in
                    try await keycat.orders.disputeReturn(asked.id, reason: "다시 봐주세요", by: buyer)
                }
                async let confirming = Self.outcome { () async throws(KeyCatError) in
                    try await keycat.orders.confirmReceipt(of: shipment, by: buyer)
                }
                let (disputed, confirmed) = await (disputing, confirming)
                let request = try await keycat.orders.returnRequest(asked.id, by: buyer)
                let parcel = try await keycat.orders.order(first.order.id, by: buyer).shipments[0]
                switch (disputed, confirmed) {
                case (.success, .failure(let error)):
                    #expect(error.code == .illegalTransition && request.status == .disputed && parcel.confirmedAt == nil)
                case (.failure(let error), .success):
                    #expect(error.code == .illegalTransition && request.status == .rejected && parcel.confirmedAt != nil)
                default:
                    Issue.record("one of the two wins: \(disputed), \(confirmed)")
                }

                // On a disputed request, the seller gives in as an operator rules against it.
                let second = try await Parcel(shop)
                _ = try await second.deliver()
                let other = try await keycat.orders.requestReturn(of: second.shipment.id, reason: "불량", by: second.buyer)
                _ = try await keycat.orders.rejectReturn(other.id, reason: "정상", by: second.seller)
                _ = try await keycat.orders.disputeReturn(other.id, reason: "다시 봐주세요", by: second.buyer)
                let (seller, operatorConsole) = (second.seller, shop.operatorConsole)
                async let givingIn = Self.outcome { () async throws(KeyCatError) in
                    try await keycat.orders.approveReturn(other.id, by: seller)
                }
                async let ruling = Self.outcome { () async throws(KeyCatError) in
                    try await keycat.orders.rejectReturn(other.id, reason: "판정: 정상", by: operatorConsole)
                }
                let (approved, rejected) = await (givingIn, ruling)
                let decided = try await keycat.orders.returnRequest(other.id, by: second.buyer)
                let refunded = try await keycat.orders.order(second.order.id, by: second.buyer).refundedAmount
                switch (approved, rejected) {
                case (.success, .failure(let error)):
                    #expect(error.code == .illegalTransition && decided.status == .approved && refunded == Money(won: 200_000))
                case (.failure(let error), .success):
                    #expect(error.code == .illegalTransition && decided.status == .rejected && refunded == .zero)
                default:
                    Issue.record("one of the two wins: \(approved), \(rejected)")
                }
            }
            try await shop.expectHealthy()
        }
    }

    /// What `body` answered or threw, to compare two racing calls after both ended.
    static func outcome<Value: Sendable>(_ body: @Sendable () async throws(KeyCatError) -> Value) async -> Result<Value, KeyCatError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
