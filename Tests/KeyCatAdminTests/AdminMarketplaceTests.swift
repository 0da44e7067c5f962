import Foundation
import KeyCat
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

/// The marketplace from the command line, on both stores: a seller's desk (`orders list
/// --seller`), an order's parcels (`orders show`), `shipments ship|deliver`, a seller's
/// statistics (`stats --seller`), and a month's settlement run, refused twice, listed, shown and
/// exported. The history is made through the library a month and more back, so the month has
/// ended by the real clock the CLI reads.
@Suite("keycat-admin for the marketplace")
struct AdminMarketplaceTests {
    struct History {
        var period: SettlementPeriod
        var sellerA: UserID
        var sellerB: UserID
        var order: Order
    }

    /// Two sellers' products in one paid order to a saved address, made on the 10th of last
    /// month (Korean time): A's parcel delivered, B's pending.
    static func history(in database: AdminDatabase) async throws -> History {
        let now = Date()
        let lastMonth = SettlementPeriod(containing: SettlementPeriod(containing: now).start.addingTimeInterval(-86_400))
        let clock = TestClock(lastMonth.start.addingTimeInterval(9 * 86_400 + 12 * 3_600))
        var configuration = database.configuration
        configuration.clock = clock
        configuration.passwordIterations = 1_000
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        let console = Principal.operatorConsole("test")
        func user(_ name: String, _ role: Role) async throws -> Principal {
            let user = try await keycat.accounts.createUser(SignUpForm(email: "\(name)@example.com", password: "keycat-\(name)-1", nick: name),
                                                            role: role, by: console)
            return Principal(userID: user.id, role: role)
        }
        let sellerA = try await user("seller-a", .seller)
        let sellerB = try await user("seller-b", .seller)
        let buyer = try await user("buyer", .buyer)
        func listing(_ title: String, price: Int64, fee: Int64, by seller: Principal) async throws -> Product {
            try await keycat.catalog.create(ProductDraft(
                kind: .commercial, category: .keycap, title: title, content: "Marketplace test listing.",
                pricing: Pricing(regularPrice: Money(won: price), salePrice: Money(won: price)),
                delivery: Delivery(fee: Money(won: fee), schedule: .nextDay), stock: 5), for: seller.userID, by: seller)
        }
        let board = try await listing("Board", price: 100_000, fee: 3_000, by: sellerA)
        let caps = try await listing("Caps", price: 20_000, fee: 2_500, by: sellerB)
        let home = try await keycat.addresses.add(try DeliveryAddress.validated(
            recipient: "김민아", phone: "010-1234-5678", postcode: "06236", roadAddress: "서울특별시 강남구 테헤란로 152",
            detail: "12층", request: ""), by: buyer)
        let order = try await keycat.checkout.checkout(CheckoutRequest(.items([
            CheckoutItem(productID: board.id, quantity: 1), CheckoutItem(productID: caps.id, quantity: 2),
        ]), destination: .saved(home.id)), by: buyer)
        let simulator = try #require(keycat.paymentSimulator)
        let payment = try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
        _ = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
        let parcelA = try #require(order.shipments.first { $0.sellerID == sellerA.userID })
        _ = try await keycat.orders.ship(shipment: parcelA.id, carrier: "cj", trackingNumber: "123456789012", by: sellerA)
        let delivered = try await keycat.orders.deliver(shipment: parcelA.id, by: sellerA)
        return History(period: lastMonth, sellerA: sellerA.userID, sellerB: sellerB.userID, order: delivered)
    }

    static func json(_ outcome: AdminProcess.Outcome) throws -> [String: Any] {
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try jsonObject(outcome.standardOutput)
    }

    @Test("a seller's desk, the parcels, shipping, a seller's statistics, and a month settled once", arguments: TestStore.allCases)
    func marketplace(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let db = ["--db", database.argument]
            let history = try await Self.history(in: database)
            let (a, b) = (String(history.sellerA.rawValue), String(history.sellerB.rawValue))

            // B's desk: the pending parcel, the address, the buyer's nick; A's has no pending parcel.
            let desk = try Self.json(try database.run(["orders", "list", "--seller", b, "--desk", "--json"] + db))
            let items = try #require(desk["items"] as? [[String: Any]])
            #expect(items.count == 1 && items[0]["buyer_nick"] as? String == "buyer", "\(items)")
            #expect((items[0]["shipping_address"] as? [String: Any])?["recipient"] as? String == "김민아")
            #expect((items[0]["lines"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Caps"])
            let pendingA = try Self.json(try database.run(["orders", "list", "--seller", a, "--shipment", "pending", "--json"] + db))
            #expect((pendingA["items"] as? [Any])?.isEmpty == true)
            #expect(try database.run(["orders", "list", "--seller", a, "--desk", "--status", "paid"] + db).status == 2)
            #expect(try database.run(["orders", "list", "--shipment", "pending"] + db).status == 2)
            #expect(try database.run(["orders", "list", "--desk"] + db).status == 2)

            // The operators' list by seller and placing window: the whole order, both sellers' lines.
            let orderID = history.order.id.rawValue
            for seller in [a, b] {
                let bySeller = try Self.json(try database.run(["orders", "list", "--seller", seller, "--json"] + db))
                let found = try #require(bySeller["items"] as? [[String: Any]])
                #expect(found.map { $0["id"] as? Int } == [Int(orderID)] && (found[0]["lines"] as? [Any])?.count == 2, "\(found)")
            }
            let placed = history.order.createdAt
            let window = ["--since", placed.formatted(.iso8601), "--until", placed.addingTimeInterval(1).formatted(.iso8601)]
            let inWindow = try Self.json(try database.run(["orders", "list", "--seller", b] + window + ["--json"] + db))
            #expect((inWindow["items"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(orderID)], "\(inWindow)")
            let later = try Self.json(try database.run(["orders", "list", "--seller", b, "--since",
                                                        placed.addingTimeInterval(1).formatted(.iso8601), "--json"] + db))
            #expect((later["items"] as? [Any])?.isEmpty == true)
            let unknown = try Self.json(try database.run(["orders", "list", "--seller", "999999", "--json"] + db))
            #expect((unknown["items"] as? [Any])?.isEmpty == true && unknown["next_cursor"] is NSNull)
            #expect(try database.run(["orders", "list", "--since", "2026-11-02", "--until", "2026-11-01"] + db).status == 2)

            // B's parcel leaves and arrives from the command line; the order follows.
            let parcelB = try #require(history.order.shipments.first { $0.sellerID == history.sellerB })
            let wrong = try database.run(["shipments", "ship", String(parcelB.id.rawValue), "--carrier", "우체국", "--tracking", "12345"] + db)
            #expect(wrong.status == 1 && wrong.standardError.contains("tracking"), "\(wrong.standardError)")
            #expect(try database.run(["shipments", "ship", String(parcelB.id.rawValue), "--carrier", "한진", "--tracking", "4123-4567-89"] + db)
                .status == 0)
            // The number was mistyped: corrected before delivery (송장 수정).
            let corrected = try Self.json(try database.run(["shipments", "correct-tracking", String(parcelB.id.rawValue), "--carrier", "롯데",
                                                            "--tracking", "2345-6789-0123", "--json"] + db))
            let correctedParcel = (corrected["shipments"] as? [[String: Any]])?.first { ($0["id"] as? Int).map(Int64.init) == parcelB.id.rawValue }
            #expect(correctedParcel?["carrier"] as? String == "kr.lotte" && correctedParcel?["tracking_number"] as? String == "234567890123",
                    "\(corrected)")
            #expect(try database.run(["shipments", "deliver", String(parcelB.id.rawValue)] + db).status == 0)
            let shown = try Self.json(try database.run(["orders", "show", String(history.order.id.rawValue), "--json"] + db))
            #expect(shown["fulfilment"] as? String == "delivered" && (shown["shipments"] as? [Any])?.count == 2, "\(shown)")

            // Statistics of each seller's share: their lines and fee.
            let statsA = try Self.json(try database.run(["stats", "--seller", a, "--days", "90", "--json"] + db))
            let statsB = try Self.json(try database.run(["stats", "--seller", b, "--days", "90", "--json"] + db))
            #expect(statsA["total_sales"] as? Int == 103_000 && statsB["total_sales"] as? Int == 42_500, "\(statsA) \(statsB)")
            #expect(statsA["seller_id"] as? Int == Int(history.sellerA.rawValue))

            // Nothing is payable before receipt is confirmed (구매확정). Reconciliation confirms
            // A's parcel, delivered last month, more than 7 days ago; the operator confirms B's
            // for the buyer.
            let month = history.period.description
            let unconfirmed = try Self.json(try database.run(["settlements", "run", "--period", month, "--dry-run", "--json"] + db))
            #expect((unconfirmed["items"] as? [Any])?.isEmpty == true, "\(unconfirmed)")
            let reconciled = try Self.json(try database.run(["payments", "reconcile", "--json"] + db))
            #expect(reconciled["parcels_confirmed"] as? Int == 1, "\(reconciled)")
            let received = try database.run(["shipments", "confirm-receipt", String(parcelB.id.rawValue)] + db)
            #expect(received.status == 0, "\(received.standardError)")

            // Last month: a dry run, the close, a second close refused, and the records.
            let dry = try Self.json(try database.run(["settlements", "run", "--period", month, "--dry-run", "--json"] + db))
            let payouts = Set((dry["items"] as? [[String: Any]])?.compactMap { $0["payout"] as? Int } ?? [])
            // A: 100,000 + 3,000 − 10 % of both; B: 40,000 + 2,500 − 10 % of both.
            #expect(payouts == [92_700, 38_250] && dry["month_ended"] as? Bool == true, "\(dry)")
            let human = try database.run(["settlements", "run", "--period", month, "--dry-run"] + db)
            #expect(human.standardOutput.contains("Rates: commission 1000 bp, delivery fees 1000 bp."), "\(human.standardOutput)")
            let none = try Self.json(try database.run(["settlements", "list", "--json"] + db))
            #expect((none["items"] as? [Any])?.isEmpty == true, "a dry run wrote \(none)")
            let closed = try Self.json(try database.run(["settlements", "run", "--period", month, "--json"] + db))
            #expect((closed["items"] as? [[String: Any]])?.count == 2)
            let again = try database.run(["settlements", "run", "--period", month] + db)
            #expect(again.status == 1 && again.standardError.contains("already closed"), "\(again.standardError)")
            let current = SettlementPeriod(containing: Date()).description
            let early = try database.run(["settlements", "run", "--period", current] + db)
            #expect(early.status == 1 && early.standardError.contains("has not ended"), "\(early.standardError)")
            let list = try Self.json(try database.run(["settlements", "list", "--seller", a, "--json"] + db))
            let settlement = try #require((list["items"] as? [[String: Any]])?.first)
            #expect(settlement["payout"] as? Int == 92_700)
            let detail = try Self.json(try database.run(["settlements", "show", String(settlement["id"] as? Int ?? 0), "--json"] + db))
            #expect((detail["entries"] as? [[String: Any]])?.count == 2, "\(detail)")
            let csv = try database.run(["settlements", "export", "--period", month, "--format", "csv"] + db)
            // One row per entry: each line and each fee of the two parcels, with its commission.
            let rows = csv.standardOutput.components(separatedBy: .newlines).filter { !$0.isEmpty }.dropFirst()
            #expect(csv.status == 0 && rows.count == 4, "\(csv.standardOutput)")
            #expect(Set(rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[10] }) == ["100000", "3000", "40000", "2500"],
                    "\(csv.standardOutput)")
            #expect(try database.run(["db", "check"] + db).status == 0)
        }
    }
}
