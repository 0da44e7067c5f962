import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// Carrier tracking (배송 조회) on each store: with a tracker, a parcel's delivery is what its
/// carrier says, and the buyer's week to confirm or return it runs from then; a parcel no
/// carrier has delivered waits four weeks from shipping, whatever its seller says.
@Suite("Carrier tracking", .serialized)
struct CarrierTrackingTests {
    typealias Parcel = PurchaseConfirmationTests.Parcel
    static let day: TimeInterval = 86_400

    static func tracked(_ carriers: SimulatedCarriers) -> (inout KeyCat.Configuration) -> Void {
        { $0.parcelTracker = carriers }
    }

    @Test("a parcel on its way that its carrier delivers is delivered at the carrier's time, and the week runs from then",
          arguments: TestStore.allCases)
    func carrierDelivers(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let parcel = try await Parcel(shop)
            let shipped = try #require(try await parcel.ship().shipments[0].shippedAt)
            var report = try await shop.keycat.trackParcels()
            #expect(report.asked == 1 && report.notFound == 1, "\(report)")
            #expect(try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer).shipments[0].carrierStatus == .notFound)
            // Asked once an hour, not at every run.
            await carriers.report(.inTransit, carrier: "kr.cjlogistics", trackingNumber: parcel.number)
            #expect(try await shop.keycat.trackParcels().asked == 0)
            shop.clock.advance(by: OrderService.trackingInterval)
            report = try await shop.keycat.trackParcels()
            #expect(report.asked == 1 && report.notFound == 0, "\(report)")
            #expect(try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer).shipments[0].carrierStatus == .inTransit)

            let deliveredAt = shipped.addingTimeInterval(Self.day)
            await carriers.report(.delivered(at: deliveredAt), carrier: "kr.cjlogistics", trackingNumber: parcel.number)
            shop.clock.advance(by: 2 * Self.day)
            report = try await shop.keycat.trackParcels()
            #expect(report.delivered == 1 && report.deliveryConfirmed == 0, "\(report)")
            let order = try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer)
            #expect(order.status == .delivered)
            #expect(order.shipments[0].status == .delivered && order.shipments[0].carrierStatus == .delivered)
            #expect(order.shipments[0].deliveredAt == deliveredAt && order.shipments[0].carrierDeliveredAt == deliveredAt)
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.deliver"), by: shop.operatorConsole)
            #expect(audit.items.map(\.actor) == ["system:tracking"], "\(audit.items)")
            // Delivered by its carrier: never asked about again.
            shop.clock.advance(by: OrderService.trackingInterval)
            let questions = await carriers.asked.count
            #expect(try await shop.keycat.trackParcels().asked == 0)
            #expect(await carriers.asked.count == questions)

            // The week runs from the carrier's delivery (a day after shipping), not from the run
            // that learnt of it (three days after).
            shop.clock.set(deliveredAt.addingTimeInterval(7 * Self.day - 60))
            #expect(try await shop.keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: 120)
            #expect(try await shop.keycat.confirmDeliveredParcels() == 1)
            try await shop.expectHealthy()
        }
    }

    @Test("a parcel its seller says was delivered and no carrier has: time waits four weeks from shipping, unless the carrier reports it",
          arguments: TestStore.allCases)
    func sellersWordWaits(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let untracked = try await Parcel(shop)
            let tracked = try await Parcel(shop)
            // Another number than the tracked parcel's, which no carrier will ever know.
            let shipped = try #require(try await shop.keycat.orders.ship(shipment: untracked.shipment.id, carrier: "cj",
                                                                          trackingNumber: "9999-0000-1111", by: untracked.seller)
                .shipments[0].shippedAt)
            _ = try await shop.keycat.orders.deliver(shipment: untracked.shipment.id, by: untracked.seller)
            let declared = try #require(try await tracked.deliver().shipments[0].deliveredAt)
            shop.clock.advance(by: 8 * Self.day)
            _ = try await shop.keycat.trackParcels()
            #expect(try await shop.keycat.confirmDeliveredParcels() == 0, "the sellers' word alone: a week is not enough")

            // The carrier says the second parcel came a day after its seller said it did.
            let carrierTime = declared.addingTimeInterval(Self.day)
            await carriers.report(.delivered(at: carrierTime), carrier: "kr.cjlogistics", trackingNumber: tracked.number)
            // Shipped over a week ago: asked daily now, not hourly.
            shop.clock.advance(by: OrderService.trackingInterval)
            #expect(try await shop.keycat.trackParcels().asked == 0)
            shop.clock.advance(by: OrderService.slowTrackingInterval - OrderService.trackingInterval)
            let report = try await shop.keycat.trackParcels()
            #expect(report.deliveryConfirmed == 1 && report.delivered == 0, "\(report)")
            let confirmedByCarrier = try await shop.keycat.orders.order(tracked.order.id, by: tracked.buyer).shipments[0]
            #expect(confirmedByCarrier.deliveredAt == declared && confirmedByCarrier.carrierDeliveredAt == carrierTime)
            // Its week is long past, but KeyCat has only just learnt of the delivery: the buyer is
            // told before time confirms it.
            #expect(try await shop.keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: OrderService.carrierNoticeGrace + 60)
            #expect(try await shop.keycat.confirmDeliveredParcels() == 1)
            #expect(try await shop.keycat.orders.order(tracked.order.id, by: tracked.buyer).shipments[0].confirmedAt != nil)
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.carrier_delivered"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["shipment:\(tracked.shipment.id)"], "\(audit.items)")

            // The untracked one: four weeks after it shipped, its buyer having had them to object.
            shop.clock.set(shipped.addingTimeInterval(28 * Self.day - 60))
            #expect(try await shop.keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: 120)
            #expect(try await shop.keycat.confirmDeliveredParcels() == 1)
            let confirmed = try await shop.keycat.orders.order(untracked.order.id, by: untracked.buyer).shipments[0]
            #expect(confirmed.confirmedAt != nil && confirmed.carrierStatus == .notFound && confirmed.carrierDeliveredAt == nil)
            try await shop.expectHealthy()
        }
    }

    @Test("a tracker that fails for one parcel: the others are asked all the same, and it is asked again an hour later",
          arguments: TestStore.allCases)
    func failures(_ store: TestStore) async throws {
        let tracker = OneFailing(failing: "553120261123")
        try await TestShop.with(store, configure: { $0.parcelTracker = tracker }) { shop in
            let failing = try await Parcel(shop)
            let answered = try await Parcel(shop)
            _ = try await failing.ship(number: "553120261123")
            let other = try await shop.keycat.orders.ship(shipment: answered.shipment.id, carrier: "한진", trackingNumber: "4100-2233-4455",
                                                          by: answered.seller)
            let report = try await shop.keycat.trackParcels()
            #expect(report.asked == 2 && report.failed == 1, "\(report)")
            #expect(try await shop.keycat.orders.order(other.id, by: answered.buyer).shipments[0].carrierStatus == .inTransit)
            #expect(try await shop.keycat.orders.order(failing.order.id, by: failing.buyer).shipments[0].carrierStatus == nil)
            #expect(try await shop.keycat.trackParcels().asked == 0, "the failed parcel waits its hour like the others")
            shop.clock.advance(by: OrderService.trackingInterval)
            let again = try await shop.keycat.trackParcels()
            #expect(again.asked == 2 && again.failed == 1, "\(again)")
        }
    }

    @Test("a mistyped number is corrected by its seller and asked about at once; not once its carrier delivered it",
          arguments: TestStore.allCases)
    func correction(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let parcel = try await Parcel(shop)
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "cj", trackingNumber: "553120261124", by: parcel.seller)
            }
            let shipped = try await shop.keycat.orders.ship(shipment: parcel.shipment.id, carrier: "cj", trackingNumber: "5531-2026-1124",
                                                            by: parcel.seller)
            #expect(try await shop.keycat.trackParcels().notFound == 1)
            await carriers.report(.delivered(at: shop.clock.now()), carrier: "kr.hanjin", trackingNumber: "553120261123")

            let stranger = try await shop.user(.seller)
            await expectFailure(.notFound) {
                try await shop.keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "hanjin", trackingNumber: "553120261123", by: stranger)
            }
            await expectFailure(.validation) {
                try await shop.keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "hanjin", trackingNumber: "55312026112", by: parcel.seller)
            }
            let before = try #require(try await shop.keycat.eventLog.settled(after: .start).last?.position)
            let corrected = try await shop.keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "한진", trackingNumber: "5531 2026 1123",
                                                                          by: parcel.seller)
            // Told as an event, with the new number, for the buyer's app.
            let told = try await shop.keycat.eventLog.settled(after: before)
            #expect(told.map(\.type) == [.shipmentTrackingCorrected], "\(told)")
            #expect(told.first?.data["tracking_number"] == "553120261123" && told.first?.data["carrier"] == "kr.hanjin", "\(told)")
            let shipment = corrected.shipments[0]
            #expect(shipment.carrier == "kr.hanjin" && shipment.trackingNumber == "553120261123" && shipment.carrierStatus == nil)
            #expect(shipment.shippedAt == shipped.shipments[0].shippedAt, "the four weeks still run from when it shipped")
            #expect(corrected.carrier == "kr.hanjin" && corrected.trackingNumber == "553120261123", "the order's copy follows its one parcel")
            // Asked again at once, within the hour the old number's answer would have waited.
            let report = try await shop.keycat.trackParcels()
            #expect(report.asked == 1 && report.delivered == 1, "\(report)")
            await expectFailure(.illegalTransition) {
                try await shop.keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "cj", trackingNumber: "553120261124", by: shop.operatorConsole)
            }
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.tracking"), by: shop.operatorConsole)
            #expect(audit.items.map(\.detail) == ["order \(parcel.order.id): kr.cjlogistics 553120261124 → kr.hanjin 553120261123"], "\(audit.items)")
            try await shop.expectHealthy()
        }
    }

    @Test("a number corrected to one already delivered closes no window; an answer about the old number after a correction is dropped",
          arguments: TestStore.allCases)
    func correctionCannotBackdate(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let keycat = shop.keycat
            let parcel = try await Parcel(shop)
            let start = shop.clock.now()
            _ = try await keycat.orders.ship(shipment: parcel.shipment.id, carrier: "cj", trackingNumber: "1111-2222-3333", by: parcel.seller)
            _ = try await keycat.orders.deliver(shipment: parcel.shipment.id, by: parcel.seller)
            let request = try await keycat.orders.requestReturn(of: parcel.shipment.id, reason: "안 왔어요", by: parcel.buyer)
            let rejected = try await keycat.orders.rejectReturn(request.id, reason: "배송 완료", by: parcel.seller)
            // Someone else's parcel, delivered the day after this one shipped.
            await carriers.report(.delivered(at: start.addingTimeInterval(Self.day)), carrier: "kr.cjlogistics", trackingNumber: "999988887777")
            shop.clock.set(start.addingTimeInterval(10 * Self.day))
            _ = try await keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "cj", trackingNumber: "9999-8888-7777", by: parcel.seller)
            let report = try await keycat.trackParcels()
            #expect(report.deliveredBeforeShipping == 1 && report.deliveryConfirmed == 0, "\(report)")
            let shipment = try await keycat.orders.order(parcel.order.id, by: parcel.buyer).shipments[0]
            #expect(shipment.carrierDeliveredAt == nil && shipment.carrierStatus == .deliveredBeforeShipping)
            // The buyer may still dispute, and time confirms nothing.
            shop.clock.advance(by: 3 * Self.day)
            #expect(try await keycat.confirmDeliveredParcels() == 0)
            #expect(try await keycat.orders.disputeReturn(rejected.id, reason: "송장이 바뀌었어요", by: parcel.buyer).status == .disputed)

            // Corrected while its old number was being asked about: the old answer is dropped.
            let raced = try await Parcel(shop)
            _ = try await keycat.orders.ship(shipment: raced.shipment.id, carrier: "cj", trackingNumber: "5555-6666-7777", by: raced.seller)
            let correcting = CorrectingTracker(at: shop.clock.now()) {
                try await keycat.orders.correctTracking(of: raced.shipment.id, carrier: "hanjin", trackingNumber: "4444-5555-6666", by: raced.seller)
            }
            let answered = try await keycat.orders.trackParcels(with: correcting, by: shop.operatorConsole)
            #expect(answered.delivered == 0 && answered.asked >= 1, "\(answered)")
            let after = try await keycat.orders.order(raced.order.id, by: raced.buyer).shipments[0]
            #expect(after.status == .shipped && after.carrierStatus == nil && after.trackingNumber == "444455556666", "\(after)")
            // Asked again at once about the new number.
            await carriers.report(.delivered(at: shop.clock.now()), carrier: "kr.hanjin", trackingNumber: "444455556666")
            #expect(try await keycat.trackParcels().delivered == 1)
            // The same number again is no correction: nothing audited, its place in line kept.
            let trail = try await keycat.audit.list(AuditFilter(action: "shipment.tracking"), by: shop.operatorConsole).items.count
            _ = try await keycat.orders.correctTracking(of: parcel.shipment.id, carrier: "cj", trackingNumber: "999988887777", by: parcel.seller)
            #expect(try await keycat.audit.list(AuditFilter(action: "shipment.tracking"), by: shop.operatorConsole).items.count == trail)
        }
    }

    @Test("a delivery time no parcel of the shop could have is a failed answer, not a crash; a run asks at most 1,000")
    func implausibleTimes() async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(.sqlite, configure: Self.tracked(carriers)) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.ship()
            for time in [Date(timeIntervalSince1970: -1e20), Date(timeIntervalSince1970: 1e20), Date(timeIntervalSince1970: 0)] {
                await carriers.report(.delivered(at: time), carrier: "kr.cjlogistics", trackingNumber: parcel.number)
                shop.clock.advance(by: OrderService.trackingInterval)
                let report = try await shop.keycat.trackParcels()
                #expect(report.failed == 1 && report.delivered == 0, "\(time): \(report)")
            }
            #expect(try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer).shipments[0].status == .shipped)
            await expectFailure(.validation) { try await shop.keycat.orders.trackParcels(with: carriers, limit: 1_001, by: shop.operatorConsole) }
        }
    }

    @Test("a run asks at most its limit, eight at a time, each parcel's answer landing on that parcel")
    func batches() async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(.sqlite, configure: Self.tracked(carriers)) { shop in
            var parcels: [(Parcel, String)] = []
            for index in 0..<11 {
                let parcel = try await Parcel(shop)
                let number = String(format: "55312026%04d", index)
                _ = try await shop.keycat.orders.ship(shipment: parcel.shipment.id, carrier: "cj", trackingNumber: number, by: parcel.seller)
                // Every other parcel delivered, a day apart, so an answer on the wrong parcel shows.
                if index.isMultiple(of: 2) {
                    await carriers.report(.delivered(at: shop.clock.now().addingTimeInterval(Double(index) * 60)),
                                          carrier: "kr.cjlogistics", trackingNumber: number)
                }
                parcels.append((parcel, number))
            }
            shop.clock.advance(by: Self.day)
            let first = try await shop.keycat.orders.trackParcels(with: carriers, limit: 10, by: shop.operatorConsole)
            #expect(first.asked == 10 && first.delivered == 5 && first.notFound == 5, "\(first)")
            let rest = try await shop.keycat.orders.trackParcels(with: carriers, limit: 10, by: shop.operatorConsole)
            #expect(rest.asked == 1 && rest.delivered == 1, "the one left over, not the ten asked within the hour: \(rest)")
            for (index, (parcel, _)) in parcels.enumerated() {
                let shipment = try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer).shipments[0]
                if index.isMultiple(of: 2) {
                    #expect(shipment.status == .delivered && shipment.carrierDeliveredAt == shipment.shippedAt?.addingTimeInterval(Double(index) * 60),
                            "parcel \(index): \(shipment)")
                } else {
                    #expect(shipment.status == .shipped && shipment.carrierStatus == .notFound, "parcel \(index): \(shipment)")
                }
            }
            await expectFailure(.forbidden) { try await shop.keycat.orders.trackParcels(with: carriers, by: parcels[0].0.seller) }
            await expectFailure(.validation) { try await shop.keycat.orders.trackParcels(with: carriers, limit: 0, by: shop.operatorConsole) }
        }
    }

    @Test("a carrier's delivery a little before shipping is the parcel's, at its shipping; well before, another parcel's; a later one, now",
          arguments: TestStore.allCases)
    func carrierClock(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let late = try await Parcel(shop)
            let reused = try await Parcel(shop)
            let future = try await Parcel(shop)
            let shipped = try #require(try await late.ship().shipments[0].shippedAt)
            _ = try await shop.keycat.orders.ship(shipment: reused.shipment.id, carrier: "cj", trackingNumber: "4000-0000-0000", by: reused.seller)
            _ = try await shop.keycat.orders.ship(shipment: future.shipment.id, carrier: "epost", trackingNumber: "6865-0123-45678", by: future.seller)
            // The seller entered the number two hours after the carrier took and delivered it.
            await carriers.report(.delivered(at: shipped.addingTimeInterval(-2 * 3_600)), carrier: "kr.cjlogistics", trackingNumber: late.number)
            // An old parcel's number, delivered three days before this one shipped.
            await carriers.report(.delivered(at: shipped.addingTimeInterval(-3 * Self.day)), carrier: "kr.cjlogistics", trackingNumber: "400000000000")
            await carriers.report(.delivered(at: shipped.addingTimeInterval(Self.day)), carrier: "kr.epost", trackingNumber: "6865012345678")
            shop.clock.advance(by: 60)
            let now = shop.clock.now()
            let report = try await shop.keycat.trackParcels()
            #expect(report.delivered == 2 && report.deliveredBeforeShipping == 1, "\(report)")
            #expect(try await shop.keycat.orders.order(late.order.id, by: late.buyer).shipments[0].deliveredAt == shipped)
            #expect(try await shop.keycat.orders.order(future.order.id, by: future.buyer).shipments[0].deliveredAt == now)
            let mismatched = try await shop.keycat.orders.order(reused.order.id, by: reused.buyer).shipments[0]
            #expect(mismatched.status == .shipped && mismatched.carrierStatus == .deliveredBeforeShipping && mismatched.carrierDeliveredAt == nil)
            // Asked again, the same answer: audited once.
            shop.clock.advance(by: OrderService.trackingInterval)
            #expect(try await shop.keycat.trackParcels().deliveredBeforeShipping == 1)
            let audit = try await shop.keycat.audit.list(AuditFilter(action: "shipment.carrier_mismatch"), by: shop.operatorConsole)
            #expect(audit.items.map(\.target) == ["shipment:\(reused.shipment.id)"], "\(audit.items)")
        }
    }

    @Test("with tracking, a rejection stays disputable until the carrier delivers (then for the window), or until the untracked wait ends",
          arguments: TestStore.allCases)
    func disputeWindow(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let keycat = shop.keycat
            func rejected(_ parcel: Parcel, number: String) async throws -> ReturnRequest {
                _ = try await keycat.orders.ship(shipment: parcel.shipment.id, carrier: "cj", trackingNumber: number, by: parcel.seller)
                _ = try await keycat.orders.deliver(shipment: parcel.shipment.id, by: parcel.seller)
                let request = try await keycat.orders.requestReturn(of: parcel.shipment.id, reason: "아직 안 왔어요", by: parcel.buyer)
                return try await keycat.orders.rejectReturn(request.id, reason: "배송 완료되었습니다", by: parcel.seller)
            }
            let delivered = try await Parcel(shop)
            let never = try await Parcel(shop)
            let start = shop.clock.now()
            let first = try await rejected(delivered, number: "553120261123")
            let second = try await rejected(never, number: "553120269999")
            // Ten days on, the seller's word alone would have closed both windows long ago.
            shop.clock.set(start.addingTimeInterval(10 * Self.day))
            await carriers.report(.delivered(at: shop.clock.now()), carrier: "kr.cjlogistics", trackingNumber: "553120261123")
            _ = try await keycat.trackParcels()
            #expect(try await keycat.confirmDeliveredParcels() == 0)
            shop.clock.advance(by: OrderService.defaultDisputeWindow - 60)
            _ = try await keycat.orders.disputeReturn(first.id, reason: "상자가 비어 있었어요", by: delivered.buyer)
            // No carrier ever delivered the other: disputable until its four weeks end, not after.
            shop.clock.set(start.addingTimeInterval(28 * Self.day - 60))
            #expect(try await keycat.confirmDeliveredParcels() == 0)
            shop.clock.set(start.addingTimeInterval(28 * Self.day + 60))
            await expectFailure(.illegalTransition) { try await keycat.orders.disputeReturn(second.id, reason: "늦었지만", by: never.buyer) }
            #expect(try await keycat.confirmDeliveredParcels() == 1, "the untracked one, its rejection no longer disputable")
            #expect(try await keycat.orders.order(never.order.id, by: never.buyer).shipments[0].confirmedAt != nil)
            try await shop.expectHealthy()
        }
    }

    @Test("a carrier's delivery learnt late leaves the buyer the dispute window from when KeyCat learnt it", arguments: TestStore.allCases)
    func disputeAfterLateNews(_ store: TestStore) async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(store, configure: Self.tracked(carriers)) { shop in
            let keycat = shop.keycat
            var rejections: [(Parcel, ReturnRequest)] = []
            for _ in 0..<2 {
                let parcel = try await Parcel(shop)
                _ = try await parcel.deliver()
                let request = try await keycat.orders.requestReturn(of: parcel.shipment.id, reason: "아직 안 왔어요", by: parcel.buyer)
                rejections.append((parcel, try await keycat.orders.rejectReturn(request.id, reason: "배송 완료되었습니다", by: parcel.seller)))
            }
            let start = shop.clock.now()
            // Both came the next day; the tracking service was down until day 10.
            for (parcel, _) in rejections {
                await carriers.report(.delivered(at: start.addingTimeInterval(Self.day)), carrier: "kr.cjlogistics", trackingNumber: parcel.number)
            }
            shop.clock.set(start.addingTimeInterval(10 * Self.day))
            #expect(try await keycat.trackParcels().asked == 2)
            let learnt = shop.clock.now()
            let parcel = try await keycat.orders.order(rejections[0].0.order.id, by: rejections[0].0.buyer).shipments[0]
            #expect(parcel.carrierDeliveredAt == start.addingTimeInterval(Self.day) && parcel.carrierNoticedAt == learnt, "\(parcel)")
            // From the carrier's time the window closed on day 4; from the news it runs to day 13.
            shop.clock.set(learnt.addingTimeInterval(OrderService.defaultDisputeWindow - 60))
            #expect(try await keycat.confirmDeliveredParcels() == 0, "a rejection still disputable holds its parcel")
            let disputed = try await keycat.orders.disputeReturn(rejections[0].1.id, reason: "상자가 비어 있었어요", by: rejections[0].0.buyer)
            #expect(disputed.status == .disputed)
            shop.clock.set(learnt.addingTimeInterval(OrderService.defaultDisputeWindow + 60))
            await expectFailure(.illegalTransition) {
                try await keycat.orders.disputeReturn(rejections[1].1.id, reason: "늦었지만", by: rejections[1].0.buyer)
            }
            #expect(try await keycat.confirmDeliveredParcels() == 1, "the undisputed one, its window over")
            try await shop.expectHealthy()
        }
    }

    @Test("a tracker that hangs counts as failed at its deadline; the run goes on")
    func deadline() async throws {
        let tracker = DeadlineTracker(Hanging(), timeout: .milliseconds(200))
        let started = ContinuousClock.now
        await expectFailure(.gatewayTimeout) {
            try await tracker.track(carrier: try Carrier.named("cj"), trackingNumber: "553120261123")
        }
        #expect(ContinuousClock.now - started < .seconds(10), "the deadline, not the tracker, ended the wait")
        let answering = DeadlineTracker(SimulatedCarriers(), timeout: .seconds(5))
        #expect(try await answering.track(carrier: try Carrier.named("cj"), trackingNumber: "553120261123") == .notFound)
    }

    @Test("without a tracker nothing is asked and the seller's word counts; with one, a four-week wait shorter than the week is refused")
    func untracked() async throws {
        try await TestShop.with(.sqlite) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            #expect(try await shop.keycat.trackParcels() == ParcelTrackingReport())
            shop.clock.advance(by: 7 * Self.day + 60)
            #expect(try await shop.keycat.confirmDeliveredParcels() == 1)
        }
        await expectFailure(.validation) {
            try await TestShop.with(configure: { $0.untrackedConfirmationDelay = 6 * Self.day; $0.parcelTracker = SimulatedCarriers() }) { _ in }
        }
        // Unused without a tracker: no reason to refuse a shop that never set it.
        try await TestShop.with(configure: { $0.untrackedConfirmationDelay = 6 * Self.day }) { _ in }
    }
}

/// A tracker that cannot answer for one tracking number and says every other is on its way.
struct OneFailing: ParcelTracker {
    let failing: String

    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        guard trackingNumber != failing else { throw KeyCatError(.gatewayTimeout, "the tracking service timed out") }
        return .inTransit
    }
}

/// A tracker that never answers, and ignores cancellation while it does not.
struct Hanging: ParcelTracker {
    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(30) { try? await Task.sleep(for: .milliseconds(50)) }
        return .inTransit
    }
}

/// A tracker whose question about a parcel makes its seller correct the number meanwhile, then
/// says the old number was delivered: the answer arrives after the correction.
struct CorrectingTracker: ParcelTracker {
    let at: Date
    let correct: @Sendable () async throws -> Order

    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        guard trackingNumber == "555566667777" else { return .notFound }
        do { _ = try await correct() } catch { throw KeyCatError(.internalError, "the test's correction failed: \(error)") }
        return .delivered(at: at)
    }
}
