/// The events table (docs/events.md "The log"): the transactional outbox, written in the
/// transaction of the change each event reports, read in commit order.
///
/// On SQLite, with its one writer, a row's `position` grows in commit order; it is a plain row
/// id (`AUTOINCREMENT` would write `sqlite_sequence` in every commit), never given again because
/// pruning always keeps the newest row. On Postgres writers
/// overlap, so a row written first may commit last; each row also records its writing
/// transaction (`pg_current_xact_id()`), the log is read in `(transaction_id, position)` order,
/// and only rows of transactions older than every transaction still running
/// (`pg_snapshot_xmin`), so a reader never passes a row that is about to commit.
import KeyCatInfrastructure

enum EventSchema {
    private static func columns(_ type: SQLDialect.ColumnTypes) -> String {
        """
            id             \(type.text) NOT NULL UNIQUE,
            type           \(type.text) NOT NULL,
            aggregate_kind \(type.text) NOT NULL,
            aggregate_id   \(type.integer) NOT NULL,
            occurred_at    \(type.integer) NOT NULL,
            schema_version \(type.integer) NOT NULL CHECK (schema_version >= 1),
            data           \(type.text) NOT NULL
        """
    }

    /// No index but the position and the id (a webhook's `webhook-id`, time-ordered so it is
    /// appended too): each is a page more in every checkout's commit. Pruning walks the
    /// positions from the oldest (``SQLEventLog/prune(before:)``).
    private static let indexes = ""

    /// `product.out_of_stock` and `product.back_in_stock` come from the one place every stock
    /// change passes, a trigger on `products.stock` (a checkout's take, a cancel's or refund's
    /// restock, a seller's edit, an operator's adjustment), in the transaction of the change and
    /// at its `updated_at`. The statements that change stock announce their commit themselves.
    static let sqlite = """
        CREATE TABLE events (
            position       INTEGER PRIMARY KEY,
        \(columns(SQLDialect.sqlite.columnTypes))
        )\(SQLDialect.sqlite.columnTypes.tableOptions);
        \(indexes)
        CREATE TRIGGER products_stock_events AFTER UPDATE OF stock ON products
        WHEN (OLD.stock > 0) <> (NEW.stock > 0) AND NEW.deleted_at IS NULL
        BEGIN
            INSERT INTO events (id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data)
            VALUES ('evt_' || lower(hex(randomblob(16))),
                    CASE WHEN NEW.stock = 0 THEN 'product.out_of_stock' ELSE 'product.back_in_stock' END,
                    'product', NEW.id, NEW.updated_at, 1,
                    json_object('product_id', NEW.id, 'seller_id', NEW.seller_id, 'title', NEW.title, 'stock', NEW.stock));
        END;
        """

    static let postgres = """
        CREATE TABLE events (
            position       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        \(columns(SQLDialect.postgres.columnTypes))
        )\(SQLDialect.postgres.columnTypes.tableOptions);
        CREATE INDEX events_in_order ON events (transaction_id, position);
        \(indexes)
        CREATE FUNCTION keycat_stock_event() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
            INSERT INTO events (id, type, aggregate_kind, aggregate_id, occurred_at, schema_version, data)
            VALUES ('evt_' || replace(CAST(gen_random_uuid() AS text), '-', ''),
                    CASE WHEN NEW.stock = 0 THEN 'product.out_of_stock' ELSE 'product.back_in_stock' END,
                    'product', NEW.id, NEW.updated_at, 1,
                    CAST(json_build_object('product_id', NEW.id, 'seller_id', NEW.seller_id, 'title', NEW.title,
                                           'stock', NEW.stock) AS text));
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER products_stock_events AFTER UPDATE OF stock ON products FOR EACH ROW
            WHEN ((OLD.stock > 0) <> (NEW.stock > 0) AND NEW.deleted_at IS NULL)
            EXECUTE FUNCTION keycat_stock_event();
        """
}
