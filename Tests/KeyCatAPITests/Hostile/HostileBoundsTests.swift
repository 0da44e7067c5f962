import Foundation
import KeyCatInfrastructure
import Testing

/// A hostile client against the example server over real HTTP: webhooks signed with a guessable
/// secret, prices that overflow a buyer's total, profile images that are not https images,
/// non-canonical paths, and a business number typed first by someone who does not own it.
@Suite("A hostile client: secrets, bounds, shapes and business numbers", .serialized,
       .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HostileBoundsTests {
    /// The simulator's secret before it was random per installation, published in the source.
    static let wellKnownSecret = "whsec_a2V5Y2F0LXBnLXNpbXVsYXRvci13ZWJob29rLXNlY3JldA=="

    @Test("a webhook signed with the once well-known secret is refused, with the same answer as a stale one")
    func webhookSecret() async throws {
        let client = try HTTPTestServer.client()
        let body = Data(#"{"imp_uid":"imp_000000000001","merchant_uid":"kc_forged","status":"paid"}"#.utf8)
        var answers: [HTTPAnswer] = []
        let now = Int64(Date().timeIntervalSince1970)
        for (secret, timestamp) in await [(Self.wellKnownSecret, now), (try HTTPTestServer.simulatorWebhookSecret(), now - 3_600)] {
            let signature = StandardWebhookSignature.sign(id: "msg_hostile", timestamp: timestamp, body: body, secret: secret)
            answers.append(try await client.send("POST", "/webhooks/pg", body: body, headers: [
                "Content-Type": "application/json", "webhook-id": "msg_hostile", "webhook-timestamp": String(timestamp),
                "webhook-signature": signature,
            ]))
        }
        #expect(answers.allSatisfy { $0.status == 400 }, "\(answers)")
        #expect(answers[0].text == answers[1].text && answers[0]["reason"] == nil, "no oracle: \(answers)")
    }

    @Test("a price over ₩100,000,000 is refused, so no buyer's cart total can overflow")
    func priceBound() async throws {
        let client = try HTTPTestServer.client()
        let seller = try await client.logIn(HTTPTestServer.account("SELLER").email, HTTPTestServer.account("SELLER").password)
        var product = HTTPJourneyTests.product(title: "Overpriced artisan keycap", price: 100_000_000, stock: 1)
        product["regular_price"] = 9_000_000_000_000_000_000 as Int64
        let answer = try await seller.send("POST", "/products", json: product)
        #expect(answer.status == 400 && answer["field"] as? String == "regular_price", "\(answer)")
    }

    @Test("a profile image that is not an https URL is refused")
    func profileImage() async throws {
        let client = try HTTPTestServer.client()
        let buyer = try await HostileAccessTests.newBuyer(client, "painter")
        for image in ["javascript:alert(document.cookie)", "http://tracker.example/pixel.gif", "data:image/png;base64,AAAA", "/etc/passwd"] {
            let answer = try await buyer.send("PATCH", "/me", json: ["profile_image": image])
            #expect(answer.status == 400 && answer["field"] as? String == "profile_image", "\(image): \(answer)")
        }
        let fine = try await buyer.send("PATCH", "/me", json: ["profile_image": "https://cdn.example.com/a.webp"])
        #expect(fine.status == 200 && fine["profile_image"] as? String == "https://cdn.example.com/a.webp", "\(fine)")
    }

    /// (Dot segments are resolved by the client before they are sent; the in-process suite sends them.)
    @Test("non-canonical spellings of a path name nothing", arguments: ["//users", "//products", "/products/", "/products//1"])
    func canonicalPaths(path: String) async throws {
        let answer = try await HTTPTestServer.client().send("GET", path)
        #expect(answer.status == 404, "\(path): \(answer)")
    }

    @Test("someone who typed a business's number first does not stop its owner: both wait, the operator approves one")
    func businessNumber() async throws {
        let client = try HTTPTestServer.client()
        let number = Self.businessNumber(seed: UInt64.random(in: 0..<1_000_000_000))
        let registry = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString).csv")
        try "\(number),01\n".write(to: registry, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: registry) }
        let loaded = try HostileAccountsTests.admin(["sellers", "registry", registry.path])
        try #require(loaded.status == 0, "\(loaded.output)")
        let squatter = try await HostileAccessTests.newBuyer(client, "squatter")
        let owner = try await HostileAccessTests.newBuyer(client, "owner")
        var ids: [Int64] = []
        for applicant in [squatter, owner] {
            let applied = try await applicant.send("POST", "/seller-applications", json: [
                "business_number": number, "representative_name": "김키캣", "opening_date": "2020-03-02",
            ])
            #expect(applied.status == 201 && applied["status"] as? String == "pending", "\(applied)")
            ids.append(try #require(applied.int("id")))
        }
        let operatorAccount = try HTTPTestServer.account("OPERATOR")
        let admin = try await client.logIn(operatorAccount.email, operatorAccount.password)
        let approved = try await admin.send("POST", "/seller-applications/\(ids[1])/approve")
        #expect(approved.status == 200 && approved["status"] as? String == "approved", "\(approved)")
        let lost = try await admin.send("GET", "/seller-applications/\(ids[0])")
        #expect(lost["status"] as? String == "rejected", "\(lost)")
    }

    /// A valid Korean business registration number (its check digit computed).
    static func businessNumber(seed: UInt64) -> String {
        var digits = String(format: "%09d", seed % 1_000_000_000).map { Int(String($0))! }
        let weights = [1, 3, 7, 1, 3, 7, 1, 3, 5]
        var sum = zip(digits, weights).map(*).reduce(0, +)
        sum += (digits[8] * 5) / 10
        digits.append((10 - sum % 10) % 10)
        return digits.map(String.init).joined()
    }
}
