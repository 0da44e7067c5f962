import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

/// The operators' routes the admin console added (sales statistics, suspension, roles, closing
/// a settlement month): operators only, the domain's rules, and the audit log written.
@Suite("Operators' routes through the HTTP API")
struct AdminRouteTests {
    @Test("sales statistics: 30 Korean days by default, every status counted, operators only", arguments: TestStore.allCases)
    func statistics(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let admin = try await server.signedIn(.admin, "operator")
            let buyer = try await server.signedIn(.buyer, "mina")
            let report = try await server.send("GET", "/statistics/sales", token: admin.token)
            #expect(report.status == 200, "\(report)")
            #expect(report["time_zone"] as? String == "Asia/Seoul")
            let days = try #require(report["days"] as? [[String: Any]])
            #expect(days.count == 30)
            #expect(days.allSatisfy { ($0["day"] as? String)?.count == 10 && ($0["sales"] as? NSNumber)?.int64Value == 0 })
            let statuses = try #require(report["orders_by_status"] as? [[String: Any]])
            #expect(Set(statuses.compactMap { $0["status"] as? String }) == Set(OrderStatus.allCases.map(\.rawValue)))
            #expect(report.int("total_sales") == 0 && report.int("total_refunds") == 0)

            #expect(try await server.send("GET", "/statistics/sales?days=7", token: admin.token)["days"].map { ($0 as? [Any])?.count } == 7)
            #expect(try await server.send("GET", "/statistics/sales?days=0", token: admin.token).status == 400)
            #expect(try await server.send("GET", "/statistics/sales?days=366", token: admin.token).status == 400)
            #expect(try await server.send("GET", "/statistics/sales", token: buyer.token).status == 403)
            #expect(try await server.send("GET", "/statistics/sales").status == 401)
        }
    }

    @Test("an operator finds an account by email, suspends, reinstates and changes its role; each is audited, never on themselves",
          arguments: TestStore.allCases)
    func accounts(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let admin = try await server.signedIn(.admin, "operator")
            let buyer = try await server.signedIn(.buyer, "mina")
            let suspended = try await server.send("POST", "/users/\(buyer.id)/suspend", token: admin.token)
            #expect(suspended.status == 200 && suspended["suspended_at"] is String, "\(suspended)")
            #expect(try await server.send("GET", "/me", token: buyer.token).status == 401)
            #expect(try await server.send("POST", "/users/\(buyer.id)/suspend", token: admin.token).status == 409)
            let reinstated = try await server.send("POST", "/users/\(buyer.id)/reinstate", token: admin.token)
            #expect(reinstated.status == 200 && reinstated["suspended_at"] == nil, "\(reinstated)")
            #expect(try await server.send("POST", "/users/\(buyer.id)/reinstate", token: admin.token).status == 409)

            let promoted = try await server.send("PUT", "/users/\(buyer.id)/role", json: ["role": "seller"], token: admin.token)
            #expect(promoted.status == 200 && promoted["role"] as? String == "seller", "\(promoted)")
            #expect(try await server.send("PUT", "/users/\(buyer.id)/role", json: ["role": "king"], token: admin.token).status == 400)
            #expect(try await server.send("PUT", "/users/\(admin.id)/role", json: ["role": "buyer"], token: admin.token).status == 403)
            #expect(try await server.send("POST", "/users/\(admin.id)/suspend", token: admin.token).status == 403)
            #expect(try await server.send("POST", "/users/999999/suspend", token: admin.token).status == 404)

            let other = try await server.signedIn(.buyer, "other")
            let found = try await server.send("GET", "/users?email=%20MINA@Example.com", token: admin.token)
            #expect(found.status == 200 && found.items.map { ($0["id"] as? NSNumber)?.int64Value } == [buyer.id] && found["next_cursor"] is NSNull, "\(found)")
            #expect(try await server.send("GET", "/users?email=nobody@example.com", token: admin.token).items.isEmpty)
            #expect(try await server.send("GET", "/users?email=%20", token: admin.token).status == 400)
            #expect(try await server.send("GET", "/users?email=mina@example.com", token: other.token).status == 403)
            // By part of a nick, in any Latin case; paged by a cursor bound to it.
            let byNick = try await server.send("GET", "/users?nick=%20MIN", token: admin.token)
            #expect(byNick.status == 200 && byNick.items.map { ($0["id"] as? NSNumber)?.int64Value } == [buyer.id], "\(byNick)")
            let firstOfT = try await server.send("GET", "/users?nick=t&limit=1", token: admin.token)
            let nextOfT = try #require(firstOfT["next_cursor"] as? String, "\(firstOfT)")
            #expect(try await server.send("GET", "/users?nick=T&limit=1&next=\(nextOfT)", token: admin.token).status == 200)
            #expect(try await server.send("GET", "/users?nick=o&next=\(nextOfT)", token: admin.token).status == 400)
            #expect(try await server.send("GET", "/users?nick=mina&email=mina@example.com", token: admin.token).status == 400)
            #expect(try await server.send("GET", "/users?nick=mina", token: other.token).status == 403)
            #expect(try await server.send("POST", "/users/\(buyer.id)/suspend", token: other.token).status == 403)

            let trail = try await server.send("GET", "/audit?target=user:\(buyer.id)", token: admin.token)
            #expect(trail.status == 200, "\(trail)")
            // The look-up by email is on the person's record too (an operator's read of them).
            #expect(trail.items.compactMap { $0["action"] as? String }.filter { $0 != "user.create" }
                    == ["personal_data.read", "user.set_role", "user.reinstate", "user.suspend"], "\(trail)")
            #expect(trail.items.allSatisfy { $0["actor"] as? String == "admin:\(admin.id)" || $0["action"] as? String == "user.create" })
            let firstPage = try await server.send("GET", "/audit?target=user:\(buyer.id)&limit=1", token: admin.token)
            let next = try #require(firstPage["next_cursor"] as? String)
            let secondPage = try await server.send("GET", "/audit?target=user:\(buyer.id)&limit=1&next=\(next)", token: admin.token)
            #expect(secondPage.items.first?["action"] as? String == "user.set_role", "\(secondPage)")
            #expect(try await server.send("GET", "/audit?target=user:1&next=\(next)", token: admin.token).status == 400)
            #expect(try await server.send("GET", "/audit", token: other.token).status == 403)
        }
    }

    @Test("settlements: a dry run of this month, closing it refused until it ends, a past month closed once", arguments: TestStore.allCases)
    func settlements(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let admin = try await server.signedIn(.admin, "operator")
            let now = SettlementPeriod(containing: server.clock.now()).description
            let dryRun = try await server.send("POST", "/settlements/close", json: ["period": now, "dry_run": true], token: admin.token)
            #expect(dryRun.status == 200 && dryRun["dry_run"] as? Bool == true && dryRun["period"] as? String == now, "\(dryRun)")
            #expect(try await server.send("POST", "/settlements/close", json: ["period": now], token: admin.token).status == 400)
            let closed = try await server.send("POST", "/settlements/close", json: ["period": "2020-01"], token: admin.token)
            #expect(closed.status == 200 && closed["dry_run"] as? Bool == false, "\(closed)")
            #expect(try await server.send("POST", "/settlements/close", json: ["period": "2020-01"], token: admin.token).status == 409)
            #expect(try await server.send("POST", "/settlements/close", json: ["period": "January"], token: admin.token).status == 400)
        }
    }
}
