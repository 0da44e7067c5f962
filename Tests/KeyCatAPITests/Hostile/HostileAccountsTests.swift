import Foundation
import Synchronization
import Testing

/// A hostile client against the example server over real HTTP, on accounts: cheap exhaustion
/// (bodies read before the route and token are judged, sign-ups and password guesses without
/// limit), tokens that outlive a password change, a suspension or a withdrawal, a targeted
/// lock-out of an account's owner, and telling accounts apart by their answers.
///
/// The test server trusts loopback as a reverse proxy (`KEYCAT_TRUSTED_PROXIES`), so each test
/// acts as distinct clients through `X-Forwarded-For`; operator actions run the real
/// `keycat-admin` on the server's database (`KEYCAT_TEST_ADMIN`, `KEYCAT_TEST_SERVER_DB`).
@Suite("A hostile client on accounts over real HTTP", .enabled(if: HTTPTestServer.isConfigured, "\(HTTPTestServer.skipReason)"))
struct HostileAccountsTests {
    /// A client address of the benchmarking range 198.18.0.0/16 that no other test of this run
    /// uses: one test's throttled client (an exhausted sign-up budget, a locked-out log-in) must
    /// never be another's. Drawn at random once, then counted, so a second run against the same
    /// server starts elsewhere.
    static func address() -> String {
        let index = (firstAddress + nextAddress.add(1, ordering: .relaxed).oldValue) % addressCount
        return "198.18.\(index / 254).\(index % 254 + 1)"
    }

    /// 198.18.0.1 to 198.18.255.254.
    private static let addressCount = 256 * 254
    private static let firstAddress = Int.random(in: 0..<addressCount)
    private static let nextAddress = Atomic<Int>(0)

    static func email(_ name: String) -> String { "\(name).\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    /// `X-Forwarded-For` naming `client`; fails when the server does not trust loopback as a proxy.
    static func from(_ client: String) throws -> [String: String] {
        try #require(HTTPTestServer.environment["KEYCAT_TEST_TRUSTED_PROXIES"] != nil,
                     "the test server must trust loopback as a proxy (scripts/test sets KEYCAT_TRUSTED_PROXIES)")
        return ["X-Forwarded-For": client]
    }

    /// Signs up a buyer from `client` and logs them in from it.
    static func buyer(_ http: HTTPClient, client: String, password: String = "keycat123")
        async throws -> (email: String, session: HTTPSession)
    {
        let email = email("buyer")
        let signUp = try await http.send("POST", "/users", json: ["email": email, "password": password, "nick": "buyer"],
                                         headers: try from(client))
        try #require(signUp.status == 201, "\(signUp)")
        let logIn = try await http.send("POST", "/sessions", json: ["email": email, "password": password], headers: try from(client))
        try #require(logIn.status == 200, "\(logIn)")
        return (email, try HTTPSession(client: http, pair: logIn))
    }

    /// Runs `keycat-admin` on the server's database.
    static func admin(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        try HTTPTestServerInstance.sqlite.admin(arguments, input: input)
    }

    // MARK: 4. Cheap exhaustion

    @Test("a huge body to an unknown path or to a signed-in route without a token is refused by its head, not read")
    func hugeBodiesRefusedByTheirHead() async throws {
        let http = try HTTPTestServer.client()
        // Over the largest limit of any route: the old server read 16 MiB of it, then answered 413.
        let unknown = try await http.send("POST", "/no/such/route", body: Data(count: 20 << 20),
                                          headers: ["Content-Type": "application/json"])
        #expect(unknown.status == 404 && unknown.code == "route_not_found", "\(unknown)")
        // Under the largest limit, over the route's own: the old server buffered it all and answered 413.
        let tokenless = try await http.send("POST", "/cart/items", body: Data(count: 4 << 20),
                                            headers: ["Content-Type": "application/json"])
        #expect(tokenless.status == 401 && tokenless.headers["www-authenticate"] != nil, "\(tokenless)")
        // With a token, the route's own limit (1 MiB) applies before buffering.
        let (_, buyer) = try await Self.buyer(http, client: Self.address())
        let over = try await http.send("POST", "/cart/items", body: Data(count: 2 << 20), token: buyer.tokens.access,
                                       headers: ["Content-Type": "application/json"])
        #expect(over.status == 413 && over["limit"] as? String == String(1 << 20), "\(over)")
    }

    @Test("one client cannot sign up without limit; another client still can")
    func signUpsThrottledPerClient() async throws {
        let http = try HTTPTestServer.client()
        let limit = try #require(HTTPTestServer.environment["KEYCAT_TEST_SIGN_UPS_PER_CLIENT"].flatMap { Int($0) },
                                 "KEYCAT_TEST_SIGN_UPS_PER_CLIENT (scripts/test-server exports it)")
        let attacker = Self.address()
        let headers = try Self.from(attacker)
        var statuses: [Int] = []
        for batch in stride(from: 0, to: limit + 5, by: 25) {
            statuses += try await withThrowingTaskGroup(of: Int.self) { group in
                for index in batch..<min(batch + 25, limit + 5) {
                    group.addTask {
                        try await http.send("POST", "/users", json: ["email": Self.email("bulk\(index)"), "password": "keycat123",
                                                                     "nick": "bulk"], headers: headers).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.filter { $0 == 201 }.count == limit)
        #expect(statuses.filter { $0 == 429 }.count == 5)
        let refused = try await http.send("POST", "/users", json: ["email": Self.email("late"), "password": "keycat123", "nick": "late"],
                                          headers: headers)
        #expect(refused.status == 429 && refused.code == "rate_limited" && refused.headers["retry-after"] != nil, "\(refused)")
        let other = try await http.send("POST", "/users", json: ["email": Self.email("other"), "password": "keycat123", "nick": "other"],
                                        headers: try Self.from(Self.address()))
        #expect(other.status == 201, "\(other)")
    }

    @Test("guessing the current password through PUT /me/password is throttled: ten wrong guesses, then 429")
    func passwordChangeThrottled() async throws {
        let http = try HTTPTestServer.client()
        let client = Self.address()
        let (email, buyer) = try await Self.buyer(http, client: client)
        var statuses: [Int] = []
        for guess in 0..<11 {
            statuses.append(try await buyer.send("PUT", "/me/password", json: ["current_password": "guess\(guess)-wrong",
                                                                               "new_password": "keycat456"],
                                                 headers: try Self.from(client)).status)
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 401 }, "\(statuses)")
        #expect(statuses.last == 429, "\(statuses)")
        // The password did not change.
        let logIn = try await http.send("POST", "/sessions", json: ["email": email, "password": "keycat123"],
                                        headers: try Self.from(Self.address()))
        #expect(logIn.status == 200, "\(logIn)")
    }

    // MARK: 5. Revocation now

    /// Runs `scenario` on a fresh signed-in buyer until it is conclusive: the test server's access
    /// tokens live a few seconds, so on a loaded machine a token can expire before a step that
    /// needs it live; such a run (which `scenario` reports by returning false) is tried again,
    /// at most five times.
    static func conclusively(_ scenario: (HTTPClient, String, HTTPSession) async throws -> Bool) async throws {
        let http = try HTTPTestServer.client()
        for _ in 0..<5 {
            let client = address()
            let (_, buyer) = try await buyer(http, client: client)
            try await buyer.refresh()
            if try await scenario(http, client, buyer) { return }
        }
        Issue.record("five runs in a row saw a fresh access token expire before it was used")
    }

    /// Whether `answer` is the refusal of a revoked (not merely expired) access token.
    static func revoked(_ answer: HTTPAnswer) -> Bool {
        answer.status == 401 && answer.code == "access_token_expired" && (answer["message"] as? String)?.contains("revoked") == true
    }

    /// Whether `answer` is an expired token's 401, which makes the run inconclusive.
    static func expired(_ answer: HTTPAnswer) -> Bool {
        answer.status == 401 && answer.code == "access_token_expired" && (answer["message"] as? String)?.contains("has expired") == true
    }

    @Test("an access token stops working right after a password change, and its refresh token with it")
    func passwordChangeRevokesAccessTokens() async throws {
        try await Self.conclusively { http, client, buyer in
            let old = buyer.tokens
            let changed = try await http.send("PUT", "/me/password", json: ["current_password": "keycat123", "new_password": "keycat456"],
                                              token: old.access, headers: try Self.from(client))
            if Self.expired(changed) { return false }
            try #require(changed.status == 200, "\(changed)")
            let stale = try await http.send("GET", "/me", token: old.access)
            let cart = try await http.send("GET", "/cart", token: old.access)
            if Self.expired(stale) || Self.expired(cart) { return false }
            #expect(Self.revoked(stale), "\(stale)")
            #expect(Self.revoked(cart), "\(cart)")
            let refresh = try await http.send("POST", "/sessions/refresh", json: ["refresh_token": old.refresh])
            #expect(refresh.status == 400 && refresh.code == "refresh_token_expired", "\(refresh)")
            return true
        }
    }

    @Test("after a withdrawal the access token opens nothing")
    func withdrawalRevokesAccessTokens() async throws {
        try await Self.conclusively { http, _, buyer in
            let token = buyer.tokens.access
            let deleted = try await http.send("POST", "/me/withdrawal", json: ["password": "keycat123"], token: token)
            if Self.expired(deleted) { return false }
            try #require(deleted.status == 204, "\(deleted)")
            for target in ["/cart", "/me/bookmarks", "/orders"] {
                let answer = try await http.send("GET", target, token: token)
                if Self.expired(answer) { return false }
                #expect(Self.revoked(answer), "\(target): \(answer)")
            }
            #expect(try await http.send("POST", "/sessions/refresh", json: ["refresh_token": buyer.tokens.refresh]).status == 400)
            return true
        }
    }

    @Test("an operator's suspension, role change and password reset take effect through keycat-admin, audited")
    func operatorActions() async throws {
        let http = try HTTPTestServer.client()
        let client = Self.address()
        let (email, buyer) = try await Self.buyer(http, client: client)
        let id = String(buyer.userID)

        let suspended = try Self.admin(["users", "suspend", id, "--json"])
        try #require(suspended.status == 0, "\(suspended.output)")
        #expect(suspended.output.contains("\"status\":\"suspended\""), "\(suspended.output)")
        // Refresh and log-in read the database, so another process's suspension holds at once. (Its
        // access tokens stop within the server's token-version cache lifetime, longer than this
        // server's three-second tokens: the data tests check that bound with a test clock.)
        #expect(try await http.send("POST", "/sessions/refresh", json: ["refresh_token": buyer.tokens.refresh]).status == 400)
        let logIn = try await http.send("POST", "/sessions", json: ["email": email, "password": "keycat123"], headers: try Self.from(client))
        #expect(logIn.status == 403 && logIn["reason"] as? String == "account_suspended", "\(logIn)")
        #expect(try Self.admin(["users", "suspend", id]).status == 1)

        #expect(try Self.admin(["users", "reinstate", id]).status == 0)
        let back = try await http.send("POST", "/sessions", json: ["email": email, "password": "keycat123"], headers: try Self.from(client))
        try #require(back.status == 200, "\(back)")
        let session = try HTTPSession(client: http, pair: back)

        let role = try Self.admin(["users", "set-role", id, "--role", "seller", "--json"])
        #expect(role.status == 0 && role.output.contains("\"role\":\"seller\""), "\(role.output)")
        // The next refresh carries the new role.
        let refreshed = try await http.send("POST", "/sessions/refresh", json: ["refresh_token": session.tokens.refresh])
        #expect(refreshed.status == 200 && refreshed["role"] as? String == "seller", "\(refreshed)")

        let reset = try Self.admin(["users", "reset-password", id], input: "keycat789\n")
        #expect(reset.status == 0, "\(reset.output)")
        let oldPassword = try await http.send("POST", "/sessions", json: ["email": email, "password": "keycat123"],
                                              headers: try Self.from(client))
        #expect(oldPassword.status == 401, "\(oldPassword)")
        let newPassword = try await http.send("POST", "/sessions", json: ["email": email, "password": "keycat789"],
                                              headers: try Self.from(client))
        #expect(newPassword.status == 200, "\(newPassword)")

        let audit = try Self.admin(["audit", "list", "--target", "user:\(id)", "--json"])
        for action in ["user.suspend", "user.reinstate", "user.set_role", "user.reset_password"] {
            #expect(audit.output.contains(action), "\(action): \(audit.output)")
        }
    }

    // MARK: 6. No targeted lock-out

    @Test("an attacker's ten wrong passwords from one client do not stop the owner logging in from another")
    func noTargetedLockOut() async throws {
        let http = try HTTPTestServer.client()
        let owner = Self.address()
        let (email, _) = try await Self.buyer(http, client: owner)
        let attacker = try Self.from(Self.address())
        var statuses: [Int] = []
        for guess in 0..<11 {
            statuses.append(try await http.send("POST", "/sessions", json: ["email": email, "password": "guess\(guess)-wrong"],
                                                headers: attacker).status)
        }
        #expect(statuses.prefix(10).allSatisfy { $0 == 401 } && statuses.last == 429, "\(statuses)")
        let logIn = try await http.send("POST", "/sessions", json: ["email": email, "password": "keycat123"], headers: try Self.from(owner))
        #expect(logIn.status == 200, "\(logIn)")
    }

    // MARK: 7. Enumeration

    @Test("a suspended account answers a wrong password exactly as an unknown email does; sign-up reveals a taken email as documented")
    func enumeration() async throws {
        let http = try HTTPTestServer.client()
        let client = Self.address()
        let (email, buyer) = try await Self.buyer(http, client: client)
        #expect(try Self.admin(["users", "suspend", String(buyer.userID)]).status == 0)
        let suspended = try await http.send("POST", "/sessions", json: ["email": email, "password": "wrong-guess-1"],
                                            headers: try Self.from(Self.address()))
        let unknown = try await http.send("POST", "/sessions", json: ["email": Self.email("nobody"), "password": "wrong-guess-1"],
                                          headers: try Self.from(Self.address()))
        #expect(suspended.status == 401 && suspended.status == unknown.status, "\(suspended) / \(unknown)")
        #expect(suspended.body == unknown.body, "\(suspended) / \(unknown)")
        let taken = try await http.send("POST", "/users", json: ["email": email.uppercased(), "password": "keycat123", "nick": "again"],
                                        headers: try Self.from(Self.address()))
        #expect(taken.status == 409 && taken.code == "duplicate" && taken["field"] as? String == "email", "\(taken)")
    }
}
