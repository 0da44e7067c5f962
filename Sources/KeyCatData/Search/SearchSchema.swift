import KeyCatInfrastructure

/// Search's tables (docs/search.md "The index"), plain tables and B-tree indexes that both stores
/// have alike, so that they answer a query with the same rows, written in the transaction that
/// writes the listing:
///
/// - `search_terms`: one row per term of a listing (``SearchAnalyzer``), with the fields it occurs
///   in as its weight. Its key `(term, product_id)` is the inverted index: a term's listings are
///   one range, a Latin prefix (`gater`) a range of terms, and whether a listing has a term one
///   seek. It has no other index: a listing's own rows are found by their keys, from its
///   forward terms.
/// - `search_documents`: per listing, the analyzer version that indexed it, its title without
///   spaces (the exact-phrase bonus), the words it lends the vocabulary and whether they are
///   counted there (while the listing is listed), its units sold (a ranking signal kept
///   here, so a payment writes no `products` row), and its `terms`, the forward index: the
///   listing's rows of `search_terms` as one text (``SearchIndex/storedTerms(sorted:)``), which
///   is what lets a re-index write only the postings that changed.
/// - `search_words`: the vocabulary the as-you-type box completes from (words, tags, titles),
///   keyed by their normalised form, with their jamo spelling (기계ㅅ → 기계식), their initials
///   (ㄱㅊ → 갈축) and how many listed listings have them (a suspended seller's listings lend
///   none, so their words are not suggested).
/// - `search_synonyms`: the operators' synonyms, stored both ways.
///
/// Migration 24 made the tables (``sqlite``, ``postgres``), with an index of `search_terms` by
/// `product_id`; migration 27 added the forward index in its place (``forwardIndexSQLite``,
/// ``forwardIndexPostgres``).
enum SearchSchema {
    static func sql(_ type: SQLDialect.ColumnTypes, withoutRowID: String) -> String {
        """
        -- Up to 10 tags per listing, space-separated (a tag has no white space).
        ALTER TABLE products ADD COLUMN tags \(type.text) NOT NULL DEFAULT '';

        CREATE TABLE search_terms (
            term       \(type.text) NOT NULL,
            product_id \(type.integer) NOT NULL REFERENCES products (id),
            weight     \(type.integer) NOT NULL CHECK (weight BETWEEN 1 AND 15),
            PRIMARY KEY (term, product_id)
        )\(type.tableOptions)\(withoutRowID);
        CREATE INDEX search_terms_by_product ON search_terms (product_id);

        CREATE TABLE search_documents (
            product_id       \(type.integer) PRIMARY KEY REFERENCES products (id),
            analyzer_version \(type.integer) NOT NULL,
            title_key        \(type.text) NOT NULL,
            words            \(type.text) NOT NULL,
            counted          \(type.integer) NOT NULL DEFAULT 1 CHECK (counted IN (0, 1)),
            units_sold       \(type.integer) NOT NULL DEFAULT 0 CHECK (units_sold >= 0)
        )\(type.tableOptions);
        CREATE INDEX search_documents_by_version ON search_documents (analyzer_version);

        CREATE TABLE search_words (
            word     \(type.text) NOT NULL,
            kind     \(type.text) NOT NULL CHECK (kind IN ('word', 'tag', 'title')),
            display  \(type.text) NOT NULL,
            spelling \(type.text) NOT NULL,
            initials \(type.text),
            products \(type.integer) NOT NULL CHECK (products >= 0),
            PRIMARY KEY (word, kind)
        )\(type.tableOptions)\(withoutRowID);
        CREATE INDEX search_words_by_spelling ON search_words (spelling) WHERE products > 0;
        CREATE INDEX search_words_by_initials ON search_words (initials) WHERE products > 0 AND initials IS NOT NULL;

        CREATE TABLE search_synonyms (
            word       \(type.text) NOT NULL,
            synonym    \(type.text) NOT NULL,
            created_at \(type.integer) NOT NULL,
            PRIMARY KEY (word, synonym)
        )\(type.tableOptions)\(withoutRowID);
        """
    }

    static let sqlite = sql(SQLDialect.sqlite.columnTypes, withoutRowID: ", WITHOUT ROWID")
    /// On Postgres a synonym, or the index rebuilt under listings that did not change, changes
    /// search answers as a listing does, so they announce a catalog change the same way
    /// (``CatalogSchema/changeNotificationsPostgres``; since migration 27 a rebuild writes only
    /// the postings that differ, and ``SearchIndex/reindex(after:limit:checkingPostings:on:)`` announces itself). A listing's own write already announces
    /// itself (Postgres folds the two notifications of one transaction into one); a payment's
    /// units sold, in `search_documents`, does not: see docs/search.md "Freshness and caching".
    static let postgres = sql(SQLDialect.postgres.columnTypes, withoutRowID: "") + """

        CREATE TRIGGER search_synonyms_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_synonyms
            FOR EACH STATEMENT EXECUTE FUNCTION keycat_catalog_changed();
        CREATE TRIGGER search_terms_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_terms
            FOR EACH STATEMENT EXECUTE FUNCTION keycat_catalog_changed();
        CREATE TRIGGER search_words_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_words
            FOR EACH STATEMENT EXECUTE FUNCTION keycat_catalog_changed();
        """

    /// Migration 27, the forward index: `search_documents.terms` is added and filled from the
    /// postings already in `search_terms`, one `term weight` line per posting in key order
    /// (``SearchIndex/storedTerms(sorted:)``, which writes the same text), and the index of
    /// `search_terms` by `product_id` goes. SQLite's `group_concat` keeps the order of the rows
    /// it is given, so they come from a subquery in term order (the dropped index serves it one
    /// listing at a time); Postgres's `string_agg` takes its order, over one pass of the postings
    /// grouped by listing (rather than a look-up per listing, each of whose postings is
    /// elsewhere in a heap written in term order). A document without postings keeps the empty
    /// text. Listings without a document have no forward terms to fill: they
    /// are indexed when the store next opens for writes (``SearchIndex/catchUp(after:limit:on:)``).
    static let forwardIndexSQLite = """
        ALTER TABLE search_documents ADD COLUMN terms \(SQLDialect.sqlite.columnTypes.text) NOT NULL DEFAULT '';
        UPDATE search_documents SET terms = coalesce((
            SELECT group_concat(t.term || ' ' || t.weight, char(10)) FROM (
                SELECT term, weight FROM search_terms WHERE product_id = search_documents.product_id ORDER BY term) t), '');
        DROP INDEX search_terms_by_product;
        """

    /// ``forwardIndexSQLite`` as Postgres runs it.
    static let forwardIndexPostgres = """
        ALTER TABLE search_documents ADD COLUMN terms \(SQLDialect.postgres.columnTypes.text) NOT NULL DEFAULT '';
        UPDATE search_documents d SET terms = f.terms FROM (
            SELECT product_id, string_agg(term || ' ' || weight, chr(10) ORDER BY term) AS terms
            FROM search_terms GROUP BY product_id) f
        WHERE f.product_id = d.product_id;
        DROP INDEX search_terms_by_product;
        """

    /// Migration 30: units sold count only the sales that stand (as ``SearchIndex/standingSale``
    /// then read); the counts kept before, of every paid order, are counted again once.
    static let unitsSoldThatStandSQL = """
        UPDATE search_documents SET units_sold = (
            SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.product_id = search_documents.product_id AND o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded'))
        WHERE units_sold > 0;
        """

    /// Migration 39: a line half refunded or more by parts of its value no longer stands
    /// (as ``SearchIndex/standingSale`` read then); the listings with a line refunded by parts
    /// are counted again once.
    static let halfRefundedSalesSQL = """
        UPDATE search_documents SET units_sold = (
            SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.product_id = search_documents.product_id
              AND o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded')
              AND 2 * (SELECT coalesce(sum(e.amount), 0) FROM settlement_entries e
                       WHERE e.order_id = l.order_id AND e.line = l.line AND e.kind = 'refund') < l.unit_price * l.quantity)
        WHERE product_id IN (SELECT l.product_id FROM order_lines l
                             WHERE l.refunded_at IS NULL
                               AND EXISTS (SELECT 1 FROM settlement_entries e
                                           WHERE e.order_id = l.order_id AND e.line = l.line AND e.kind = 'refund'));
        """

    /// Migration 44: a listing's documents keep the value of its standing sales beside their
    /// units (as ``SearchIndex/standingSale`` reads them now), so the ranking counts no more
    /// units than that value buys at the listing's price (``StandingSales/rankedUnits(at:)``);
    /// the documents with units sold are counted once.
    static func valueSoldSQL(_ type: SQLDialect.ColumnTypes) -> String {
        """
        ALTER TABLE search_documents ADD COLUMN value_sold \(type.integer) NOT NULL DEFAULT 0 CHECK (value_sold >= 0);
        UPDATE search_documents SET value_sold = (
            SELECT coalesce(sum(l.unit_price * l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
            WHERE l.product_id = search_documents.product_id
              AND o.paid_at IS NOT NULL AND l.refunded_at IS NULL AND o.status NOT IN ('cancelled', 'refunded')
              AND 2 * (SELECT coalesce(sum(e.amount), 0) FROM settlement_entries e
                       WHERE e.order_id = l.order_id AND e.line = l.line AND e.kind = 'refund') < l.unit_price * l.quantity)
        WHERE units_sold > 0;
        """
    }
}
