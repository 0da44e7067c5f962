import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator

/// Checks a finished simulation against the database and the PG: oversold units, orders charged
/// twice, paid PG payments without a paid order, stock conservation, unsettled orders.
struct SimulationAudit {
    let keycat: KeyCat
    let simulator: PGSimulator
    let world: SimulationWorld

    private struct OrderFacts {
        var id: Int64
        var merchantUID: String
        var status: OrderStatus
        var stockReturned: Bool
        var productID: Int64
        var quantity: Int
        var buyerID: UserID
    }

    /// The run's orders and lines, its products' stock, orders paid twice and the payments not
    /// paid, read in one transaction of either store.
    private func readFacts<Database: SQLDatabase>(of ids: String, in database: Database)
        throws -> ([OrderFacts], [(Int64, Int)], Int, [String])
    {
        try database.read { connection in
            let facts = try connection.query("""
                SELECT o.id, o.merchant_uid, o.status, o.stock_returned, l.product_id, l.quantity, o.buyer_id
                FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE l.product_id IN (\(ids))
                """, []) { row in
                OrderFacts(id: row.int64(0), merchantUID: row.string(1), status: OrderStatus(rawValue: row.string(2)) ?? .failed,
                           stockReturned: row.bool(3), productID: row.int64(4), quantity: row.int(5),
                           buyerID: UserID(row.int64(6)))
            }
            let stock = try connection.query("SELECT id, stock FROM products WHERE id IN (\(ids))", []) {
                row in (row.int64(0), row.int(1))
            }
            let chargedTwice = try connection.queryOne("""
                SELECT count(*) FROM (SELECT p.order_id FROM payments p JOIN order_lines l ON l.order_id = p.order_id
                WHERE p.status = 'paid' AND l.product_id IN (\(ids)) GROUP BY p.order_id HAVING count(DISTINCT p.imp_uid) > 1) AS twice
                """, []) { $0.int(0) } ?? 0
            let buyers = world.buyers.map { String($0.userID.rawValue) }.joined(separator: ",")
            let recorded = try connection.query("""
                SELECT p.imp_uid FROM payments p JOIN orders o ON o.id = p.order_id
                WHERE p.status <> 'paid' AND o.buyer_id IN (\(buyers))
                """, []) { $0.string(0) }
            return (facts, stock, chargedTwice, recorded)
        }
    }

    func fill(_ report: inout PaymentSimulation.Report) throws(KeyCatError) {
        let ids = world.products.map { String($0.rawValue) }.joined(separator: ",")
        let (facts, stock, chargedTwice, recorded) = try storage {
            switch keycat.store {
            case let .sqlite(database): try readFacts(of: ids, in: database)
            case let .postgres(database): try readFacts(of: ids, in: database)
            }
        }
        report.ordersChargedTwice = chargedTwice
        var held: [Int64: Int] = [:]
        var sold: [Int64: Int] = [:]
        var statuses: [String: Int] = [:]
        let ownBuyers = Set(world.buyers.map(\.userID))
        for fact in facts {
            // Stock is counted over every order of the products (other runs share a catalog)…
            if !fact.stockReturned { held[fact.productID, default: 0] += fact.quantity }
            if fact.status.holdsPayment || fact.status == .refunded { sold[fact.productID, default: 0] += fact.quantity }
            // …settlement only over this run's orders: another run may still be going.
            guard ownBuyers.contains(fact.buyerID) else { continue }
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
        let health = try keycat.checkHealth()
        report.databaseHealthy = health.isHealthy
        report.databaseProblemDetails = health.allProblems
        report.databaseProblems = max(health.allProblems.count, health.isHealthy ? 0 : 1)
    }
}
