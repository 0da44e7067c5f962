import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Settlements over either store. Closing a period is one transaction: the period row (its
/// primary key refuses a second close), one settlement per seller, and every entry it adds up
/// stamped with that settlement and its commission.
package struct SQLSettlementRepository<Database: SQLDatabase>: SettlementRepository {
    let database: Database

    package init(database: Database) { self.database = database }

    static var columns: String {
        "id, period, seller_id, sales, delivery_fees, refunds, commission, payout, entries, created_at, brought_forward, carried_forward"
    }

    static func decode(_ row: some SQLRow) -> Settlement {
        Settlement(
            id: SettlementID(row.int64(0)), period: row.string(1), sellerID: UserID(row.int64(2)), sales: Money(won: row.int64(3)),
            deliveryFees: Money(won: row.int64(4)), refunds: Money(won: row.int64(5)), commission: Money(won: row.int64(6)),
            broughtForward: Money(won: row.int64(10)), payout: Money(won: row.int64(7)), carriedForward: Money(won: row.int64(11)),
            entryCount: row.int(8), createdAt: StoredTime.date(row.int64(9)))
    }

    package static var entryColumns: String {
        "id, kind, seller_id, order_id, shipment_id, line, payment_id, refund_id, category, amount, commission, occurred_at, settlement_id"
    }

    package static func decodeEntry(_ row: some SQLRow) -> SettlementEntry {
        SettlementEntry(
            id: row.int64(0), kind: SettlementEntry.Kind(rawValue: row.string(1)) ?? .sale, sellerID: UserID(row.int64(2)),
            orderID: OrderID(row.int64(3)), shipmentID: ShipmentID(row.int64(4)), line: row.isNull(5) ? nil : row.int(5),
            paymentID: row.optionalInt64(6), refundID: row.optionalInt64(7),
            category: row.optionalString(8).flatMap(ProductCategory.init(rawValue:)), amount: Money(won: row.int64(9)),
            commission: row.optionalInt64(10).map(Money.init(won:)), occurredAt: StoredTime.date(row.int64(11)),
            settlementID: row.optionalInt64(12).map(SettlementID.init))
    }

    package func close(_ period: SettlementPeriod, commission policy: CommissionPolicy, dryRun: Bool, audit: AuditEntry,
                       at now: Date) async throws(KeyCatError) -> [Settlement] {
        // A dry run only reads, so it works on a read-only database (`keycat-admin` opens one).
        try await storage {
            if dryRun {
                try await database.read { try settle(period, policy, dryRun: true, audit: audit, at: now, on: $0) }
            } else {
                try await database.write { try settle(period, policy, dryRun: false, audit: audit, at: now, on: $0) }
            }
        }
    }

    private func settle(_ period: SettlementPeriod, _ policy: CommissionPolicy, dryRun: Bool, audit: AuditEntry, at now: Date,
                        on connection: Database.Connection) throws -> [Settlement] {
        let closed = try connection.queryOne("SELECT 1 FROM settlement_periods WHERE period = ?",
                                             [.text(period.description)]) { _ in true }
        guard closed == nil else {
            throw KeyCatError(.duplicate, "period \(period) is already closed; its settlements never change",
                              context: ["period": period.description])
        }
        // Each seller's entries stamped with the policy's commission, and the refunds of sales an
        // earlier close settled, each with the commission given back of what its sale was charged.
        var totals: [Int64: (tally: SettlementTally, entries: [Int64], givingBack: [(id: Int64, commission: Int64)])] = [:]
        try connection.forEach("""
            SELECT \(Self.entryColumns), \(Self.settledSale("amount")), \(Self.settledSale("commission")) FROM settlement_entries
            WHERE settlement_id IS NULL AND occurred_at < ? AND \(SettlementLedger.payable(closingAt: true))
            ORDER BY occurred_at, id
            """, [StoredTime.value(period.end), StoredTime.value(period.end)]) { row in
            let entry = Self.decodeEntry(row)
            let sale = row.isNull(13) || row.isNull(14) ? nil : (amount: row.int64(13), commission: row.int64(14))
            let commission = totals[entry.sellerID.rawValue, default: (SettlementTally(), [], [])].tally
                .add(entry, policy: policy, settledSale: sale)
            if entry.kind == .refund, let sale, sale.amount > 0 {
                totals[entry.sellerID.rawValue]?.givingBack.append((entry.id, commission))
            } else {
                totals[entry.sellerID.rawValue]?.entries.append(entry.id)
            }
        }
        // What each of them owes from before: their latest settlement's carry. A close of
        // another period at the same time reads and adds to the same rows, so one of the two
        // serializable transactions fails and runs again after the other, and no debt is taken
        // off twice.
        let owed = totals.isEmpty ? [:] : try Self.owed(by: Array(totals.keys), on: connection)
        if !dryRun {
            try connection.run("""
                INSERT INTO settlement_periods (period, starts_at, ends_at, closed_at, closed_by) VALUES (?, ?, ?, ?, ?)
                """, [.text(period.description), StoredTime.value(period.start), StoredTime.value(period.end),
                      StoredTime.value(now), .text(audit.actor)])
        }
        var settlements: [Settlement] = []
        for (seller, (total, entries, givingBack)) in totals.sorted(by: { $0.key < $1.key }) {
            let balance = SettlementBalance(earned: total.payout, owed: owed[seller] ?? 0)
            var settlement = Settlement(
                id: SettlementID(0), period: period.description, sellerID: UserID(seller), sales: Money(won: total.sales),
                deliveryFees: Money(won: total.deliveryFees), refunds: Money(won: total.refunds),
                commission: Money(won: total.commission), broughtForward: Money(won: balance.broughtForward),
                payout: Money(won: balance.payout), carriedForward: Money(won: balance.carriedForward),
                entryCount: total.entryCount, createdAt: now)
            if !dryRun {
                settlement.id = SettlementID(try connection.insertReturningID("""
                    INSERT INTO settlements (period, seller_id, sales, delivery_fees, refunds, commission, brought_forward, payout,
                                             carried_forward, entries, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(period.description), .integer(seller), .integer(total.sales), .integer(total.deliveryFees),
                          .integer(total.refunds), .integer(total.commission), .integer(balance.broughtForward),
                          .integer(balance.payout), .integer(balance.carriedForward), .int(total.entryCount),
                          StoredTime.value(now)]))
                // One statement stamps the seller's entries, each with the commission
                // the policy gives it (the same integer arithmetic as above): a delivery fee's
                // entry has no category and is charged the fee rate.
                let rates = ProductCategory.allCases.map { "WHEN '\($0.rawValue)' THEN \(policy.rate(for: $0))" }.joined(separator: " ")
                let stamped = try connection.run("""
                    UPDATE settlement_entries SET settlement_id = ?,
                        commission = CASE WHEN category IS NULL THEN amount * \(policy.rate(for: nil)) / 10000
                                          ELSE amount * (CASE category \(rates) ELSE \(policy.defaultRate) END) / 10000 END
                    WHERE settlement_id IS NULL AND id IN (\(connection.dialect.integersFromJSON))
                    """, [.integer(settlement.id.rawValue),
                          .text("[" + entries.map(String.init).joined(separator: ",") + "]")])
                var givenBack = 0
                for refund in givingBack {
                    givenBack += try connection.run(
                        "UPDATE settlement_entries SET settlement_id = ?, commission = ? WHERE id = ? AND settlement_id IS NULL",
                        [.integer(settlement.id.rawValue), .integer(refund.commission), .integer(refund.id)])
                }
                guard stamped == entries.count, givenBack == givingBack.count else {
                    throw KeyCatError(.requestInProgress, "entries of seller \(seller) changed while \(period) was closing; run it again")
                }
            }
            settlements.append(settlement)
        }
        if !dryRun {
            var audit = audit
            audit.detail += "; \(settlements.count) settlements, payouts \(settlements.reduce(0) { $0 + $1.payout.won }) won"
                + ", owed \(settlements.reduce(0) { $0 + $1.carriedForward.won }) won carried"
            try AuditLogTable.insert(audit, on: connection)
            // One event per seller's settlement: each seller's systems are told of their own.
            try EventOutbox.append(settlements.map { settlement in
                DomainEvent(.settlementClosed, at: now, aggregate: EventAggregate(.settlement, settlement.id.rawValue), data: [
                    "settlement_id": .integer(settlement.id.rawValue), "period": .string(settlement.period),
                    "seller_id": .integer(settlement.sellerID.rawValue), "sales": .won(settlement.sales),
                    "delivery_fees": .won(settlement.deliveryFees), "refunds": .won(settlement.refunds),
                    "commission": .won(settlement.commission), "brought_forward": .won(settlement.broughtForward),
                    "payout": .won(settlement.payout), "carried_forward": .won(settlement.carriedForward),
                    "entries": .integer(Int64(settlement.entryCount)),
                ])
            }, on: connection)
        }
        return settlements
    }

    /// `column` (`amount` or `commission`) of the sale a `settlement_entries` row gives back,
    /// when it is a refund and an earlier close settled that sale (same order, shipment and
    /// line, or the same shipment's fee); NULL otherwise. One sale entry per line and per fee.
    static func settledSale(_ column: String) -> String {
        """
        (SELECT s.\(column) FROM settlement_entries s
         WHERE settlement_entries.kind = 'refund' AND s.kind = 'sale' AND s.order_id = settlement_entries.order_id
           AND s.shipment_id = settlement_entries.shipment_id AND coalesce(s.line, -1) = coalesce(settlement_entries.line, -1)
           AND s.settlement_id IS NOT NULL AND s.commission IS NOT NULL
         ORDER BY s.id LIMIT 1)
        """
    }

    package func settlements(period: SettlementPeriod?, seller: UserID?, after position: CursorPosition?, limit: Int) async throws(KeyCatError) -> [Settlement] {
        var conditions = ["id < ?"]
        var arguments: [SQLValue] = [.integer(position?.id ?? Int64.max)]
        if let period { conditions.append("period = ?"); arguments.append(.text(period.description)) }
        if let seller { conditions.append("seller_id = ?"); arguments.append(.integer(seller.rawValue)) }
        return try await storage {
            try await database.read {
                try $0.query("""
                    SELECT \(Self.columns) FROM settlements WHERE \(conditions.joined(separator: " AND ")) ORDER BY id DESC LIMIT ?
                    """, arguments + [.int(limit)], Self.decode)
            }
        }
    }

    package func settlement(_ id: SettlementID) async throws(KeyCatError) -> Settlement? {
        try await storage {
            try await database.read { try $0.queryOne("SELECT \(Self.columns) FROM settlements WHERE id = ?", [.integer(id.rawValue)], Self.decode) }
        }
    }

    package func entries(of id: SettlementID) async throws(KeyCatError) -> [SettlementEntry] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(Self.entryColumns) FROM settlement_entries WHERE settlement_id = ? ORDER BY occurred_at, id",
                             [.integer(id.rawValue)], Self.decodeEntry)
            }
        }
    }

    package func owed(by seller: UserID) async throws(KeyCatError) -> Money {
        try await storage {
            try await database.read { Money(won: try Self.owed(by: [seller.rawValue], on: $0)[seller.rawValue] ?? 0) }
        }
    }

    /// What each of `sellers` owes: their latest settlement's carry (none for a seller without one).
    private static func owed(by sellers: [Int64], on connection: Database.Connection) throws -> [Int64: Int64] {
        var owed: [Int64: Int64] = [:]
        try connection.forEach("""
            SELECT s.seller_id, s.carried_forward FROM settlements s
            WHERE s.seller_id IN (\(connection.dialect.integersFromJSON))
              AND s.id = (SELECT max(p.id) FROM settlements p WHERE p.seller_id = s.seller_id)
            """, [.text("[" + sellers.sorted().map(String.init).joined(separator: ",") + "]")]) { row in
            owed[row.int64(0)] = row.int64(1)
        }
        return owed
    }

    package func forEachUnsettled(of seller: UserID, _ body: (UnsettledEntry) -> Void) async throws(KeyCatError) {
        try await storage {
            try await database.read {
                try $0.forEach("""
                    SELECT \(Self.entryColumns), CASE WHEN \(SettlementLedger.payable()) THEN 1 ELSE 0 END,
                           \(Self.settledSale("amount")), \(Self.settledSale("commission"))
                    FROM settlement_entries WHERE seller_id = ? AND settlement_id IS NULL
                    ORDER BY occurred_at, id
                    """, [.integer(seller.rawValue)]) { row in
                    let sale = row.isNull(14) || row.isNull(15) ? nil : (amount: row.int64(14), commission: row.int64(15))
                    body(UnsettledEntry(entry: Self.decodeEntry(row), isPayable: row.bool(13), settledSale: sale))
                }
            }
        }
    }
}
