import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The operators' search routes: the synonym table and `explain`, operators only, with what
/// they change seen by the next search, however it was cached, and written to the audit log.
@Suite("Search's operator routes")
struct SearchOperatorRouteTests {
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("a synonym added over HTTP finds the other word at once, both ways; removed, it does not", arguments: TestStore.allCases)
    func synonyms(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let admin = try await server.signedIn(.admin, "operator")
            let seller = try await server.signedIn(.seller, "synonymseller")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(title: "Keychron Q1 알루미늄 키보드"),
                                                token: seller.token)
            try #require(created.status == 201, "\(created)")
            let korean = "/products?q=\(Self.encoded("키크론"))"
            #expect(try await server.send("GET", korean).items.isEmpty, "no listing says 키크론 yet")

            let added = try await server.send("POST", "/search/synonyms", json: ["word": " Keychron ", "synonym": "키크론"], token: admin.token)
            #expect(added.status == 200 && added["added"] as? Bool == true, "\(added)")
            // Kept normalised, the smaller word first, whichever order it was sent in.
            #expect(added["word"] as? String == "keychron" && added["synonym"] as? String == "키크론", "\(added)")
            let again = try await server.send("POST", "/search/synonyms", json: ["word": "키크론", "synonym": "KEYCHRON"], token: admin.token)
            #expect(again.status == 200 && again["added"] as? Bool == false, "\(again)")

            // The answer cached before the synonym is not served after it.
            #expect(try await server.send("GET", korean).items.compactMap { $0["title"] as? String } == ["Keychron Q1 알루미늄 키보드"])
            let listed = try await server.send("GET", "/search/synonyms", token: admin.token)
            #expect(listed.status == 200 && listed.items.count == 1 && listed.items.first?["synonym"] as? String == "키크론", "\(listed)")

            let explained = try await server.send("GET", "/search/explain?q=\(Self.encoded("키크론"))&limit=5", token: admin.token)
            #expect(explained.status == 200 && explained["query"] as? String == "키크론", "\(explained)")
            let first = try #require(explained.items.first, "\(explained)")
            #expect(first["rank"] as? Int == 1 && first["id"] as? NSNumber == created["id"] as? NSNumber)
            let groups = try #require(first["groups"] as? [[String: Any]])
            // 키크론's two bigrams, each with the synonym as its alternative, which the title earned.
            #expect(groups.compactMap { $0["terms"] as? String } == ["키크|keychron*", "크론|keychron*"], "\(groups)")
            #expect(groups.allSatisfy { ($0["score"] as? Int ?? 0) > 0 }, "\(groups)")
            #expect((first["text_score"] as? Int ?? 0) > 0 && first["in_stock"] as? Bool == true && first["units_sold"] as? Int == 0)
            #expect(first["value_sold"] as? Int == 0 && first["units_ranked"] as? Int == 0, "\(first)")
            #expect(first["key"] is NSNumber && first["rating_average"] == nil, "\(first)")

            let removal = "/search/synonyms?word=\(Self.encoded("키크론"))&synonym=KeyChron"
            #expect(try await server.send("DELETE", removal, token: admin.token).status == 204)
            let gone = try await server.send("DELETE", removal, token: admin.token)
            #expect(gone.status == 404 && gone.code == "not_found", "\(gone)")
            #expect(try await server.send("GET", korean).items.isEmpty, "the synonym is gone from search at once")
            #expect(try await server.send("GET", "/search/synonyms", token: admin.token).items.isEmpty)

            let trail = try await server.send("GET", "/audit?target=synonym:keychron", token: admin.token)
            #expect(trail.items.compactMap { $0["action"] as? String } == ["search.synonym.remove", "search.synonym.add"], "\(trail)")
            #expect(trail.items.allSatisfy { $0["actor"] as? String == "admin:\(admin.id)" && $0["detail"] as? String == "키크론" })
        }
    }

    @Test("operators only; a pair that is not two words, or one word twice, is a 400 naming it and adds nothing")
    func refusals() async throws {
        try await APITestServer.with(.sqlite) { server in
            let admin = try await server.signedIn(.admin, "operator")
            let buyer = try await server.signedIn(.buyer, "mina")
            let seller = try await server.signedIn(.seller, "synonymseller")
            for token in [buyer.token, seller.token] {
                #expect(try await server.send("GET", "/search/synonyms", token: token).status == 403)
                #expect(try await server.send("POST", "/search/synonyms", json: ["word": "a", "synonym": "b"], token: token).status == 403)
                #expect(try await server.send("DELETE", "/search/synonyms?word=a&synonym=b", token: token).status == 403)
                #expect(try await server.send("GET", "/search/explain?q=a", token: token).status == 403)
            }
            #expect(try await server.send("GET", "/search/synonyms").status == 401)
            #expect(try await server.send("GET", "/search/explain?q=a").status == 401)

            let bodies: [([String: Any], String)] = [
                (["word": "저소음 키보드", "synonym": "silent"], "word"), (["word": "저소음", "synonym": ""], "synonym"),
                (["word": "Silent", "synonym": "silent"], "synonym"), (["word": "ㅈㅅㅇ", "synonym": "silent"], "word"),
                (["word": String(repeating: "가", count: 31), "synonym": "silent"], "word"), (["word": "저소음"], "synonym"),
                (["word": "저소음", "synonym": "silent", "both_ways": true], "both_ways"),
            ]
            for (body, field) in bodies {
                let refused = try await server.send("POST", "/search/synonyms", json: body, token: admin.token)
                #expect(refused.status == 400 && refused.field == field, "\(body): \(refused)")
            }
            for (target, field) in [("/search/synonyms?word=a", "synonym"), ("/search/synonyms?word=a%20b&synonym=c", "word"),
                                    ("/search/synonyms?synonym=c", "word")] {
                let refused = try await server.send("DELETE", target, token: admin.token)
                #expect(refused.status == 400 && refused.field == field, "\(target): \(refused)")
            }
            for (target, field) in [("/search/explain", "q"), ("/search/explain?q=%21", "q"), ("/search/explain?q=a&limit=0", "limit"),
                                    ("/search/synonyms?limit=1", "limit")] {
                let refused = try await server.send("GET", target, token: admin.token)
                #expect(refused.status == 400 && refused.field == field, "\(target): \(refused)")
            }
            #expect(try await server.send("GET", "/search/synonyms", token: admin.token).items.isEmpty, "nothing was added")
        }
    }
}
