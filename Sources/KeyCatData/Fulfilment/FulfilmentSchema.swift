import KeyCatInfrastructure

/// The marketplace's tables (the "marketplace fulfilment" migration): address books, the
/// addresses orders ship to, per-seller shipments, and the settlement ledger.
///
/// - `order_addresses` holds an order's copy of its address (one row per order that has one),
///   apart from `orders` so anonymising it touches nothing else.
/// - `shipments`: one per (order, seller). `order_lines.shipment_id` says which parcel a line
///   travels in; `order_lines.stock_returned` says its units went back (the order's flag means
///   all of them did); `refunded_at` marks a line refunded on its own.
/// - `settlement_entries` is the ledger settlements add up: one `sale` row per paid line and per
///   shipment fee, written with the payment; `refund` rows with each refund. A closed period's
///   rows carry its settlement and never change.
///
/// Orders made before this migration get their shipments here: one per seller of their lines,
/// charging the fees those lines were charged, in the state the order was in. Their payments and
/// refunds have no settlement entries: settlement starts with the payments made after it.
enum FulfilmentSchema {
    static func sql(_ type: SQLDialect.ColumnTypes) -> String {
        """
        CREATE TABLE addresses (
            id           \(type.rowID),
            user_id      \(type.integer) NOT NULL REFERENCES users (id),
            recipient    \(type.text) NOT NULL,
            phone        \(type.text) NOT NULL,
            postcode     \(type.text) NOT NULL,
            road_address \(type.text) NOT NULL,
            detail       \(type.text) NOT NULL,
            request      \(type.text) NOT NULL,
            is_default   \(type.integer) NOT NULL DEFAULT 0,
            created_at   \(type.integer) NOT NULL,
            updated_at   \(type.integer) NOT NULL
        )\(type.tableOptions);
        CREATE INDEX addresses_by_user ON addresses (user_id, id);
        CREATE UNIQUE INDEX addresses_one_default ON addresses (user_id) WHERE is_default = 1;

        CREATE TABLE order_addresses (
            order_id      \(type.integer) NOT NULL PRIMARY KEY REFERENCES orders (id),
            recipient     \(type.text) NOT NULL,
            phone         \(type.text) NOT NULL,
            postcode      \(type.text) NOT NULL,
            road_address  \(type.text) NOT NULL,
            detail        \(type.text) NOT NULL,
            request       \(type.text) NOT NULL,
            anonymised_at \(type.integer)
        )\(type.tableOptions);

        CREATE TABLE shipments (
            id              \(type.rowID),
            order_id        \(type.integer) NOT NULL REFERENCES orders (id),
            seller_id       \(type.integer) NOT NULL REFERENCES users (id),
            status          \(type.text) NOT NULL CHECK (status IN ('pending', 'shipped', 'delivered', 'cancelled')),
            delivery_fee    \(type.integer) NOT NULL CHECK (delivery_fee >= 0),
            carrier         \(type.text),
            tracking_number \(type.text),
            created_at      \(type.integer) NOT NULL,
            updated_at      \(type.integer) NOT NULL,
            shipped_at      \(type.integer),
            delivered_at    \(type.integer)
        )\(type.tableOptions);
        CREATE UNIQUE INDEX shipments_by_order ON shipments (order_id, seller_id);
        CREATE INDEX shipments_by_seller ON shipments (seller_id, created_at, order_id);
        CREATE INDEX shipments_by_seller_status ON shipments (seller_id, status, created_at, order_id);

        ALTER TABLE order_lines ADD COLUMN shipment_id \(type.integer) REFERENCES shipments (id);
        ALTER TABLE order_lines ADD COLUMN stock_returned \(type.integer) NOT NULL DEFAULT 0;
        ALTER TABLE order_lines ADD COLUMN refunded_at \(type.integer);
        CREATE INDEX order_lines_by_shipment ON order_lines (shipment_id);
        UPDATE order_lines SET stock_returned = 1 WHERE order_id IN (SELECT id FROM orders WHERE stock_returned = 1);

        ALTER TABLE refunds ADD COLUMN shipment_id \(type.integer) REFERENCES shipments (id);
        ALTER TABLE refunds ADD COLUMN refund_lines \(type.text);
        ALTER TABLE refunds ADD COLUMN includes_fee \(type.integer) NOT NULL DEFAULT 0;

        INSERT INTO shipments (order_id, seller_id, status, delivery_fee, carrier, tracking_number, created_at, updated_at,
                               shipped_at, delivered_at)
        SELECT o.id, p.seller_id,
               CASE WHEN o.delivered_at IS NOT NULL THEN 'delivered'
                    WHEN o.carrier IS NOT NULL THEN 'shipped'
                    WHEN o.status IN ('paid', 'awaiting_payment') THEN 'pending'
                    ELSE 'cancelled' END,
               sum(l.delivery_fee), o.carrier, o.tracking_number, o.created_at, o.updated_at,
               CASE WHEN o.carrier IS NOT NULL THEN o.updated_at END, o.delivered_at
        FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN products p ON p.id = l.product_id
        GROUP BY o.id, p.seller_id, o.status, o.carrier, o.tracking_number, o.created_at, o.updated_at, o.delivered_at;
        UPDATE order_lines SET shipment_id = (
            SELECT s.id FROM shipments s JOIN products p ON p.seller_id = s.seller_id
            WHERE s.order_id = order_lines.order_id AND p.id = order_lines.product_id);

        CREATE TABLE settlement_periods (
            period    \(type.text) PRIMARY KEY,
            starts_at \(type.integer) NOT NULL,
            ends_at   \(type.integer) NOT NULL,
            closed_at \(type.integer) NOT NULL,
            closed_by \(type.text) NOT NULL
        )\(type.tableOptions);

        CREATE TABLE settlements (
            id            \(type.rowID),
            period        \(type.text) NOT NULL REFERENCES settlement_periods (period),
            seller_id     \(type.integer) NOT NULL REFERENCES users (id),
            sales         \(type.integer) NOT NULL,
            delivery_fees \(type.integer) NOT NULL,
            refunds       \(type.integer) NOT NULL,
            commission    \(type.integer) NOT NULL,
            payout        \(type.integer) NOT NULL,
            entries       \(type.integer) NOT NULL,
            created_at    \(type.integer) NOT NULL
        )\(type.tableOptions);
        CREATE UNIQUE INDEX settlements_by_period ON settlements (period, seller_id);
        CREATE INDEX settlements_by_seller ON settlements (seller_id, id);

        CREATE TABLE settlement_entries (
            id            \(type.rowID),
            kind          \(type.text) NOT NULL CHECK (kind IN ('sale', 'refund')),
            seller_id     \(type.integer) NOT NULL REFERENCES users (id),
            order_id      \(type.integer) NOT NULL REFERENCES orders (id),
            shipment_id   \(type.integer) NOT NULL REFERENCES shipments (id),
            line          \(type.integer),
            payment_id    \(type.integer) REFERENCES payments (id),
            refund_id     \(type.integer) REFERENCES refunds (id),
            category      \(type.text),
            amount        \(type.integer) NOT NULL CHECK (amount > 0),
            commission    \(type.integer),
            occurred_at   \(type.integer) NOT NULL,
            settlement_id \(type.integer) REFERENCES settlements (id)
        )\(type.tableOptions);
        CREATE INDEX settlement_entries_open ON settlement_entries (occurred_at, id) WHERE settlement_id IS NULL;
        CREATE INDEX settlement_entries_by_settlement ON settlement_entries (settlement_id, occurred_at, id);
        CREATE INDEX settlement_entries_by_order ON settlement_entries (order_id, line);
        """
    }

    /// Purchase confirmation (구매확정) and the buyers' return requests:
    ///
    /// - `shipments.confirmed_at` and `confirmed_by` (`buyer`, `operator` or `auto`): a delivered
    ///   parcel's receipt confirmed; the partial index finds the ones reconciliation confirms.
    ///   Parcels delivered before this migration are confirmed by the first reconciliation that
    ///   runs a confirmation delay after their delivery, like any other.
    /// - `return_requests`: a buyer's request to return a parcel, until its receipt is confirmed;
    ///   its seller or an operator approves it (the parcel is refunded) or rejects it. At most one
    ///   open request a parcel (the partial unique index).
    /// Migration 36: what a parcel's carrier last said, when the shop tracks parcels
    /// (``ParcelTracker``), when its number was last corrected, and the queue of parcels to ask
    /// about: those that left, are not confirmed and have no delivery from their carrier, the
    /// longest unasked first (0: never).
    static func carrierTrackingSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE shipments ADD COLUMN carrier_status \(type.text) CHECK (carrier_status IN ('not_found', 'in_transit', 'delivered', 'delivered_before_shipping'));
        ALTER TABLE shipments ADD COLUMN carrier_checked_at \(type.integer) NOT NULL DEFAULT 0;
        ALTER TABLE shipments ADD COLUMN carrier_delivered_at \(type.integer);
        ALTER TABLE shipments ADD COLUMN tracking_corrected_at \(type.integer);
        CREATE INDEX shipments_awaiting_carrier ON shipments (carrier_checked_at, id)
            WHERE status IN ('shipped', 'delivered') AND confirmed_at IS NULL AND carrier_delivered_at IS NULL;
        """
    }

    /// Migration 37: parcels by their number, for the check that a number names one parcel
    /// (``SQLFulfilmentRepository/numberTaken(besides:_:)``).
    static let trackingNumbersSQL = """
        CREATE INDEX shipments_by_tracking ON shipments (tracking_number, carrier) WHERE tracking_number IS NOT NULL;
        """

    static func receiptsSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE shipments ADD COLUMN confirmed_at \(type.integer);
        ALTER TABLE shipments ADD COLUMN confirmed_by \(type.text);
        CREATE INDEX shipments_awaiting_confirmation ON shipments (delivered_at, id)
            WHERE status = 'delivered' AND confirmed_at IS NULL;
        CREATE TABLE return_requests (
            id          \(type.rowID),
            shipment_id \(type.integer) NOT NULL REFERENCES shipments (id),
            order_id    \(type.integer) NOT NULL REFERENCES orders (id),
            seller_id   \(type.integer) NOT NULL REFERENCES users (id),
            buyer_id    \(type.integer) NOT NULL REFERENCES users (id),
            reason      \(type.text) NOT NULL,
            status      \(type.text) NOT NULL CHECK (status IN ('requested', 'approved', 'rejected')),
            decision    \(type.text),
            decided_by  \(type.text),
            created_at  \(type.integer) NOT NULL,
            decided_at  \(type.integer)
        )\(type.tableOptions);
        CREATE UNIQUE INDEX return_requests_one_open ON return_requests (shipment_id) WHERE status = 'requested';
        CREATE INDEX return_requests_by_seller ON return_requests (seller_id, status, id);
        CREATE INDEX return_requests_by_order ON return_requests (order_id, id);
        """
    }

    /// Migration 28: an approval remembers whether it restocks, when its refund went through,
    /// and when reconciliation last tried it (the least recently tried come first, so approvals
    /// that keep failing cannot hold back the rest), so reconciliation can finish an approval
    /// whose refund did not
    /// (``OrderService/settleApprovedReturns(limit:by:)``). Approvals from before it whose
    /// parcel is all refunded count as refunded; the others are retried without restocking.
    static func returnRefundsSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE return_requests ADD COLUMN restock \(type.integer) NOT NULL DEFAULT 0;
        ALTER TABLE return_requests ADD COLUMN refunded_at \(type.integer);
        ALTER TABLE return_requests ADD COLUMN refund_tried_at \(type.integer);
        UPDATE return_requests SET refunded_at = decided_at
            WHERE status = 'approved'
              AND NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.shipment_id = return_requests.shipment_id AND l.refunded_at IS NULL);
        CREATE INDEX return_requests_awaiting_refund ON return_requests (refund_tried_at, id)
            WHERE status = 'approved' AND refunded_at IS NULL;
        """
    }

    /// Migration 29: what a seller owes is carried from settlement to settlement
    /// (``SettlementBalance``). Settlements closed before it bring and carry nothing: their
    /// negative payouts stay the operator's to collect, as they were when they closed.
    static func settlementBalancesSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE settlements ADD COLUMN brought_forward \(type.integer) NOT NULL DEFAULT 0 CHECK (brought_forward >= 0);
        ALTER TABLE settlements ADD COLUMN carried_forward \(type.integer) NOT NULL DEFAULT 0 CHECK (carried_forward >= 0);
        """
    }

    /// Migration 34: a buyer may dispute a seller's rejection of a return, and an operator rules
    /// (``ReturnRequest/Status/disputed``). `rejected_by_seller` says the parcel's seller made
    /// the rejection (the disputable kind; set for earlier rejections their seller made as a
    /// seller); `dispute` and `disputed_at` are the buyer's words and when; `ruling`, `ruled_by`
    /// and `ruled_at` the decision on the dispute, the seller's rejection staying in `decision`.
    /// The status's `CHECK` takes the new state: Postgres replaces the constraint; SQLite, which
    /// cannot alter one, copies the table into one made anew (nothing references
    /// `return_requests`, and the copy keeps every id), then makes its indexes again.
    static func returnDisputesSQL(_ dialect: SQLDialect) -> String {
        let type = dialect.columnTypes
        let statuses = "CHECK (status IN ('requested', 'approved', 'rejected', 'disputed'))"
        let added = ["rejected_by_seller \(type.integer) NOT NULL DEFAULT 0", "dispute \(type.text)", "disputed_at \(type.integer)",
                     "ruling \(type.text)", "ruled_by \(type.text)", "ruled_at \(type.integer)"]
        let sellersRejections = "UPDATE return_requests SET rejected_by_seller = 1 WHERE status = 'rejected' AND decided_by = 'seller:' || seller_id;"
        guard dialect == .sqlite else {
            return """
                ALTER TABLE return_requests DROP CONSTRAINT return_requests_status_check;
                ALTER TABLE return_requests ADD CONSTRAINT return_requests_status_check \(statuses);
                \(added.map { "ALTER TABLE return_requests ADD COLUMN \($0);" }.joined(separator: "\n"))
                \(sellersRejections)
                """
        }
        let kept = "id, shipment_id, order_id, seller_id, buyer_id, reason, status, decision, decided_by, created_at, decided_at, "
            + "restock, refunded_at, refund_tried_at"
        return """
            CREATE TABLE return_requests_disputable (
                id          \(type.rowID),
                shipment_id \(type.integer) NOT NULL REFERENCES shipments (id),
                order_id    \(type.integer) NOT NULL REFERENCES orders (id),
                seller_id   \(type.integer) NOT NULL REFERENCES users (id),
                buyer_id    \(type.integer) NOT NULL REFERENCES users (id),
                reason      \(type.text) NOT NULL,
                status      \(type.text) NOT NULL \(statuses),
                decision    \(type.text),
                decided_by  \(type.text),
                created_at  \(type.integer) NOT NULL,
                decided_at  \(type.integer),
                restock     \(type.integer) NOT NULL DEFAULT 0,
                refunded_at \(type.integer),
                refund_tried_at \(type.integer),
                \(added.joined(separator: ",\n    "))
            )\(type.tableOptions);
            INSERT INTO return_requests_disputable (\(kept)) SELECT \(kept) FROM return_requests;
            DROP TABLE return_requests;
            ALTER TABLE return_requests_disputable RENAME TO return_requests;
            \(sellersRejections)
            CREATE UNIQUE INDEX return_requests_one_open ON return_requests (shipment_id) WHERE status = 'requested';
            CREATE INDEX return_requests_by_seller ON return_requests (seller_id, status, id);
            CREATE INDEX return_requests_by_order ON return_requests (order_id, id);
            CREATE INDEX return_requests_awaiting_refund ON return_requests (refund_tried_at, id)
                WHERE status = 'approved' AND refunded_at IS NULL;
            """
    }
}
