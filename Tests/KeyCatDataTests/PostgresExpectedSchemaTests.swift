import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// What `db check` expects of a Postgres schema, read from the migrations' DDL
/// (``PostgresExpectedSchema``); the check against a live schema is `PostgresSchemaCheckTests`'.
@Suite("The Postgres schema expected of the migrations")
struct PostgresExpectedSchemaTests {
    @Test("statements are read in order: a drop takes back what was made, a dropped table its indexes and triggers; bodies and comments are not DDL")
    func readInOrder() {
        let script = """
            -- 1: first
            CREATE TABLE a (id bigint); -- CREATE TABLE commented (id bigint);
            CREATE UNIQUE INDEX a_by_id
                ON a (id);
            CREATE TABLE b (id bigint);
            CREATE INDEX b_by_id ON b (id);
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                CREATE TABLE not_ddl (x int); DROP TABLE a;
                RETURN NULL;
            END $$;
            CREATE TRIGGER b_changed AFTER INSERT ON b
                FOR EACH STATEMENT EXECUTE FUNCTION f();
            -- 2: second
            DROP INDEX a_by_id;
            CREATE INDEX IF NOT EXISTS "a_again" ON a (id);
            DROP TABLE b;
            """
        let names = PostgresExpectedSchema.objects(in: script).map { "\($0.kind.rawValue) \($0.name)" }
        #expect(names == ["function f", "index a_again", "table a"], "\(names)")
    }

    @Test("the migrations leave every table, the triggers that announce catalog changes and stock events, and their functions")
    func fromTheMigrations() {
        let objects = PostgresExpectedSchema.objects
        let named = { (kind: PostgresExpectedSchema.Object.Kind) in Set(objects.filter { $0.kind == kind }.map(\.name)) }
        #expect(named(.trigger) == ["products_changed", "products_stock_events", "search_synonyms_changed", "search_terms_changed",
                                    "search_words_changed"])
        #expect(named(.function) == ["keycat_catalog_changed", "keycat_stock_event"])
        #expect(named(.table).isSuperset(of: ["users", "products", "orders", "search_terms", "events", "settlements"]))
        // `login_attempts` was made, dropped and made again, each time with its index: both stand.
        #expect(named(.table).contains("login_attempts") && named(.index).contains("login_attempts_by_window"))
        // Dropped by a later migration: not expected.
        #expect(!named(.index).contains("search_terms_by_product") && !named(.index).contains("seller_applications_one_live_per_number"))
    }
}
