import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

/// Checks a finished simulation against the database and the PG: oversold units, orders charged
/// twice, paid PG payments without a paid order, stock conservation, unsettled orders, orders
/// without their address, and the settlement identity against what the PG kept.
struct SimulationAudit {
    let keycat: KeyCat
    let simulator: PGSimulator
    let world: SimulationWorld

    /// What one read of either store gives the audit.
    private struct Facts {
        var lines: [OrderFacts] = []
        var stock: [(Int64, Int)] = []
        var chargedTwice = 0
        var unpaidPayments: [String] = []
        /// Every payment the run's orders recorded.
        var payments: [(merchantUID: String, impUID: String)] = []
        var ordersWithoutAddress = 0
        var entries: [SettlementEntry] = []
    }

    private struct OrderFacts {
        var id: Int64
        var merchantUID: String
        var status: OrderStatus
        var stockReturned: Bool
        var productID: Int64
        var quantity: Int
        var buyerID: UserID
    }

    /// The run's orders and lines, its products' stock, orders paid twice, the payments, the
    /// addresses and the settlement entries, read in one transaction of either store.
    private func readFacts<Database: SQLDatabase>(of ids: String, in database: Database) async throws -> Facts {
        try await database.read { connection in
            var facts = Facts()
            // A line's units are back when the line says so or the whole order does.
            facts.lines = try connection.query("""
                SELECT o.id, o.merchant_uid, o.status, o.stock_returned, l.product_id, l.quantity, o.buyer_id, l.stock_returned
                FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.product_id IN (\(ids))
                """, []) { row in
                OrderFacts(id: row.int64(0), merchantUID: row.string(1), status: OrderStatus(rawValue: row.string(2)) ?? .failed,
                           stockReturned: row.bool(3) || row.bool(7), productID: row.int64(4), quantity: row.int(5),
                           buyerID: UserID(row.int64(6)))
            }
            facts.stock = try connection.query("SELECT id, stock FROM products WHERE id IN (\(ids))", []) {
                row in (row.int64(0), row.int(1))
            }
            facts.chargedTwice = try connection.queryOne("""
                SELECT count(*) FROM (SELECT p.order_id FROM payments p JOIN order_lines l ON l.order_id = p.order_id
                WHERE p.status = 'paid' AND l.product_id IN (\(ids)) GROUP BY p.order_id HAVING count(DISTINCT p.imp_uid) > 1) AS twice
                """, []) { $0.int(0) } ?? 0
            let runOrders = "SELECT id FROM orders WHERE buyer_id IN (\(world.buyers.map { String($0.userID.rawValue) }.joined(separator: ",")))"
            facts.unpaidPayments = try connection.query("""
                SELECT imp_uid FROM payments WHERE status <> 'paid' AND order_id IN (\(runOrders))
                """, []) { $0.string(0) }
            facts.payments = try connection.query("""
                SELECT o.merchant_uid, p.imp_uid FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.id IN (\(runOrders))
                """, []) { ($0.string(0), $0.string(1)) }
            facts.ordersWithoutAddress = try connection.queryOne("""
                SELECT count(*) FROM orders o WHERE o.id IN (\(runOrders))
                AND NOT EXISTS (SELECT 1 FROM order_addresses a WHERE a.order_id = o.id)
                """, []) { $0.int(0) } ?? 0
            typealias Settlements = SQLSettlementRepository<Database>
            facts.entries = try connection.query("""
                SELECT \(Settlements.entryColumns) FROM settlement_entries WHERE order_id IN (\(runOrders))
                """, [], Settlements.decodeEntry)
            return facts
        }
    }

    func fill(_ report: inout PaymentSimulation.Report) async throws(KeyCatError) {
        let ids = world.products.map { String($0.rawValue) }.joined(separator: ",")
        let read = try await storage {
            try await readFacts(of: ids, in: keycat.store.database)
        }
        let (facts, stock, recorded) = (read.lines, read.stock, read.unpaidPayments)
        report.ordersChargedTwice = read.chargedTwice
        report.ordersWithoutAddress = read.ordersWithoutAddress
        // The settlement identity over the run's orders: what closing would make of their
        // entries (payout + commission, per seller) is what the PG kept of their payments.
        var tallies: [UserID: SettlementTally] = [:]
        for entry in read.entries { tallies[entry.sellerID, default: SettlementTally()].add(entry, policy: keycat.configuration.commission) }
        let settled = tallies.values.reduce(Int64(0)) { $0 + $1.payout + $1.commission }
        var kept: [String: Int64] = [:]
        for (merchantUID, impUID) in read.payments {
            kept[impUID] = simulator.payment(impUID: impUID)?.cancellableAmount ?? 0
            if let latest = simulator.payment(merchantUID: merchantUID) { kept[latest.impUID] = latest.cancellableAmount }
        }
        report.settlementIdentityErrors = abs(settled - kept.values.reduce(0, +))
        var held: [Int64: Int] = [:]
        var sold: [Int64: Int] = [:]
        var statuses: [String: Int] = [:]
        let ownBuyers = Set(world.buyers.map(\.userID))
        var counted: Set<Int64> = []
        for fact in facts {
            // Stock is counted over every order of the products (other runs share a catalog)…
            if !fact.stockReturned { held[fact.productID, default: 0] += fact.quantity }
            // Units sold and still out (a line refunded with its units back to stock sells again).
            if (fact.status.holdsPayment || fact.status == .refunded) && !fact.stockReturned {
                sold[fact.productID, default: 0] += fact.quantity
            }
            // …settlement only over this run's orders (once each: an order has several lines):
            // another run may still be going.
            guard ownBuyers.contains(fact.buyerID), counted.insert(fact.id).inserted else { continue }
            statuses[fact.status.rawValue, default: 0] += 1
            if fact.status == .awaitingPayment { report.unsettledOrders += 1 }
            // The PG's view: a payment still paid must belong to an order that is paid.
            if let payment = simulator.payment(merchantUID: fact.merchantUID), payment.status == .paid,
               payment.cancelledAmount < payment.amount, !fact.status.holdsPayment {
                report.paidPaymentsWithoutPaidOrder += 1
            }
        }
        for impUID in recorded {
            if let payment = simulator.payment(impUID: impUID), payment.status == .paid, payment.cancelledAmount < payment.amount {
                report.paidPaymentsWithoutPaidOrder += 1
            }
        }
        for (productID, left) in stock {
            report.oversoldUnits += max(0, sold[productID, default: 0] - world.initialStock)
            report.stockConservationErrors += abs(world.initialStock - left - held[productID, default: 0])
        }
        report.statusCounts = statuses
        // The whole of `db check`, not only KeyCat's invariants: a run on a database whose
        // integrity or foreign keys are broken does not hold.
        let health = try await keycat.checkHealth()
        report.databaseHealthy = health.isHealthy
        report.databaseProblemDetails = health.allProblems
        report.databaseProblems = max(health.allProblems.count, health.isHealthy ? 0 : 1)
    }
}
