import Foundation
import KeyCatInfrastructure
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("keycat-admin: seed and products")
struct AdminCatalogTests {
    static let seedFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("seed/catalog.json").path

    /// A database of `store` seeded from `seed/catalog.json`.
    private func seeded(_ store: TestStore, _ body: (AdminDatabase) async throws -> Void) async throws {
        try await withAdminDatabase(store) { database in
            let first = try database.run(["seed", "--db", database.argument, "--file", Self.seedFile, "--json"])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(first.standardOutput.contains("\"products_created\":"))
            try await body(database)
        }
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("seeding twice changes nothing, and walking products list with cursors returns each product once", arguments: TestStore.allCases)
    func seedAndWalk(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let path = database.argument
            let again = try json(try database.run(["seed", "--db", path, "--file", Self.seedFile, "--json"]).standardOutput)
            #expect(again["products_created"] as? Int == 0)
            let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.seedFile))) as? [String: Any]
            let expected = (catalog?["products"] as? [Any])?.count ?? -1
            #expect(again["products_existing"] as? Int == expected)

            for sort in ["newest", "price-asc", "rating"] {
                var ids: [Int] = []
                var cursor: String?
                repeat {
                    var arguments = ["products", "list", "--db", path, "--json", "--limit", "37", "--sort", sort]
                    if let cursor { arguments += ["--cursor", cursor] }
                    let outcome = try database.run(arguments)
                    #expect(outcome.status == 0, "\(outcome.standardError)")
                    let page = try json(outcome.standardOutput)
                    ids += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
                    cursor = page["next_cursor"] as? String
                } while cursor != nil
                #expect(ids.count == expected)
                #expect(Set(ids).count == expected)
            }
        }
    }

    @Test("hostile filter values are a usage or validation error or an empty page, never a crash", arguments: TestStore.allCases, [
        ["--category", "keyboard'; DROP TABLE products; --"],
        ["--seller", "1 OR 1=1"],
        ["--seller", "99999999"],
        ["--min-price", "%"],
        ["--max-price", "-5"],
        ["--min-price", "9223372036854775807"],
        ["--switch", String(repeating: "linear", count: 5_000)],
        ["--layout", "\"; --"],
        ["--cursor", "%00%27"],
        ["--sort", "price ASC; DELETE FROM products"],
        ["--limit", "0"], ["--limit", "101"], ["--limit", "1e3"],
    ])
    func hostileFilters(_ store: TestStore, arguments: [String]) async throws {
        try await seeded(store) { database in
            let path = database.argument
            let outcome = try database.run(["products", "list", "--db", path, "--json"] + arguments)
            #expect([0, 1, 2].contains(outcome.status), "\(outcome.standardError)")
            if outcome.status == 0 {
                #expect(try (json(outcome.standardOutput)["items"] as? [Any])?.isEmpty == true)
            } else {
                #expect(outcome.standardError.split(separator: "\n").count == 1)
            }
            let check = try database.run(["db", "check", "--db", path])
            #expect(check.status == 0)
        }
    }

    /// The arguments are refused before any store is opened: one store is enough.
    @Test("invalid UTF-8 in a filter is refused cleanly")
    func invalidUTF8() async throws {
        try await seeded(.sqlite) { database in
            let path = database.argument
            let shell = try ChildProcess(
                "/bin/sh", ["-c", "\"$0\" products list --db \"$1\" --category \"$(printf '\\377\\376')\"",
                            AdminProcess.binary.path, path])
            #expect(shell.wait() == .exited(2))
        }
    }

    @Test("products add reads images by their bytes: a PNG named .jpg is fine, text named .png is refused", arguments: TestStore.allCases)
    func addWithImages(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let path = database.argument
            let directory = database.directory
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 64, 0, 0, 0, 48, 8, 6, 0, 0, 0, 1, 2, 3, 4] + [UInt8](repeating: 3, count: 40)
            try Data(png).write(to: directory.appendingPathComponent("photo.jpg"))
            try Data("not an image".utf8).write(to: directory.appendingPathComponent("fake.png"))
            let example = try String(contentsOfFile: Self.seedFile.replacingOccurrences(of: "catalog.json", with: "product-example.json"), encoding: .utf8)
            func productFile(_ images: [String], _ name: String) throws -> String {
                var object = try #require(try JSONSerialization.jsonObject(with: Data(example.utf8)) as? [String: Any])
                object["images"] = images
                object["title"] = "테스트 상품 \(name)"
                let url = directory.appendingPathComponent("\(name).json")
                try JSONSerialization.data(withJSONObject: object).write(to: url)
                return url.path
            }
            let good = try database.run(["products", "add", "--db", path, "--seller", "1", "--file", try productFile(["photo.jpg"], "good"), "--json"])
            #expect(good.status == 0, "\(good.standardError)")
            let product = try json(good.standardOutput)
            #expect((product["images"] as? [String])?.first?.hasSuffix(".png") == true)

            let bad = try database.run(["products", "add", "--db", path, "--seller", "1", "--file", try productFile(["photo.jpg", "fake.png"], "bad")])
            #expect(bad.status == 1)
            #expect(bad.standardError.contains("JPEG, PNG, WebP or GIF"))
            let buyer = try database.run(["products", "add", "--db", path, "--seller", "999", "--file", try productFile([], "nobody")])
            #expect(buyer.status == 1)
            let missing = try database.run(["products", "add", "--db", path, "--seller", "1", "--file", "/nonexistent/x.json"])
            #expect(missing.status == 3)
        }
    }

    @Test("products update and delete change the listing, record the audit, and refuse stale versions", arguments: TestStore.allCases)
    func updateAndDelete(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let path = database.argument
            let updated = try database.run(["products", "update", "1", "--db", path, "--price", "1000", "--stock", "7", "--json"])
            #expect(updated.status == 0, "\(updated.standardError)")
            let product = try json(updated.standardOutput)
            #expect(product["stock"] as? Int == 7)
            #expect(product["version"] as? Int == 2)
            let stale = try database.run(["products", "update", "1", "--db", path, "--stock", "1", "--version", "1"])
            #expect(stale.status == 1)
            #expect(try database.run(["products", "update", "1", "--db", path]).status == 2)
            #expect(try database.run(["products", "delete", "1", "--db", path]).status == 0)
            #expect(try database.run(["products", "show", "1", "--db", path]).status == 1)
            #expect(try database.run(["products", "delete", "1", "--db", path]).status == 1)
            let keycat = try await KeyCat.open(database.configuration)
            defer { keycat.close() }
            let actions = try await keycat.auditLog.recent(limit: 5).map(\.action)
            #expect(actions.starts(with: ["product.delete", "product.update"]))
            await #expect(try keycat.auditLog.recent(limit: 5).first?.actor == "cli:tester")
        }
    }
}
