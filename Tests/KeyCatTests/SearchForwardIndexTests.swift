import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Search's forward index (`search_documents.terms`, docs/search.md "The index"): a re-index
/// writes only the postings that changed, a removal deletes them by key, `db check` proves the
/// postings are the forward terms and the forward terms the text, and migration 27 fills the
/// column on a database that had listings indexed before it.
@Suite("Search forward index")
struct SearchForwardIndexTests {
    /// A listing's terms as the forward index keeps them: `term weight` lines in byte order.
    static func forward(_ terms: [String: Int]) -> String {
        terms.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { "\($0.key) \($0.value)" }.joined(separator: "\n")
    }

    static func terms(_ product: Product) -> [String: Int] {
        SearchAnalyzer.terms(title: product.title, content: product.content, tags: product.tags, spec: product.spec)
    }

    static func strings(_ shop: TestShop, _ sql: String) async throws -> [String] {
        try await strings(sql, in: shop.keycat.store.database)
    }

    static func strings(_ keycat: KeyCat, _ sql: String) async throws -> [String] {
        try await strings(sql, in: keycat.store.database)
    }

    private static func strings(_ sql: String, in database: some SQLDatabase) async throws -> [String] {
        try await database.read { try $0.query(sql, []) { $0.string(0) } }
    }

    /// The listing's postings as `term weight` lines in key order, and its forward terms.
    static func index(of id: ProductID, in shop: TestShop) async throws -> (postings: String, forward: String) {
        try await index(of: id, in: shop.keycat)
    }

    static func index(of id: ProductID, in keycat: KeyCat) async throws -> (postings: String, forward: String) {
        let postings = try await strings(keycat, "SELECT term || ' ' || weight FROM search_terms WHERE product_id = \(id) ORDER BY term")
        let forward = try await strings(keycat, "SELECT terms FROM search_documents WHERE product_id = \(id)")
        return (postings.joined(separator: "\n"), forward.first ?? "(no document)")
    }

    /// Logs every row written to `search_terms` in `posting_log`, in order: `insert`, `update`
    /// or `delete` and the term.
    static func logPostings(_ shop: TestShop) async throws {
        if shop.isPostgres {
            try await shop.execute("""
                CREATE TABLE posting_log (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, op text NOT NULL,
                                          term text COLLATE "C" NOT NULL, product_id bigint NOT NULL);
                CREATE FUNCTION log_posting() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'DELETE' THEN
                        INSERT INTO posting_log (op, term, product_id) VALUES ('delete', OLD.term, OLD.product_id);
                    ELSE
                        INSERT INTO posting_log (op, term, product_id) VALUES (lower(TG_OP), NEW.term, NEW.product_id);
                    END IF;
                    RETURN NULL;
                END
                $$;
                CREATE TRIGGER posting_logged AFTER INSERT OR UPDATE OR DELETE ON search_terms
                    FOR EACH ROW EXECUTE FUNCTION log_posting();
                """)
        } else {
            try await shop.execute("""
                CREATE TABLE posting_log (seq INTEGER PRIMARY KEY, op TEXT NOT NULL, term TEXT NOT NULL, product_id INTEGER NOT NULL);
                CREATE TRIGGER posting_inserted AFTER INSERT ON search_terms BEGIN
                    INSERT INTO posting_log (op, term, product_id) VALUES ('insert', new.term, new.product_id); END;
                CREATE TRIGGER posting_updated AFTER UPDATE ON search_terms BEGIN
                    INSERT INTO posting_log (op, term, product_id) VALUES ('update', new.term, new.product_id); END;
                CREATE TRIGGER posting_deleted AFTER DELETE ON search_terms BEGIN
                    INSERT INTO posting_log (op, term, product_id) VALUES ('delete', old.term, old.product_id); END;
                """)
        }
    }

    /// What `posting_log` holds, in order, and empties it.
    static func loggedWrites(_ shop: TestShop) async throws -> [(op: String, term: String)] {
        let lines = try await strings(shop, "SELECT op || ' ' || term FROM posting_log ORDER BY seq")
        try await shop.execute("DELETE FROM posting_log")
        return lines.map { line in
            let space = line.firstIndex(of: " ")!
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }

    @Test("an edit that changes one word writes only the postings of its terms, in term order, and the forward terms with them",
          arguments: TestStore.allCases)
    func editWritesTheDifference(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let first = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축 키보드") {
                $0.content = "부드러운 타건감의 기계식 키보드입니다. Gateron 스위치, 75% 배열."
                $0.tags = ["갈축", "PBT"]
            }, for: seller.userID, by: seller)
            let other = try await shop.keycat.catalog.create(TestShop.draft("노을 리니어 키보드"), for: seller.userID, by: seller)
            let before = try await Self.index(of: first.id, in: shop)
            #expect(before.postings == Self.forward(Self.terms(first)))
            #expect(before.forward == before.postings)
            try await Self.logPostings(shop)

            // One word of the description changes, and `갈축` moves from the tags to the content
            // (its terms keep their postings with another weight).
            var changes = ProductChanges(expectedVersion: first.version)
            changes.content = "묵직한 타건감의 기계식 키보드입니다. Gateron 스위치, 75% 배열. 갈축"
            changes.tags = ["PBT"]
            let edited = try await shop.keycat.catalog.update(first.id, changes, by: seller)
            let (old, new) = (Self.terms(first), Self.terms(edited))
            let after = try await Self.index(of: first.id, in: shop)
            #expect(after.postings == Self.forward(new))
            #expect(after.forward == after.postings)

            let written = try await Self.loggedWrites(shop)
            var expected: [(op: String, term: String)] = []
            for term in Set(old.keys).union(new.keys) {
                switch (old[term], new[term]) {
                case (nil, _?): expected.append(("insert", term))
                case (_?, nil): expected.append(("delete", term))
                case let (was?, now?) where was != now: expected.append(("update", term))
                default: break
                }
            }
            expected.sort { $0.term.utf8.lexicographicallyPrecedes($1.term.utf8) }
            #expect(written.map { "\($0.op) \($0.term)" } == expected.map { "\($0.op) \($0.term)" })
            #expect(expected.contains { $0.op == "insert" } && expected.contains { $0.op == "delete" }
                    && expected.contains { $0.op == "update" }, "the edit exercises all three")
            #expect(written.count < new.count / 2, "\(written.count) of \(new.count) postings written")

            // An edit that leaves the text as it was writes no posting.
            var price = ProductChanges(expectedVersion: edited.version)
            price.title = edited.title
            price.content = edited.content
            _ = try await shop.keycat.catalog.update(first.id, price, by: seller)
            #expect(try await Self.loggedWrites(shop).isEmpty)

            #expect(try await SearchBehaviourTests.search(shop, "묵직한").items.map(\.id) == [first.id])
            #expect(try await SearchBehaviourTests.search(shop, "부드러운").items.isEmpty)
            #expect(try await SearchBehaviourTests.search(shop, "갈축").items.map(\.id) == [first.id])
            #expect(try await Self.index(of: other.id, in: shop).postings == Self.forward(Self.terms(other)))
            #expect(try await shop.keycat.search.problems() == [])

            // A deletion deletes exactly the listing's postings, by key, and its document.
            try await shop.keycat.catalog.delete(first.id, by: seller)
            let removed = try await Self.loggedWrites(shop)
            #expect(removed.allSatisfy { $0.op == "delete" })
            #expect(removed.map(\.term) == Self.forward(new).split(separator: "\n").map { String($0.split(separator: " ")[0]) })
            #expect(try await Self.index(of: first.id, in: shop) == ("", "(no document)"))
            #expect(try await Self.index(of: other.id, in: shop).postings == Self.forward(Self.terms(other)))
            #expect(try await shop.keycat.search.problems() == [])

            // A reindex of a healthy index writes no posting.
            _ = try await shop.keycat.search.reindex(by: shop.operatorConsole)
            #expect(try await Self.loggedWrites(shop).isEmpty)
        }
    }

    @Test("db check finds a posting deleted or added behind the index's back, and forward terms that disagree with the text; reindex mends each",
          arguments: TestStore.allCases)
    func checkFindsEachDisagreement(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let seller = try await shop.user(.seller)
            let first = try await shop.keycat.catalog.create(TestShop.draft("몽돌 택타일 갈축") { $0.tags = ["갈축"] },
                                                             for: seller.userID, by: seller)
            let second = try await shop.keycat.catalog.create(TestShop.draft("노을 리니어 키보드"), for: seller.userID, by: seller)
            #expect(try await shop.keycat.search.problems() == [])
            let reindex = "run 'keycat-admin search reindex'"

            func mended() async throws {
                _ = try await shop.keycat.search.reindex(by: shop.operatorConsole)
                #expect(try await shop.keycat.search.problems() == [])
                for product in [first, second] {
                    let index = try await Self.index(of: product.id, in: shop)
                    #expect(index.postings == Self.forward(Self.terms(product)) && index.forward == index.postings)
                }
            }

            // (i) A posting deleted.
            try await shop.execute("DELETE FROM search_terms WHERE term = '=몽돌' AND product_id = \(first.id)")
            #expect(try await shop.keycat.search.problems() == [
                "product \(first.id): its postings in the search index are not its search terms (\(reindex))"])
            try await mended()

            // A posting's weight changed.
            try await shop.execute("UPDATE search_terms SET weight = 1 WHERE term = '#갈축' AND product_id = \(first.id)")
            #expect(try await shop.keycat.search.problems() == [
                "product \(first.id): its postings in the search index are not its search terms (\(reindex))"])
            try await mended()

            // (ii) A posting added: of a term the listing does not have, and of a listing with none.
            try await shop.execute("INSERT INTO search_terms (term, product_id, weight) VALUES ('stray', \(second.id), 1)")
            #expect(try await shop.keycat.search.problems() == [
                "the search index has 1 posting(s) that are no listing's search terms (\(reindex))"])
            try await mended()

            // (iii) The forward terms edited: a weight, then a term left out.
            let forward = Self.forward(Self.terms(first))
            let edited = forward.replacingOccurrences(of: "#갈축 4", with: "#갈축 5")
            #expect(edited != forward)
            try await shop.execute("UPDATE search_documents SET terms = '\(edited)' WHERE product_id = \(first.id)")
            #expect(try await shop.keycat.search.problems() == [
                "product \(first.id): its search terms do not match its text (\(reindex))",
                "product \(first.id): its postings in the search index are not its search terms (\(reindex))"])
            try await mended()
            let shorter = forward.split(separator: "\n").filter { !$0.hasPrefix("=몽돌 ") }.joined(separator: "\n")
            try await shop.execute("UPDATE search_documents SET terms = '\(shorter)' WHERE product_id = \(first.id)")
            #expect(try await shop.keycat.search.problems() == [
                "product \(first.id): its search terms do not match its text (\(reindex))",
                "the search index has 1 posting(s) that are no listing's search terms (\(reindex))"])
            try await mended()

            // (iv) A posting and its line of the forward terms both taken out: the postings are
            // still the forward terms, so reindex trusts them, and the listing's text puts both back.
            try await shop.execute("DELETE FROM search_terms WHERE term = '=몽돌' AND product_id = \(first.id)")
            try await shop.execute("UPDATE search_documents SET terms = '\(shorter)' WHERE product_id = \(first.id)")
            #expect(try await shop.keycat.search.problems() == [
                "product \(first.id): its search terms do not match its text (\(reindex))"])
            try await mended()

            // (c) A listing deleted behind the index's back keeps its document and postings.
            try await shop.execute("UPDATE products SET deleted_at = 1, listed = 0 WHERE id = \(second.id)")
            #expect(try await shop.keycat.search.problems().contains("product \(second.id): deleted but still has search terms"))
            _ = try await shop.keycat.search.reindex(by: shop.operatorConsole)
            #expect(try await shop.keycat.search.problems() == [])
            #expect(try await Self.index(of: second.id, in: shop) == ("", "(no document)"))
        }
    }

    @Test("no term holds a space or a line feed, the forward terms' separators")
    func separatorsNeverOccurInTerms() throws {
        let spaces = [" ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{FEFF}"]
        var texts = ["기계식 키보드", "Gateron 75% K200", "ＡＢＣ　키보드", "a\u{0301}b c", "ㄱㅊ 갈축", "#태그 #tag", "x\u{0}y\u{1F}z"]
        for space in spaces { texts.append("기계식\(space)키보드\(space)Gateron\(space)75%\(space)ＡＢ") }
        for text in texts {
            let tags = text.split(whereSeparator: \.isWhitespace).compactMap { try? ProductTags.validated([String($0)]).first }
            let terms = SearchAnalyzer.terms(title: text, content: text, tags: tags, spec: KeyboardSpec())
            #expect(!terms.isEmpty)
            for term in terms.keys {
                #expect(!term.unicodeScalars.contains { $0 == " " || $0 == "\n" || $0.properties.isWhitespace || $0.value < 0x20 },
                        "\(term.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
        for space in spaces {
            #expect(throws: KeyCatError.self) { try ProductTags.validated(["a\(space)b"]) }
        }
    }

    /// Listings as a database before migration 27 holds them: title, content, tags, and whether
    /// KeyCat had indexed them (the last had not: the next write-open does).
    static let oldListings: [(title: String, content: String, tags: [String], indexed: Bool)] = [
        ("몽돌 택타일 갈축 키보드", "부드러운 타건감. Gateron 스위치, 75% 배열", ["갈축", "PBT"], true),
        ("Felt F99 기계식키보드", "", [], true),
        ("…!", "", [], true),  // no terms: its document keeps the empty text
        ("노을 리니어", "조용한 키보드", ["저소음"], false),
    ]

    /// Migrates `database` to migration 26 and writes ``oldListings`` with their search rows as
    /// KeyCat wrote them then: postings, documents without forward terms, the vocabulary.
    static func writeBeforeForwardIndex<Database: SQLDatabase>(_ database: Database) async throws {
        let before = Array(KeyCatSchema.migrations(on: Database.Connection.self).prefix { $0.name != "search forward index" })
        #expect(before.count == 26)
        _ = try SchemaMigrator(migrations: before).migrate(database)
        try await database.write { connection in
            try connection.execute("""
                INSERT INTO users (id, email, nick, password_hash, role, created_at, updated_at)
                    VALUES (1, 's@example.com', 'seller', '!', 'seller', 0, 0)
                """)
            var words: [String: (entry: SearchAnalyzer.VocabularyEntry, count: Int)] = [:]
            for (index, listing) in oldListings.enumerated() {
                let id = Int64(index + 1)
                _ = try connection.run("""
                    INSERT INTO products (id, seller_id, kind, category, title, content, regular_price, price, coupon_price,
                                          delivery_fee, delivery_schedule, stock, created_at, updated_at, tags)
                    VALUES (?, 1, 'commercial', 'keyboard', ?, ?, 1000, 1000, 0, 0, 'standard', 0, 0, 0, ?)
                    """, [.integer(id), .text(listing.title), .text(listing.content), .text(listing.tags.joined(separator: " "))])
                guard listing.indexed else { continue }
                let terms = SearchAnalyzer.terms(title: listing.title, content: listing.content, tags: listing.tags, spec: KeyboardSpec())
                for (term, weight) in terms {
                    _ = try connection.run("INSERT INTO search_terms (term, product_id, weight) VALUES (?, ?, ?)",
                                           [.text(term), .integer(id), .int(weight)])
                }
                let vocabulary = SearchAnalyzer.vocabulary(title: listing.title, tags: listing.tags)
                _ = try connection.run("""
                    INSERT INTO search_documents (product_id, analyzer_version, title_key, words, counted, units_sold)
                    VALUES (?, ?, ?, ?, 1, 0)
                    """, [.integer(id), .int(SearchAnalyzer.version), .text(SearchAnalyzer.titleKey(listing.title)),
                          .text(vocabulary.map { "\($0.kind.rawValue):\($0.key)" }.joined(separator: "\n"))])
                for entry in vocabulary { words["\(entry.kind.rawValue):\(entry.key)", default: (entry, 0)].count += 1 }
            }
            for (entry, count) in words.values {
                _ = try connection.run("""
                    INSERT INTO search_words (word, kind, display, spelling, initials, products) VALUES (?, ?, ?, ?, ?, ?)
                    """, [.text(entry.key), .text(entry.kind.rawValue), .text(entry.display), .text(entry.spelling),
                          entry.initials.map(SQLValue.text) ?? .null, .int(count)])
            }
        }
    }

    @Test("migration 27 fills each document's forward terms from the postings the database already had, and drops the index by product",
          arguments: TestStore.allCases)
    func migrationFillsForwardTerms(_ store: TestStore) async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = directory.appendingPathComponent("old.db").path
            switch store {
            case .sqlite:
                let database = try SQLiteDatabase(path: path)
                try await Self.writeBeforeForwardIndex(database)
                database.close()
                try await Self.checkMigrated(KeyCat.Configuration(databasePath: path))
            case .postgres:
                try await withPostgresSchema { postgres in
                    let database = try PostgresDatabase(configuration: postgres)
                    try await Self.writeBeforeForwardIndex(database)
                    database.close()
                    try await Self.checkMigrated(KeyCat.Configuration(.postgres(url: try postgres.schemaURL(), filesBeside: path)))
                }
            }
        }
    }

    static func checkMigrated(_ configuration: KeyCat.Configuration) async throws {
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        let isPostgres = keycat.store.file == nil
        for (index, listing) in oldListings.enumerated() {
            let terms = SearchAnalyzer.terms(title: listing.title, content: listing.content, tags: listing.tags, spec: KeyboardSpec())
            let stored = try await Self.index(of: ProductID(Int64(index + 1)), in: keycat)
            #expect(stored.forward == Self.forward(terms), "\(listing.title)")
            #expect(stored.postings == stored.forward, "\(listing.title)")
        }
        #expect(try await strings(keycat, "SELECT terms FROM search_documents WHERE product_id = 3") == [""])
        #expect(try await keycat.search.problems() == [])
        let index = isPostgres
            ? "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'search_terms'"
            : "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'search_terms' AND sql IS NOT NULL"
        #expect(try await strings(keycat, index).filter { $0 != "search_terms_pkey" }.isEmpty)
        if !isPostgres { #expect(try await keycat.checkHealth().schemaProblems == []) }
        let found = try await keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("부드러운 gateron"))))
        #expect(found.items.map(\.id) == [ProductID(1)])
    }
}
