import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// The operators' endpoints: what `add` accepts and refuses (refusing changes nothing), secrets,
/// and every action audited, on both stores.
@Suite("Webhook endpoints")
struct WebhookEndpointTests {
    static let refusals: [(url: String, events: String, secret: String?, description: String, field: String)] = [
        ("http://hooks.example.com/", "*", nil, "", "url"),
        ("ftp://hooks.example.com/", "*", nil, "", "url"),
        ("https://user:pass@hooks.example.com/", "*", nil, "", "url"),
        ("https://hooks.example.com:0/", "*", nil, "", "url"),
        ("https://hooks.example.com:70000/", "*", nil, "", "url"),
        ("https:///no-host", "*", nil, "", "url"),
        ("https://hooks.example.com/#fragment", "*", nil, "", "url"),
        ("https://hooks.example.com/" + String(repeating: "a", count: 2_000), "*", nil, "", "url"),
        ("https://hooks.example.com/a b", "*", nil, "", "url"),
        ("https://hooks.example.com/", "", nil, "", "events"),
        ("https://hooks.example.com/", "order.nothing", nil, "", "events"),
        ("https://hooks.example.com/", "*", "not-a-secret", "", "secret"),
        ("https://hooks.example.com/", "*", "whsec_" + Data(repeating: 1, count: 8).base64EncodedString(), "", "secret"),
        ("https://hooks.example.com/", "*", nil, String(repeating: "x", count: 201), "description"),
    ]

    @Test("a URL, pattern, secret or description out of the rules is a validation error naming it, and nothing is stored",
          arguments: TestStore.allCases)
    func refusesBadInput(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let before = try await shop.rowCounts()
            for refusal in Self.refusals {
                let error = await #expect(throws: KeyCatError.self, "\(refusal)") {
                    try await shop.keycat.webhookEndpoints.add(url: refusal.url, events: refusal.events, secret: refusal.secret,
                                                               description: refusal.description, by: shop.operatorConsole)
                }
                #expect(error?.code == .validation)
                #expect(error?.context["field"] == refusal.field, "\(refusal.url): \(String(describing: error))")
            }
            #expect(try await shop.rowCounts() == before)
        }
    }

    @Test("plain http and loopback addresses only for a development host the configuration allows")
    func developmentHosts() async throws {
        try await TestShop.with(configure: { $0.webhookDevelopmentHosts = ["127.0.0.1", "LocalHost"] }) { shop in
            let local = try await shop.endpoint(url: "http://localhost:8088/hooks")
            #expect(local.endpoint.url.host == "localhost")
            _ = try await shop.endpoint(url: "http://127.0.0.1:9/")
            await #expect(throws: KeyCatError.self) { _ = try await shop.endpoint(url: "http://10.0.0.1/") }
        }
    }

    @Test("add makes a whsec_ secret of 32 random bytes, shown once; every action is audited; unknown ids are not found",
          arguments: TestStore.allCases)
    func lifecycle(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let service = shop.keycat.webhookEndpoints
            let added = try await service.add(url: "https://hooks.example.com/k", events: "order.paid, shipment.*",
                                              description: "warehouse", by: shop.operatorConsole)
            #expect(added.secret.rawValue.hasPrefix("whsec_"))
            #expect(Data(base64Encoded: String(added.secret.rawValue.dropFirst(6)))?.count == 32)
            #expect(added.endpoint.eventList == "order.paid,shipment.*")
            #expect(added.endpoint.isEnabled)
            let other = try await shop.endpoint()
            #expect(other.secret != added.secret)

            let id = added.endpoint.id
            #expect(try await service.disable(id, by: shop.operatorConsole).isEnabled == false)
            #expect(try await service.enable(id, by: shop.operatorConsole).isEnabled)
            let rotated = try await service.rotateSecret(id, by: shop.operatorConsole)
            #expect(rotated.secret != added.secret)
            #expect(rotated.endpoint.previousSecretExpiresAt == StoredTimeProbe.stored(shop.clock.now().addingTimeInterval(86_400)))
            try await service.remove(other.endpoint.id, by: shop.operatorConsole)
            #expect(try await service.endpoints(by: shop.operatorConsole).map(\.id) == [id])

            let actions = try await shop.keycat.auditLog.recent(limit: 20).map(\.action).filter { $0.hasPrefix("webhook.") }
            #expect(actions.reversed() == [
                "webhook.endpoint.add", "webhook.endpoint.add", "webhook.endpoint.disable", "webhook.endpoint.enable",
                "webhook.endpoint.rotate_secret", "webhook.endpoint.remove",
            ])
            let audited = try await shop.keycat.auditLog.recent(limit: 20)
            #expect(!audited.contains { $0.detail.contains(added.secret.rawValue) || $0.detail.contains(rotated.secret.rawValue) })
            #expect(audited.contains { $0.action == "webhook.endpoint.add" && $0.target == "webhook_endpoint:\(id)" })

            for action in [{ try await service.disable(999, by: shop.operatorConsole) },
                           { try await service.enable(999, by: shop.operatorConsole) },
                           { try await service.rotateSecret(999, by: shop.operatorConsole).endpoint }] {
                let error = await #expect(throws: KeyCatError.self) { _ = try await action() }
                #expect(error?.code == .notFound)
            }
            let removal = await #expect(throws: KeyCatError.self) { try await service.remove(999, by: shop.operatorConsole) }
            #expect(removal?.code == .notFound)
        }
    }

    @Test("only an admin manages endpoints")
    func adminsOnly() async throws {
        try await TestShop.with { shop in
            let buyer = try await shop.user(.buyer)
            let error = await #expect(throws: KeyCatError.self) {
                _ = try await shop.keycat.webhookEndpoints.add(url: "https://hooks.example.com/", events: "*", by: buyer)
            }
            #expect(error?.code == .forbidden)
        }
    }
}

/// Times as the store keeps them: to the millisecond.
enum StoredTimeProbe {
    static func stored(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000).rounded(.down) / 1_000) }
}
