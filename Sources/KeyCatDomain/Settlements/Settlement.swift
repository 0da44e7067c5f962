import Foundation

/// Identifies one seller's settlement of one period.
public struct SettlementID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// A calendar month of settlement, in Korea's time (UTC+9, no daylight saving): `2026-11` runs
/// from 2026-11-01 00:00 KST to 2026-12-01 00:00 KST.
public struct SettlementPeriod: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    /// Korea's offset from UTC.
    public static let offset: TimeInterval = 9 * 3600

    /// Parses `YYYY-MM`.
    ///
    /// - Throws: `validation` (`period`) for anything else, or a year outside 2000–9999.
    public init(_ text: String) throws(KeyCatError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), (2000...9999).contains(year), (1...12).contains(month) else {
            throw KeyCatError.validation("period", "a period is a month written YYYY-MM, such as 2026-11")
        }
        self.year = year
        self.month = month
    }

    /// The month `date` falls in, in Korea.
    public init(containing date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: Int(Self.offset))!
        let parts = calendar.dateComponents([.year, .month], from: date)
        year = parts.year ?? 2000
        month = parts.month ?? 1
    }

    public var description: String { String(format: "%04d-%02d", year, month) }

    /// When it starts (inclusive).
    public var start: Date { Self.start(year: year, month: month) }
    /// When it ends (exclusive): the next month's start.
    public var end: Date { month == 12 ? Self.start(year: year + 1, month: 1) : Self.start(year: year, month: month + 1) }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }

    private static func start(year: Int, month: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: Int(offset))!
        return calendar.date(from: DateComponents(year: year, month: month, day: 1))!
    }
}

/// The platform's commission: a rate in basis points (1/100 of a percent) of the item amounts a
/// seller sells, by product category, with a default, and a rate of the delivery fees they charge.
///
/// Fees carry commission so that price cannot be moved out of commission's reach into the fee
/// (a ₩1 keyboard with a ₩99,999 fee would otherwise pay nothing): by default the fee rate is
/// the default item rate, so moving won from a default-rate item's price into its fee changes
/// nothing the platform keeps. A category rated above the fee rate still gains the difference
/// on what is moved; set ``deliveryFeeRate`` to the highest item rate to close that too.
///
/// Each sale line's and fee's commission is rounded down to the won, and a refunded line or fee
/// gives back the commission the same rule computes on the refunded amount, so an entry sold
/// and refunded in full nets zero.
public struct CommissionPolicy: Sendable, Hashable {
    /// 10.00 % of item amounts and of delivery fees.
    public static let standard = CommissionPolicy(defaultRate: 1_000)

    /// Basis points for a category not named in ``rates``.
    public var defaultRate: Int
    public var rates: [ProductCategory: Int]
    /// Basis points of a shipment's delivery fee.
    public var deliveryFeeRate: Int

    /// - Parameter deliveryFeeRate: the rate of delivery fees; nil (the default) takes
    ///   `defaultRate`, so a fee is charged as a default-rate item is.
    public init(defaultRate: Int, rates: [ProductCategory: Int] = [:], deliveryFeeRate: Int? = nil) {
        self.defaultRate = defaultRate
        self.rates = rates
        self.deliveryFeeRate = deliveryFeeRate ?? defaultRate
    }

    /// Throws `validation` (`commission`) unless every rate is 0–10,000 basis points.
    public func validated() throws(KeyCatError) -> CommissionPolicy {
        guard ([defaultRate, deliveryFeeRate] + Array(rates.values)).allSatisfy({ (0...10_000).contains($0) }) else {
            throw KeyCatError.validation("commission", "a commission rate is 0 to 10000 basis points (0–100 %)")
        }
        return self
    }

    /// The rate for `category` (nil: a delivery fee, charged ``deliveryFeeRate``).
    public func rate(for category: ProductCategory?) -> Int {
        guard let category else { return deliveryFeeRate }
        return rates[category] ?? defaultRate
    }

    /// The commission on `amount` won of `category` (nil: a delivery fee), rounded down.
    public func commission(on amount: Int64, category: ProductCategory?) -> Int64 {
        amount * Int64(rate(for: category)) / 10_000
    }

    /// The rates in words, for the audit log: `commission 1000 bp, keyboard 1200 bp, delivery fees 1000 bp`.
    public var summary: String {
        "commission \(defaultRate) bp"
            + rates.sorted { $0.key.rawValue < $1.key.rawValue }.map { ", \($0.key.rawValue) \($0.value) bp" }.joined()
            + ", delivery fees \(deliveryFeeRate) bp"
    }
}

/// What one seller is owed for one closed period.
///
/// What the period's ``SettlementEntry`` rows add up to is ``earned``:
/// `sales + deliveryFees − refunds − commission`, each figure the sum of its entries, each entry
/// tied to the payment or refund it came from. A month can earn less than nothing (an operator
/// refunds a sale an earlier month paid out), and what the seller then owes is not the shop's
/// loss: it is carried to their next settlement and taken off what that one pays
/// (``SettlementBalance``). So `payout − carriedForward = earned − broughtForward`, and the
/// payout is never negative. Settlements closed before carrying began (2026-11-30) have
/// nothing brought or carried, and their negative payouts stay what they were: the operator's
/// to collect.
public struct Settlement: Sendable, Hashable, Identifiable {
    public var id: SettlementID
    public var period: String
    public var sellerID: UserID
    /// Item amounts of the seller's lines paid in the period.
    public var sales: Money
    /// Their shipments' delivery fees.
    public var deliveryFees: Money
    /// What was refunded of the seller's lines and fees in the period (paid in any period).
    public var refunds: Money
    /// The platform's commission on sales and delivery fees, less what refunds gave back.
    public var commission: Money
    /// What the seller owed from their previous settlement, taken off this one.
    public var broughtForward: Money
    /// What the shop pays the seller: ``earned`` less ``broughtForward``, and never below zero.
    public var payout: Money
    /// What the seller still owes after this settlement, taken off their next one.
    public var carriedForward: Money
    public var entryCount: Int
    public var createdAt: Date

    public init(id: SettlementID, period: String, sellerID: UserID, sales: Money, deliveryFees: Money, refunds: Money,
                commission: Money, broughtForward: Money = .zero, payout: Money, carriedForward: Money = .zero,
                entryCount: Int, createdAt: Date) {
        self.id = id
        self.period = period
        self.sellerID = sellerID
        self.sales = sales
        self.deliveryFees = deliveryFees
        self.refunds = refunds
        self.commission = commission
        self.broughtForward = broughtForward
        self.payout = payout
        self.carriedForward = carriedForward
        self.entryCount = entryCount
        self.createdAt = createdAt
    }

    /// What the period's entries add up to: `sales + deliveryFees − refunds − commission`.
    public var earned: Money { Money(won: sales.won + deliveryFees.won - refunds.won - commission.won) }
}

/// A seller's balance at a close: what their entries earned, less what they owed from before.
/// What is left is paid, or, below zero, carried to their next settlement (상계: a marketplace
/// nets what a seller owes against what it will pay them, as Korean open markets do).
public struct SettlementBalance: Sendable, Hashable {
    /// What the seller owed before this close, taken off it.
    public var broughtForward: Int64
    /// What the close pays (never negative).
    public var payout: Int64
    /// What the seller still owes after it.
    public var carriedForward: Int64

    /// - Parameters:
    ///   - earned: what the close's entries add up to (``SettlementTally/payout``).
    ///   - owed: what the seller's previous settlement carried forward (not negative).
    public init(earned: Int64, owed: Int64) {
        let owed = max(owed, 0)
        let balance = earned - owed
        broughtForward = owed
        payout = max(balance, 0)
        carriedForward = max(-balance, 0)
    }
}

/// One row a settlement adds up: a sale (one order line, or one shipment's delivery fee) when
/// the order was paid, or a refund of one, when the refund was done.
public struct SettlementEntry: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case sale, refund }

    public var id: Int64
    public var kind: Kind
    public var sellerID: UserID
    public var orderID: OrderID
    public var shipmentID: ShipmentID
    /// The order line; nil for the shipment's delivery fee.
    public var line: Int?
    /// The payment a sale came from.
    public var paymentID: Int64?
    /// The refund a refund came from.
    public var refundID: Int64?
    /// The line's category; nil for a delivery fee.
    public var category: ProductCategory?
    public var amount: Money
    /// Set when settled: what the platform keeps of a sale, or gives back with a refund.
    public var commission: Money?
    public var occurredAt: Date
    public var settlementID: SettlementID?

    public init(id: Int64, kind: Kind, sellerID: UserID, orderID: OrderID, shipmentID: ShipmentID, line: Int?, paymentID: Int64?,
                refundID: Int64?, category: ProductCategory?, amount: Money, commission: Money?, occurredAt: Date,
                settlementID: SettlementID?) {
        self.id = id
        self.kind = kind
        self.sellerID = sellerID
        self.orderID = orderID
        self.shipmentID = shipmentID
        self.line = line
        self.paymentID = paymentID
        self.refundID = refundID
        self.category = category
        self.amount = amount
        self.commission = commission
        self.occurredAt = occurredAt
        self.settlementID = settlementID
    }
}

/// Where settlements are kept.
public protocol SettlementRepository: Sendable {
    /// Closes `period`: every unsettled entry that occurred before its end (an entry that
    /// committed late, after an earlier period closed, is taken by the next) is given its
    /// commission and counted into one settlement per seller, which takes off what that seller
    /// owed from their previous settlement (``SettlementBalance``); the period is recorded
    /// closed with `audit`. With `dryRun`, computes the same and writes nothing.
    ///
    /// - Throws: `conflict`-class `duplicate` when the period is already closed.
    func close(_ period: SettlementPeriod, commission: CommissionPolicy, dryRun: Bool, audit: AuditEntry, at now: Date) async throws(KeyCatError) -> [Settlement]
    /// Settlements newest period first, then by seller; optionally one period's or one seller's.
    func settlements(period: SettlementPeriod?, seller: UserID?, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Settlement]
    func settlement(_ id: SettlementID) async throws(KeyCatError) -> Settlement?
    /// The rows one settlement adds up, in the order they occurred.
    func entries(of id: SettlementID) async throws(KeyCatError) -> [SettlementEntry]
    /// Calls `body` with each of `seller`'s entries that no settlement took yet, in the order
    /// they occurred, as the next close would count it (``UnsettledEntry``).
    func forEachUnsettled(of seller: UserID, _ body: (UnsettledEntry) -> Void) async throws(KeyCatError)
    /// What `seller` owes from their settlements so far: what their latest settlement carried
    /// forward (zero when it carried nothing, or they have none).
    func owed(by seller: UserID) async throws(KeyCatError) -> Money
}
