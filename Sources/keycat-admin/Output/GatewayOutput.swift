import KeyCat

/// How payments found at the PG without a paid order are shown, by `payments reconcile` and
/// `db check --gateway` alike.
enum GatewayOutput {
    static func json(_ orphan: GatewayOrphan) -> JSONValue {
        .object([
            ("imp_uid", .string(orphan.impUID)), ("merchant_uid", .string(orphan.merchantUID)),
            ("amount", .int(orphan.amount.won)), ("order_id", orphan.orderID.map { .int($0.rawValue) } ?? .null),
            ("reason", .string(orphan.reason.rawValue)),
        ])
    }

    /// A table of orphans, or nothing when there are none.
    static func table(_ orphans: [GatewayOrphan]) -> String {
        guard !orphans.isEmpty else { return "" }
        var table = TextTable(["IMP_UID", "MERCHANT_UID", "AMOUNT", "ORDER", "REASON"])
        for orphan in orphans {
            table.append([orphan.impUID, orphan.merchantUID, "\(orphan.amount)", orphan.orderID.map { "\($0)" } ?? "-",
                          orphan.reason.rawValue])
        }
        return table.rendered()
    }
}
