import Foundation
import KeyCat
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
            await carriers.report(.inTransit, carrier: "kr.cjlogistics", trackingNumber: "553120261123")
            #expect(try await shop.keycat.trackParcels().asked == 0)
            shop.clock.advance(by: OrderService.trackingInterval)
            report = try await shop.keycat.trackParcels()
            #expect(report.asked == 1 && report.notFound == 0, "\(report)")
            #expect(try await shop.keycat.orders.order(parcel.order.id, by: parcel.buyer).shipments[0].carrierStatus == .inTransit)

            let deliveredAt = shipped.addingTimeInterval(Self.day)
            await carriers.report(.delivered(at: deliveredAt), carrier: "kr.cjlogistics", trackingNumber: "553120261123")
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
            await carriers.report(.delivered(at: carrierTime), carrier: "kr.cjlogistics", trackingNumber: "553120261123")
            shop.clock.advance(by: OrderService.trackingInterval)
            let report = try await shop.keycat.trackParcels()
            #expect(report.deliveryConfirmed == 1 && report.delivered == 0, "\(report)")
            let confirmedByCarrier = try await shop.keycat.orders.order(tracked.order.id, by: tracked.buyer).shipments[0]
            #expect(confirmedByCarrier.deliveredAt == declared && confirmedByCarrier.carrierDeliveredAt == carrierTime)
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
            _ = try await failing.ship()
            let other = try await shop.keycat.orders.ship(shipment: answered.shipment.id, carrier: "한진", trackingNumber: "4100-2233-4455",
                                                          by: answered.seller)
            let report = try await shop.keycat.trackParcels()
            #expect(report.asked == 2 && report.failed == 1 && report.delivered == 1, "\(report)")
            #expect(try await shop.keycat.orders.order(other.id, by: answered.buyer).shipments[0].status == .delivered)
            #expect(try await shop.keycat.orders.order(failing.order.id, by: failing.buyer).shipments[0].carrierStatus == nil)
            #expect(try await shop.keycat.trackParcels().asked == 0, "the failed parcel waits its hour like the others")
            shop.clock.advance(by: OrderService.trackingInterval)
            #expect(try await shop.keycat.trackParcels().asked == 1)
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

    @Test("a carrier's delivery time is kept between the parcel's shipping and now")
    func carrierClock() async throws {
        let carriers = SimulatedCarriers()
        try await TestShop.with(.sqlite, configure: Self.tracked(carriers)) { shop in
            let early = try await Parcel(shop)
            let late = try await Parcel(shop)
            let shipped = try #require(try await early.ship().shipments[0].shippedAt)
            _ = try await shop.keycat.orders.ship(shipment: late.shipment.id, carrier: "epost", trackingNumber: "6865-0123-45678", by: late.seller)
            await carriers.report(.delivered(at: shipped.addingTimeInterval(-Self.day)), carrier: "kr.cjlogistics", trackingNumber: "553120261123")
            await carriers.report(.delivered(at: shop.clock.now().addingTimeInterval(Self.day)), carrier: "kr.epost", trackingNumber: "6865012345678")
            shop.clock.advance(by: 60)
            let now = shop.clock.now()
            #expect(try await shop.keycat.trackParcels().delivered == 2)
            #expect(try await shop.keycat.orders.order(early.order.id, by: early.buyer).shipments[0].deliveredAt == shipped)
            #expect(try await shop.keycat.orders.order(late.order.id, by: late.buyer).shipments[0].deliveredAt == now)
        }
    }

    @Test("without a tracker nothing is asked and the seller's word counts; a four-week wait shorter than the week is refused")
    func untracked() async throws {
        try await TestShop.with(.sqlite) { shop in
            let parcel = try await Parcel(shop)
            _ = try await parcel.deliver()
            #expect(try await shop.keycat.trackParcels() == ParcelTrackingReport())
            shop.clock.advance(by: 7 * Self.day + 60)
            #expect(try await shop.keycat.confirmDeliveredParcels() == 1)
        }
        await expectFailure(.validation) {
            try await TestShop.with(configure: { $0.untrackedConfirmationDelay = 6 * Self.day }) { _ in }
        }
    }
}

/// A tracker that cannot answer for one tracking number and says every other was delivered.
struct OneFailing: ParcelTracker {
    let failing: String

    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        guard trackingNumber != failing else { throw KeyCatError(.gatewayTimeout, "the tracking service timed out") }
        return .delivered(at: .distantPast)
    }
}
