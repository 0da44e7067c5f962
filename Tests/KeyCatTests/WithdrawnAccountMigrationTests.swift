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
