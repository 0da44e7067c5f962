import Foundation
import Testing
@testable import KeyCatDomain

/// The answer an idempotency key keeps is a record of its own (``IdempotentReplay``): its JSON
/// is pinned here, so a change to how an order encodes cannot reach replays in flight unnoticed.
@Suite("Idempotent replay records")
struct IdempotentReplayTests {
    static let order = Order(
        id: OrderID(42), merchantUID: "keycat_42", buyerID: UserID(7),
        lines: [OrderLine(productID: ProductID(3), title: "Hanul H61 (갈축)", unitPrice: Money(won: 89_000), quantity: 2,
                          deliveryFee: Money(won: 3_000), sellerID: UserID(5))],
        itemsTotal: Money(won: 178_000), deliveryTotal: Money(won: 3_000), amount: Money(won: 181_000), status: .awaitingPayment,
        expiresAt: Date(timeIntervalSinceReferenceDate: 900), createdAt: Date(timeIntervalSinceReferenceDate: 0),
        updatedAt: Date(timeIntervalSinceReferenceDate: 0))

    /// Version 1 as it is stored. If this fails, an order now encodes differently: raise
    /// `IdempotentReplay.currentVersion` (records of the old version then answer with the order
    /// as it is now) and pin the new version's JSON here.
    static let versionOne = #"""
        {"version": 1, "order_id": 42, "order": {
          "id": 42, "merchantUID": "keycat_42", "buyerID": 7, "status": "awaiting_payment",
          "itemsTotal": 178000, "deliveryTotal": 3000, "amount": 181000, "refundedAmount": 0, "stockReturned": false,
          "expiresAt": 900, "createdAt": 0, "updatedAt": 0, "shipments": [],
          "lines": [{"productID": 3, "title": "Hanul H61 (갈축)", "unitPrice": 89000, "quantity": 2, "deliveryFee": 3000,
                     "sellerID": 5, "stockTaken": true}]}}
        """#

    @Test("version 1's JSON is pinned: an order that encodes differently must raise the version")
    func pinned() throws {
        let record = try IdempotentReplay(Self.order).encoded()
        let written = try JSONSerialization.jsonObject(with: record) as? NSDictionary
        let pinned = try JSONSerialization.jsonObject(with: Data(Self.versionOne.utf8)) as? NSDictionary
        #expect(written != nil && written == pinned, "\(String(decoding: record, as: UTF8.self))")
    }

    @Test("a record of this version answers as the first time; any other version, and a bare order from before the record, reload the order by id")
    func readings() throws {
        #expect(IdempotentReplay.read(try IdempotentReplay(Self.order).encoded()) == .answer(Self.order))
        let future = #"{"version": 2, "order_id": 42, "order": {"renamed": true}}"#
        #expect(IdempotentReplay.read(Data(future.utf8)) == .reload(OrderID(42)))
        let reshaped = #"{"version": 1, "order_id": 42, "order": {"id": 42}}"#
        #expect(IdempotentReplay.read(Data(reshaped.utf8)) == .reload(OrderID(42)))
        #expect(IdempotentReplay.read(try JSONEncoder().encode(Self.order)) == .reload(OrderID(42)))
        let failure = #"{"failure": "out_of_stock", "message": "sold out", "context": {"product_id": "3"}}"#
        #expect(IdempotentReplay.read(Data(failure.utf8)) == .failure(KeyCatError(.outOfStock, "sold out", context: ["product_id": "3"])))
        #expect(IdempotentReplay.read(Data("{}".utf8)) == .unreadable)
        #expect(IdempotentReplay.read(Data("not json".utf8)) == .unreadable)
    }
}
