import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("keycat-admin: stock through the inventory ledger")
struct AdminStockTests {
    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("update --stock and adjust-stock write the ledger, stock-history shows it, and db check catches stock added by hand",
          arguments: TestStore.allCases)
    func ledgerFromTheCommandLine(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let path = database.argument
            let seed = try database.run(["seed", "--db", path, "--file", AdminCatalogTests.seedFile])
            #expect(seed.status == 0, "\(seed.standardError)")
            let shown = try json(try database.run(["products", "show", "1", "--db", path, "--json"]).standardOutput)
            let initial = try #require(shown["stock"] as? Int)

            #expect(try database.run(["products", "update", "1", "--db", path, "--stock", "\(initial + 5)"]).status == 0)
            let adjusted = try database.run(["products", "adjust-stock", "1", "--db", path, "--by", "-2", "--reason", "two damaged", "--json"])
            #expect(adjusted.status == 0, "\(adjusted.standardError)")
            #expect(try json(adjusted.standardOutput)["stock"] as? Int == initial + 3)
            // Bad input is a usage or validation error and changes nothing.
            #expect(try database.run(["products", "adjust-stock", "1", "--db", path, "--by", "3"]).status == 2)
            let tooMany = try database.run(["products", "adjust-stock", "1", "--db", path, "--by", "-1000000", "--reason", "x", "--json"])
            #expect(tooMany.status == 1 && tooMany.standardError.contains("validation"))

            let history = try database.run(["products", "stock-history", "1", "--db", path, "--json"])
            #expect(history.status == 0, "\(history.standardError)")
            let items = try #require(try json(history.standardOutput)["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["kind"] as? String } == ["listed", "adjustment", "adjustment"])
            #expect(items.compactMap { $0["change"] as? Int } == [initial, 5, -2])
            #expect(items.last?["actor"] as? String == "cli:tester" && items.last?["reason"] as? String == "two damaged")
            let table = try database.run(["products", "stock-history", "1", "--db", path])
            #expect(table.standardOutput.contains("adjustment") && table.standardOutput.contains("two damaged"))
            #expect(try database.run(["db", "check", "--db", path]).status == 0)

            try database.execute("UPDATE products SET stock = stock + 100 WHERE id = 1")
            let check = try database.run(["db", "check", "--db", path])
            #expect(check.status == 1)
            #expect(check.standardOutput.contains("product 1: stock is \(initial + 103) but its inventory ledger adds up to \(initial + 3)"),
                    "\(check.standardOutput)")
        }
    }

    @Test("products sweep-images counts with --dry-run, then deletes an image file no listing names that was stored two days ago")
    func sweepImages() async throws {
        try await withAdminDatabase(.sqlite) { database in
            let path = database.argument
            #expect(try database.run(["seed", "--db", path, "--file", AdminCatalogTests.seedFile]).status == 0)
            // A file of an image's name that no listing names, stored two days ago.
            let folder = path + ".images"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let orphan = folder + "/" + String(repeating: "ab", count: 32) + ".gif"
            try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: orphan))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: orphan)

            let dry = try database.run(["products", "sweep-images", "--db", path, "--dry-run", "--json"])
            #expect(dry.status == 0, "\(dry.standardError)")
            let counted = try json(dry.standardOutput)
            #expect(counted["dry_run"] as? Bool == true && counted["images"] as? Int == 1 && counted["bytes"] as? Int == 6, "\(counted)")
            #expect(FileManager.default.fileExists(atPath: orphan))
            #expect(try database.run(["products", "sweep-images", "--db", path, "--retention-days", "400"]).status == 2)
            let swept = try database.run(["products", "sweep-images", "--db", path, "--retention-days", "0"])
            #expect(swept.status == 0 && swept.standardOutput.contains("Deleted 1 image(s), 6 bytes"), "\(swept.standardOutput)")
            #expect(!FileManager.default.fileExists(atPath: orphan))
            #expect(try database.run(["db", "check", "--db", path]).status == 0)
        }
    }
}
