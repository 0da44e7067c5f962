import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// The Postgres backup lives in the library beside SQLite's (`keycat-admin db backup` calls it):
/// the real `pg_dump`, a manifest counted in pg_dump's own snapshot, and never a second write
/// into a place that exists. The CLI's suite restores what it takes.
@Suite("Postgres backups in the library",
       .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresBackupTests {
    @Test("a restore's target schema is where Postgres would create tables: the URL's search_path, else $user only when that schema exists, else public")
    func restoreTarget() throws {
        let url = try PostgresTestServer.requireURL()
        let separator = url.contains("?") ? "&" : "?"
        // The test role has no schema of its own name: "$user", public creates in public.
        #expect(try KeyCat.targetSchema(of: url) == "public")
        #expect(try KeyCat.targetSchema(of: url + separator + "options=-csearch_path%3Dshop_staging") == "shop_staging")
        #expect(try KeyCat.targetSchema(of: url + separator + "options=-csearch_path%3D%22%24user%22%2Cshop") == "shop")
    }

    @Test("a backup's manifest counts the rows pg_dump copied, and verifies; a second backup to the same place is refused and changes nothing")
    func backUp() async throws {
        try await TestShop.with(.postgres) { shop in
            _ = try await shop.product(stock: 3)
            let server = try #require(shop.keycat.configuration.store.postgres)
            let destination = shop.directory.appendingPathComponent("pg-backup").path
            let backup = try KeyCat.backUpPostgres(server, to: destination)
            let manifest = try #require(backup.manifest)
            #expect(manifest.isPostgres && manifest.counts["products"] == 1 && manifest.counts["users"] == 1, "\(manifest.counts)")
            #expect(!manifest.source.contains("keycat_test@") || manifest.source.contains("***"), "\(manifest.source)")
            let verified = try KeyCat.verifyBackup(at: destination)
            #expect(verified.counts == manifest.counts && verified.files == manifest.files && verified.isPostgres)
            let files = try FileManager.default.contentsOfDirectory(atPath: destination).sorted()
            let again = #expect(throws: KeyCatError.self) { try KeyCat.backUpPostgres(server, to: destination) }
            #expect(again?.context["reason"] == "exists")
            #expect(try FileManager.default.contentsOfDirectory(atPath: destination).sorted() == files)
            let notABackup = #expect(throws: KeyCatError.self) {
                try KeyCat.restorePostgres(server, from: shop.directory.path, force: false)
            }
            #expect(notABackup?.code == .validation && notABackup?.context["field"] == "backup")
        }
    }
}
