import Foundation

/// What an idempotency key keeps as its first answer: a record of its own, versioned, rather
/// than whatever ``Order`` encodes to today (architecture §6).
///
/// A key lives 24 hours, across deploys: a record written by one version of KeyCat may be
/// replayed by the next. Version 1 holds the order as it was answered and, apart, its id. A
/// replay answers with the stored order when it can read the record (its version is
/// ``currentVersion`` and the order decodes); otherwise — a record from another version, a bare
/// ``Order`` stored before the record existed, an order whose shape has changed since — with the
/// order as it is now, found by that id: the client asked for that order and gets it, never a
/// 500. `IdempotentReplayTests` pins version 1's JSON, so a change to how an order encodes fails
/// there and says to raise ``currentVersion``.
package struct IdempotentReplay: Codable, Sendable, Equatable {
    /// The version this build writes and answers from as stored.
    package static let currentVersion = 1

    package var version: Int
    package var orderID: OrderID
    package var order: Order

    package init(_ order: Order) {
        version = Self.currentVersion
        orderID = order.id
        self.order = order
    }

    enum CodingKeys: String, CodingKey {
        case version
        case orderID = "order_id"
        case order
    }

    /// What a stored answer says, read as far as it can be.
    package enum Reading: Equatable {
        /// The first answer, as it was.
        case answer(Order)
        /// An answer this build cannot replay as stored: answer with this order as it is now.
        case reload(OrderID)
        /// An error answer stored by versions before the record (replayed as it was).
        case failure(KeyCatError)
        /// Nothing KeyCat ever stored.
        case unreadable
    }

    package func encoded() throws(KeyCatError) -> Data {
        do { return try JSONEncoder().encode(self) } catch {
            throw KeyCatError(.internalError, "an answer could not be stored: \(error)")
        }
    }

    package static func read(_ data: Data) -> Reading {
        let decoder = JSONDecoder()
        if let record = try? decoder.decode(Self.self, from: data), record.version == currentVersion {
            return .answer(record.order)
        }
        if let header = try? decoder.decode(Header.self, from: data) { return .reload(header.orderID) }
        if let failure = try? decoder.decode(StoredFailure.self, from: data),
           let code = KeyCatError.Code(rawValue: failure.failure) {
            return .failure(KeyCatError(code, failure.message, context: failure.context))
        }
        // Before the record, the order itself was stored.
        if let bare = try? decoder.decode(BareOrder.self, from: data) { return .reload(bare.id) }
        return .unreadable
    }

    /// Any version's record: its version and the order's id, which every version keeps.
    private struct Header: Decodable {
        var version: Int
        var orderID: OrderID

        enum CodingKeys: String, CodingKey {
            case version
            case orderID = "order_id"
        }
    }

    /// An ``Order`` stored whole, before the record.
    private struct BareOrder: Decodable {
        var id: OrderID
        var merchantUID: String
    }

    /// An error answer stored by earlier versions.
    private struct StoredFailure: Decodable {
        var failure: String
        var message: String
        var context: [String: String]
    }
}
