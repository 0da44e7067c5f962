import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// SQLite only: a file written at an older schema version by the SQLite migrator; the step's SQL
/// is the same text on Postgres, which runs it in every schema the suites create.
@Suite("Withdrawn accounts on a database that predates their erasure")
struct WithdrawnAccountMigrationTests {
    @Test("the migration erases what identified the people who withdrew before it, and leaves live accounts as they are")
    func erased() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = try olderDatabase(in: directory, before: "withdrawn accounts erased", rows: """
                INSERT INTO users (id, email, nick, password_hash, phone, birthday, profile_image, role, created_at, updated_at, withdrawn_at)
                VALUES (7, 'gone@example.com', 'gone', 'pbkdf2$x', '01012345678', '1990-05-17', 'https://img.example.com/g.png',
                        'buyer', 0, 0, 5),
                       (8, 'here@example.com', 'here', 'pbkdf2$y', '01087654321', '1991-01-02', NULL, 'buyer', 0, 0, NULL);
                """)

            let keycat = try await KeyCat.open(KeyCat.Configuration(databasePath: path))
            defer { keycat.close() }
            let admin = Principal.operatorConsole("tester")
            let gone = try await keycat.accounts.profile(of: UserID(7), by: admin)
            #expect(gone.email == AccountRules.withdrawnEmail(UserID(7)) && gone.nick == AccountRules.withdrawnNick, "\(gone)")
            #expect(gone.phone == nil && gone.birthday == nil && gone.profileImage == nil && gone.withdrawnAt != nil)
            let here = try await keycat.accounts.profile(of: UserID(8), by: admin)
            #expect(here.email == "here@example.com" && here.nick == "here" && here.phone == "01087654321")
        }
    }
}

/// SQLite only, as above: a seller's bookmark of their own listing from before they were refused.
@Suite("Sellers' own bookmarks on a database that predates their refusal")
struct OwnBookmarkMigrationTests {
    @Test("the migration removes them and counts the listings' bookmarks again; others' bookmarks stay")
    func removed() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = try olderDatabase(in: directory, before: "sellers' own bookmarks removed", rows: """
                INSERT INTO users (id, email, nick, password_hash, role, created_at, updated_at) VALUES
                    (1, 's@example.com', 'seller', '!', 'seller', 0, 0), (2, 'b@example.com', 'buyer', '!', 'buyer', 0, 0);
                INSERT INTO products (id, seller_id, kind, category, title, content, regular_price, price, coupon_price,
                                      delivery_fee, delivery_schedule, stock, bookmark_count, created_at, updated_at) VALUES
                    (1, 1, 'commercial', 'keyboard', 'A', '', 1000, 1000, 0, 0, 'standard', 5, 2, 0, 0);
                INSERT INTO bookmarks (user_id, product_id, created_at) VALUES (1, 1, 1), (2, 1, 2);
                """)

            let keycat = try await KeyCat.open(KeyCat.Configuration(databasePath: path))
            defer { keycat.close() }
            #expect(try await keycat.catalog.product(ProductID(1)).bookmarkCount == 1)
            await #expect(try keycat.bookmarks.isBookmarked(ProductID(1), by: Principal(userID: UserID(1), role: .seller)) == false)
            await #expect(try keycat.bookmarks.isBookmarked(ProductID(1), by: Principal(userID: UserID(2), role: .buyer)))
        }
    }
}

/// SQLite only, as above: return requests from before disputes, whose table SQLite copies into
/// one whose `CHECK` takes the new status (Postgres replaces the constraint in place).
@Suite("Return requests on a database that predates disputes")
struct ReturnDisputeMigrationTests {
    @Test("the copied table keeps every request as it was, with its indexes, and takes the disputed status")
    func copied() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = try olderDatabase(in: directory, before: "return disputes", rows: """
                INSERT INTO users (id, email, nick, password_hash, role, created_at, updated_at) VALUES
                    (1, 's@example.com', 'seller', '!', 'seller', 0, 0), (2, 'b@example.com', 'buyer', '!', 'buyer', 0, 0);
                INSERT INTO orders (id, merchant_uid, buyer_id, items_total, delivery_total, amount, status, expires_at,
                                    created_at, updated_at) VALUES
                    (3, 'keycat-3', 2, 10000, 0, 10000, 'delivered', 0, 0, 0), (6, 'keycat-6', 2, 10000, 0, 10000, 'delivered', 0, 0, 0),
                    (8, 'keycat-8', 2, 10000, 0, 10000, 'delivered', 0, 0, 0);
                INSERT INTO shipments (id, order_id, seller_id, status, delivery_fee, created_at, updated_at, delivered_at) VALUES
                    (4, 3, 1, 'delivered', 0, 0, 0, 1), (5, 6, 1, 'delivered', 0, 0, 0, 1), (11, 8, 1, 'delivered', 0, 0, 0, 1);
                INSERT INTO return_requests (id, shipment_id, order_id, seller_id, buyer_id, reason, status, decision, decided_by,
                                             created_at, decided_at, restock, refunded_at, refund_tried_at) VALUES
                    (7, 4, 3, 1, 2, '불량', 'approved', NULL, 'seller:1', 10, 20, 1, 25, 30),
                    (9, 5, 6, 1, 2, '변심', 'rejected', '사용 흔적', 'seller:1', 11, 21, 0, NULL, NULL),
                    (12, 11, 8, 1, 2, '변심', 'rejected', '규정상 불가', 'cli:root', 12, 22, 0, NULL, NULL);
                """)

            let keycat = try await KeyCat.open(KeyCat.Configuration(databasePath: path))
            let admin = Principal.operatorConsole("tester")
            let approved = try await keycat.orders.returnRequest(ReturnRequestID(7), by: admin)
            #expect(approved.status == .approved && approved.reason == "불량" && approved.decidedBy == "seller:1"
                    && approved.decidedAt == Date(timeIntervalSince1970: 0.02) && approved.refundedAt == Date(timeIntervalSince1970: 0.025)
                    && approved.dispute == nil && !approved.rejectedBySeller, "\(approved)")
            // The seller's rejection is theirs, the disputable kind; the operator's is not.
            let rejected = try await keycat.orders.returnRequest(ReturnRequestID(9), by: admin)
            #expect(rejected.status == .rejected && rejected.decision == "사용 흔적" && rejected.isDisputable, "\(rejected)")
            #expect(try await !keycat.orders.returnRequest(ReturnRequestID(12), by: admin).isDisputable)
            #expect(try await keycat.orders.returnRequests(status: .rejected, by: admin).items.map(\.id)
                    == [ReturnRequestID(12), ReturnRequestID(9)])
            keycat.close()

            let database = try SQLiteDatabase(path: path)
            defer { database.close() }
            try database.withWriter { connection in
                let indexes = try connection.query(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'return_requests' AND sql IS NOT NULL ORDER BY name"
                ) { $0.string(0) }
                #expect(indexes == ["return_requests_awaiting_refund", "return_requests_by_order", "return_requests_by_seller",
                                    "return_requests_one_open"])
                #expect(try connection.query("SELECT refund_tried_at, restock FROM return_requests WHERE id = 7") {
                    [$0.int64(0), $0.int64(1)]
                } == [[30, 1]])
                #expect(try connection.query("PRAGMA foreign_key_check") { $0.string(0) }.isEmpty)
                #expect(try connection.run("UPDATE return_requests SET status = 'disputed' WHERE id = 9") == 1)
                #expect(throws: (any Error).self) { try connection.run("UPDATE return_requests SET status = 'lost' WHERE id = 9") }
                // Still STRICT, and still bound to its shipments.
                #expect(throws: (any Error).self) { try connection.run("UPDATE return_requests SET restock = 'yes' WHERE id = 9") }
                #expect(throws: (any Error).self) { try connection.run("UPDATE return_requests SET shipment_id = 999 WHERE id = 9") }
            }
        }
    }
}

/// SQLite only, as above: the listings of a seller who withdrew before withdrawal deleted them.
@Suite("Withdrawn sellers' listings on a database that predates their deletion")
struct WithdrawnSellersListingsMigrationTests {
    @Test("the migration deletes them as of the withdrawal, with their search entries; a live seller's stay")
    func deleted() async throws {
        try await withTemporaryDirectory { directory async throws in
            let path = try olderDatabase(in: directory, before: "withdrawn sellers' listings deleted", rows: """
                INSERT INTO users (id, email, nick, password_hash, role, created_at, updated_at, withdrawn_at) VALUES
                    (1, 'user-1@withdrawn.invalid', '탈퇴한 회원', '!', 'seller', 0, 0, 5000),
                    (2, 's@example.com', 'seller', '!', 'seller', 0, 0, NULL);
                INSERT INTO products (id, seller_id, kind, category, title, content, regular_price, price, coupon_price,
                                      delivery_fee, delivery_schedule, stock, listed, created_at, updated_at) VALUES
                    (1, 1, 'commercial', 'keyboard', '갈축 키보드', '', 1000, 1000, 0, 0, 'standard', 0, 0, 0, 0),
                    (2, 2, 'commercial', 'keyboard', '갈축 키보드', '', 1000, 1000, 0, 0, 'standard', 0, 1, 0, 0);
                INSERT INTO search_terms (term, product_id, weight) VALUES ('갈축', 1, 1);
                """)

            let keycat = try await KeyCat.open(KeyCat.Configuration(databasePath: path))
            defer { keycat.close() }
            await expectError(.notFound) { try await keycat.catalog.product(ProductID(1), includingUnlisted: true) }
            let found = try await keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery("갈축"))))
            #expect(found.items.map(\.id) == [ProductID(2)])
            let report = try await keycat.checkHealth()
            #expect(report.isHealthy, "\(report)")
        }
    }
}
