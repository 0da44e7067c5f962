import Foundation
import KeyCatTestSupport
import Testing

/// `keycat-admin search`: the catalog list with a text, its explanation, the synonyms, the
/// index's rebuild and `db check`'s search section, on every store, against the built-in demo
/// catalog (the matching contract itself is `SearchContractTests`).
@Suite("keycat-admin search")
struct AdminSearchTests {
    /// A database of `store` seeded with the built-in demo catalog.
    private func seeded(_ store: TestStore, _ body: (AdminDatabase) async throws -> Void) async throws {
        try await withAdminDatabase(store) { database in
            let seed = try database.run(["seed", "--db", database.argument])
            #expect(seed.status == 0, "\(seed.standardError)")
            try await body(database)
        }
    }

    /// Runs a command that must succeed with `--json`, and returns its object.
    private func json(_ database: AdminDatabase, _ arguments: [String]) throws -> [String: Any] {
        let outcome = try database.run(arguments + ["--db", database.argument, "--json"])
        #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
        return try jsonObject(outcome.standardOutput)
    }

    private func items(_ object: [String: Any]) -> [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }

    /// What a listing is found by: its title, its description and its tags.
    private func text(_ item: [String: Any]) -> String {
        [item["title"] as? String, item["content"] as? String].compactMap { $0 }.joined(separator: " ")
            + " " + ((item["tags"] as? [String]) ?? []).joined(separator: " ")
    }

    @Test("finds what a Korean buyer types: a 2-syllable word, a compound without its space, a Latin prefix, initials",
          arguments: TestStore.allCases)
    func finds(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let brown = items(try json(database, ["search", "갈축", "--limit", "100"]))
            #expect(brown.count >= 10)
            #expect(brown.allSatisfy { text($0).contains("갈축") })

            let compound = items(try json(database, ["search", "기계식키보드"]))
            #expect((compound.first?["title"] as? String)?.contains("기계식 키보드") == true)

            let prefix = items(try json(database, ["search", "HANU", "--limit", "100"]))
            #expect(!prefix.isEmpty)
            #expect(prefix.allSatisfy { ($0["title"] as? String)?.contains("Hanul") == true })

            let initials = items(try json(database, ["search", "ㅈㅅㅇ"]))
            #expect((initials.first?["title"] as? String)?.contains("저소음") == true)

            let human = try database.run(["search", "갈축", "--limit", "3", "--db", database.argument])
            #expect(human.status == 0)
            #expect(human.standardOutput.hasPrefix("ID"))
            #expect(human.standardOutput.contains("next page: --cursor "))
            let nothing = try database.run(["search", "저소음 적축", "--db", database.argument])
            #expect(nothing.standardOutput == "No listing matches «저소음 적축».\n")
        }
    }

    @Test("filters narrow a search as they narrow products list, and a relevance walk returns each listing once",
          arguments: TestStore.allCases)
    func filtersAndCursor(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let switches = items(try json(database, ["search", "갈축", "--category", "switch", "--limit", "100"]))
            #expect(!switches.isEmpty)
            #expect(switches.allSatisfy { $0["category"] as? String == "switch" })
            let tagged = items(try json(database, ["search", "키보드", "--tag", "#무선", "--limit", "100"]))
            #expect(!tagged.isEmpty)
            #expect(tagged.allSatisfy { ($0["tags"] as? [String])?.contains("무선") == true })

            let all = items(try json(database, ["search", "키보드", "--limit", "100"])).compactMap { $0["id"] as? Int }
            var walked: [Int] = []
            var cursor: String?
            repeat {
                let page = try json(database, ["search", "키보드", "--limit", "7"] + (cursor.map { ["--cursor", $0] } ?? []))
                walked += items(page).compactMap { $0["id"] as? Int }
                cursor = page["next_cursor"] as? String
            } while cursor != nil
            #expect(walked == all)
            #expect(Set(walked).count == walked.count)

            let cheapest = items(try json(database, ["search", "갈축", "--sort", "price-asc", "--limit", "100"]))
                .compactMap { $0["price"] as? Int }
            #expect(cheapest == cheapest.sorted())
        }
    }

    /// The arguments are checked before the store is opened: one store is enough.
    @Test("a search text the API would refuse is a validation error, a bad option a usage error", arguments: [
        (["search", ""], "validation"), (["search", "   "], "validation"), (["search", String(repeating: "가", count: 101)], "validation"),
        (["search", "a b c d e f g h i j k"], "validation"), (["search", "!!!"], "validation"),
        (["search", "explain", ""], "validation"), (["search", "갈축", "--tag", "a b"], "validation"),
        (["search", "갈축", "--cursor", "nonsense"], "invalid_cursor"),
        (["search", "갈축", "--sort", "best"], "usage"), (["search", "갈축", "--limit", "0"], "usage"), (["search"], "usage"),
        (["search", "저소음", "적축"], "usage"), (["search", "explain", "갈축", "--limit", "101"], "usage"),
        (["search", "--sort", "newest", "synonyms", "list"], "usage"),
    ])
    func refusals(_ arguments: [String], code: String) async throws {
        try await seeded(.sqlite) { database in
            let outcome = try database.run(arguments + ["--db", database.argument, "--json"])
            #expect(outcome.status == (code == "usage" ? 2 : 1), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty)
            let error = try jsonObject(outcome.standardError)["error"] as? [String: Any]
            #expect(error?["code"] as? String == code, "\(arguments): \(outcome.standardError)")
        }
    }

    @Test("explain shows, for the top results in order, the text score's parts and the signals that break ties",
          arguments: TestStore.allCases)
    func explain(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let explained = items(try json(database, ["search", "explain", "저소음 키보드", "--limit", "5"]))
            let listed = items(try json(database, ["search", "저소음 키보드", "--limit", "5"]))
            #expect(explained.count == 5)
            #expect(explained.compactMap { $0["id"] as? Int } == listed.compactMap { $0["id"] as? Int })
            #expect(explained.compactMap { $0["rank"] as? Int } == [1, 2, 3, 4, 5])
            let keys = explained.compactMap { $0["key"] as? Int }
            #expect(keys == keys.sorted(by: >))
            for item in explained {
                let groups = try #require(item["groups"] as? [[String: Any]])
                #expect(groups.compactMap { $0["terms"] as? String }.contains("저소"))
                #expect(groups.allSatisfy { ($0["score"] as? Int ?? 0) > 0 })
                #expect((item["text_score"] as? Int ?? 0) > 0)
                #expect(item["in_stock"] is Bool && item["units_sold"] is Int && item["bookmark_count"] is Int)
                #expect(item["value_sold"] is Int && item["units_ranked"] as? Int ?? .max <= item["units_sold"] as? Int ?? -1)
            }

            let human = try database.run(["search", "explain", "갈축", "--limit", "2", "--db", database.argument])
            #expect(human.status == 0, "\(human.standardError)")
            for part in ["1. product ", "2. product ", "text score ", "group 갈축", "whole word 갈축", "phrase in title  +32",
                         "in stock", "sold", "bookmark", "relevance key "] {
                #expect(human.standardOutput.contains(part), "explain does not show «\(part)»")
            }
        }
    }

    @Test("a synonym added is searched at once, both ways, audited; removed, it is gone", arguments: TestStore.allCases)
    func synonyms(_ store: TestStore) async throws {
        try await seeded(store) { database in
            #expect(items(try json(database, ["search", "synonyms", "list"])).isEmpty)
            #expect(items(try json(database, ["search", "silent"])).isEmpty)

            let added = try json(database, ["search", "synonyms", "add", "Silent", "저소음"])
            #expect(added["word"] as? String == "silent" && added["synonym"] as? String == "저소음" && added["added"] as? Bool == true)
            #expect(try json(database, ["search", "synonyms", "add", "저소음", "silent"])["added"] as? Bool == false)
            let pairs = items(try json(database, ["search", "synonyms", "list"]))
            #expect(pairs.count == 1 && pairs.first?["word"] as? String == "silent")
            let silent = items(try json(database, ["search", "silent", "--limit", "100"]))
            #expect(!silent.isEmpty)
            #expect(silent.allSatisfy { text($0).contains("저소음") })

            let audit = items(try json(database, ["audit", "list", "--action", "search.synonym.add"]))
            #expect(audit.count == 1)
            #expect(audit.first?["actor"] as? String == "cli:tester")

            #expect(try json(database, ["search", "synonyms", "remove", "저소음", "SILENT"])["removed"] as? Bool == true)
            #expect(try json(database, ["search", "synonyms", "remove", "저소음", "silent"])["removed"] as? Bool == false)
            #expect(items(try json(database, ["search", "silent"])).isEmpty)

            let phrase = try database.run(["search", "synonyms", "add", "silent switch", "저소음", "--db", database.argument])
            #expect(phrase.status == 1)
            #expect(phrase.standardError.contains("one word"))
        }
    }

    @Test("db check fails when the search index disagrees with the catalog, and search reindex mends it",
          arguments: TestStore.allCases)
    func checkAndReindex(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let healthy = try database.run(["db", "check", "--db", database.argument])
            #expect(healthy.status == 0, "\(healthy.standardOutput)")
            #expect(healthy.standardOutput.contains("search: ok"))

            try database.execute("""
                DELETE FROM search_terms WHERE product_id = 3;
                UPDATE search_terms SET weight = 15 WHERE product_id = 5;
                INSERT INTO search_terms (term, product_id, weight) VALUES ('zzzz', 7, 1);
                """)
            let broken = try database.run(["db", "check", "--db", database.argument, "--json"])
            #expect(broken.status == 1)
            let report = try jsonObject(broken.standardOutput)
            #expect(report["healthy"] as? Bool == false)
            let problems = try #require(report["search"] as? [String])
            for id in [3, 5] {
                #expect(problems.contains { $0.hasPrefix("product \(id): ") }, "\(problems)")
            }
            // A posting no listing's terms have is found by the count, without naming its listing.
            #expect(problems.contains { $0.contains("1 posting(s) that are no listing's search terms") }, "\(problems)")
            #expect((report["invariants"] as? [Any])?.isEmpty == true)
            let human = try database.run(["db", "check", "--db", database.argument])
            #expect(human.standardOutput.contains("search: 3 problem(s)"))
            #expect(human.standardOutput.contains("search reindex"))

            let reindexed = try json(database, ["search", "reindex"])
            #expect(reindexed["reindexed"] as? Int == 178)
            let mended = try database.run(["db", "check", "--db", database.argument])
            #expect(mended.status == 0, "\(mended.standardOutput)")
            #expect(items(try json(database, ["audit", "list", "--action", "search.reindex"])).first?["detail"] as? String == "listings=178")
        }
    }

    @Test("products add and update take --tags; products list and search filter by a tag", arguments: TestStore.allCases)
    func tags(_ store: TestStore) async throws {
        try await seeded(store) { database in
            let updated = try json(database, ["products", "update", "1", "--tags", "사무실, #조용함,PBT"])
            #expect(updated["tags"] as? [String] == ["사무실", "조용함", "PBT"])
            let listed = items(try json(database, ["products", "list", "--tag", "조용함"]))
            #expect(listed.compactMap { $0["id"] as? Int } == [1])
            #expect(items(try json(database, ["search", "조용함"])).first?["id"] as? Int == 1)
            let shown = try database.run(["products", "show", "1", "--db", database.argument])
            #expect(shown.standardOutput.contains("#사무실 #조용함 #PBT"))

            let cleared = try json(database, ["products", "update", "1", "--tags", ""])
            #expect((cleared["tags"] as? [String])?.isEmpty == true)
            #expect(items(try json(database, ["products", "list", "--tag", "조용함"])).isEmpty)

            let example = try String(contentsOf: packageDirectory.appendingPathComponent("seed/product-example.json"), encoding: .utf8)
            let file = database.directory.appendingPathComponent("tagged.json")
            try example.replacingOccurrences(of: "\"kind\"", with: "\"tags\": [\"파일태그\"], \"kind\"").write(to: file, atomically: true, encoding: .utf8)
            let fromFile = try json(database, ["products", "add", "--seller", "1", "--file", file.path])
            #expect(fromFile["tags"] as? [String] == ["파일태그"])
            let overridden = try json(database, ["products", "add", "--seller", "1", "--file", file.path, "--tags", "갈축,무선"])
            #expect(overridden["tags"] as? [String] == ["갈축", "무선"])

            let tooMany = try database.run(["products", "update", "1", "--tags", (1...11).map { "t\($0)" }.joined(separator: ","),
                                            "--db", database.argument])
            #expect(tooMany.status == 1)
            #expect(tooMany.standardError.contains("at most 10 tags"))
        }
    }

    @Test("synthetic listings are found as soon as seed --synthetic returns, and db check agrees", arguments: TestStore.allCases)
    func synthetic(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let seed = try database.run(["seed", "--synthetic", "600", "--seed", "3", "--db", database.argument])
            #expect(seed.status == 0, "\(seed.standardError)")
            #expect(!items(try json(database, ["search", "키보드"])).isEmpty)
            let check = try database.run(["db", "check", "--db", database.argument])
            #expect(check.status == 0, "\(check.standardOutput)")
            #expect(check.standardOutput.contains("search: ok"))
        }
    }

    @Test("the demo catalog's listings carry their sellers' hashtags")
    func demoCatalogTags() async throws {
        try await seeded(.sqlite) { database in
            let brown = items(try json(database, ["products", "list", "--tag", "갈축", "--limit", "100"]))
            #expect(brown.count >= 10)
            let wireless = items(try json(database, ["products", "list", "--tag", "무선", "--category", "keyboard", "--limit", "100"]))
            #expect(wireless.allSatisfy { ["wireless", "bluetooth", "multi"].contains(($0["spec"] as? [String: Any])?["connection"] as? String ?? "") })
            #expect(!items(try json(database, ["products", "list", "--tag", "키캡"])).isEmpty)
        }
    }
}
