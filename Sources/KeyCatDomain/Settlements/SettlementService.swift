import Foundation

/// Monthly settlement of a marketplace (architecture §2): what each seller is owed for a closed
/// month, traced to the payment and refund rows it adds up.
///
/// Every payment that pays an order records one sale entry per order line and one per
/// shipment's delivery fee, in the payment's transaction; every refund records what it gives
/// back, line by line, in the refund's. Closing a month (``close(_:dryRun:by:)``, operators only,
/// after the month has ended in Korea) settles every entry up to its end that no earlier
/// close took, and never changes afterwards: a refund done later is an entry of a later month.
public struct SettlementService: Sendable {
    let settlements: any SettlementRepository
    let commission: CommissionPolicy
    let cursors: any PageCursorCodec
    let clock: any WallClock

    public init(settlements: any SettlementRepository, commission: CommissionPolicy, cursors: any PageCursorCodec, clock: any WallClock) {
        self.settlements = settlements
        self.commission = commission
        self.cursors = cursors
        self.clock = clock
    }

    /// Closes a month: one settlement per seller with entries in it (admin). With `dryRun`,
    /// returns what closing would make and writes nothing; a dry run of the month still under
    /// way shows what closing it now would make, so far.
    ///
    /// - Throws: `validation` for closing a month that has not ended; `duplicate` for one
    ///   already closed.
    public func close(_ period: SettlementPeriod, dryRun: Bool = false, commission override: CommissionPolicy? = nil,
                      by principal: Principal) async throws(KeyCatError) -> [Settlement] {
        try principal.require(.admin, to: "close settlement periods")
        let now = clock.now()
        guard now >= period.end || (dryRun && now >= period.start) else {
            throw KeyCatError.validation("period", "\(period) has not ended yet (it ends \(period.end) UTC)")
        }
        let policy = try (override ?? commission).validated()
        let audit = AuditEntry(actor: principal.auditActor, action: "settlement.close", target: "period:\(period)",
                               detail: policy.summary, at: now)
        return try await settlements.close(period, commission: policy, dryRun: dryRun, audit: audit, at: now)
    }

    /// Settlements newest month first. A seller sees only their own; an admin anyone's (`seller`).
    public func list(period: SettlementPeriod? = nil, seller: UserID? = nil, limit: PageLimit = .default, cursor: String? = nil,
                     by principal: Principal) async throws(KeyCatError) -> Page<Settlement> {
        try principal.require(.seller, .admin, to: "read settlements")
        let seller = principal.role == .admin ? seller : principal.userID
        let query = "settlements|\(period?.description ?? "*")|\(seller.map { "\($0)" } ?? "*")"
        let position = try cursor.map { cursor throws(KeyCatError) in try cursors.decode(cursor, query: query) }
        var items = try await settlements.settlements(period: period, seller: seller, after: position, limit: limit.value + 1)
        var next: String?
        if items.count > limit.value {
            items.removeLast()
            let last = items[items.count - 1]
            next = cursors.encode(CursorPosition(sortKey: last.id.rawValue, id: last.id.rawValue), query: query)
        }
        return Page(items: items, nextCursor: next)
    }

    /// What `seller` (a seller: themselves) has earned that no closed period settled yet, under
    /// today's commission: what is payable (its parcels' receipt confirmed) apart from what
    /// waits for purchase confirmation, what they owe from earlier settlements, and the oldest ``UpcomingSettlement/entryLimit`` entries
    /// with the commission each would carry.
    public func upcoming(seller: UserID? = nil, by principal: Principal) async throws(KeyCatError) -> UpcomingSettlement {
        try principal.require(.seller, .admin, to: "read settlements")
        if let seller, seller.rawValue < 1 { throw KeyCatError.validation("seller_id", "a user id is a positive integer") }
        let seller = principal.role == .admin ? seller ?? principal.userID : principal.userID
        let policy = try commission.validated()
        var tally = SettlementTally(), waiting = SettlementTally()
        var entries: [SettlementEntry] = []
        var payable: Set<Int64> = []
        // Counted as a close counts them: a refund of a sale an earlier close settled gives back
        // what that sale was charged, in proportion, whatever today's rate.
        try await settlements.forEachUnsettled(of: seller) { unsettled in
            var entry = unsettled.entry
            let commission = unsettled.isPayable
                ? tally.add(entry, policy: policy, settledSale: unsettled.settledSale)
                : waiting.add(entry, policy: policy, settledSale: unsettled.settledSale)
            if entries.count < UpcomingSettlement.entryLimit {
                entry.commission = Money(won: commission)
                entries.append(entry)
                if unsettled.isPayable { payable.insert(entry.id) }
            }
        }
        let owed = try await settlements.owed(by: seller)
        return UpcomingSettlement(sellerID: seller, asOf: clock.now(), tally: tally, awaitingConfirmation: waiting, entries: entries,
                                  payableEntryIDs: payable, owed: owed)
    }

    /// One settlement and the entries it adds up, for its seller or an admin.
    public func settlement(_ id: SettlementID, by principal: Principal) async throws(KeyCatError) -> (Settlement, [SettlementEntry]) {
        guard let settlement = try await settlements.settlement(id),
              principal.role == .admin || settlement.sellerID == principal.userID else {
            throw KeyCatError.notFound("settlement", id)
        }
        return await (settlement, try settlements.entries(of: id))
    }
}
