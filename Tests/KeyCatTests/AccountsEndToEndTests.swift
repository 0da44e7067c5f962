import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCat

/// Every use case here runs on both stores (``TestStore``), each Postgres run in a schema of its
/// own; the HTTP status table needs no store.
@Suite("Accounts through the KeyCat API")
struct AccountsEndToEndTests {
    @Test("a buyer signs up, applies, is approved by an operator, and acts as a seller after refreshing", arguments: TestStore.allCases)
    func sellerStory(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let (keycat, clock) = (shop.keycat, shop.clock)
            let console = Principal.operatorConsole("root")
            try await keycat.loadBusinessRegistry(
                [BusinessRegistryEntry(number: try BusinessRegistrationNumber("220-81-62517"),
                                       status: BusinessStatus(taxServiceCode: "01"))],
                by: console)
            let user = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            let session = try await keycat.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let principal = try await keycat.accounts.authenticate(accessToken: session.accessToken)
            #expect(principal == Principal(userID: user.id, role: .buyer))
            let application = try await keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "2208162517", representativeName: "김키캣",
                                      openingDate: try CalendarDate(iso8601: "2021-04-01")),
                by: principal)
            #expect(application.status == .pending)
            await #expect(try keycat.sellers.listApplications(status: .pending, by: console).items == [application])
            _ = try await keycat.sellers.approve(application.id, by: console)
            clock.advance(by: 60)
            let renewed = try await keycat.accounts.refresh(session.refreshToken)
            await #expect(try keycat.accounts.authenticate(accessToken: renewed.accessToken).role == .seller)
            let actions = try await keycat.auditLog.recent(limit: 10).map(\.action)
            #expect(actions == ["seller.approve", "business_registry.load"])
        }
    }

    @Test("an operator creating a user is audited with the new id; a refused create leaves no trace", arguments: TestStore.allCases)
    func createUserAudited(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let console = Principal.operatorConsole("root")
            let form = SignUpForm(email: "seller@keycat.kr", password: "keycat2026", nick: "shop")
            let user = try await keycat.accounts.createUser(form, role: .seller, by: console)
            #expect(user.role == .seller)
            let duplicate = await keycatError { try await keycat.accounts.createUser(form, role: .seller, by: console) }
            #expect(duplicate?.code == .duplicate)
            let entries = try await keycat.auditLog.recent(limit: 10)
            #expect(entries.count == 1)
            #expect(entries.first?.action == "user.create")
            #expect(entries.first?.target == "user:\(user.id)")
            #expect(entries.first?.actor == "cli:root")
            await #expect(try keycat.accounts.listUsers(by: console).items == [user])
        }
    }

    @Test("an operator's reads of other people's accounts are recorded, by whom, whose and what, never the email looked up; a person's own are not",
          arguments: TestStore.allCases)
    func operatorReadsRecorded(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let kim = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            let lee = try await keycat.accounts.signUp(SignUpForm(email: "lee@example.com", password: "keycat2026", nick: "lee"))
            let admin = try await shop.user(.admin)
            func reads() async throws -> [AuditEntry] {
                try await keycat.auditLog.recent(limit: 100).filter { $0.action == "personal_data.read" }.reversed()
            }
            // The person's own profile, and a buyer's, record nothing.
            let kimself = Principal(userID: kim.id, role: .buyer)
            _ = try await keycat.accounts.profile(of: kim.id, by: kimself)
            #expect(try await reads().isEmpty)

            _ = try await keycat.accounts.findUser(email: " KIM@example.com", by: admin)
            _ = try await keycat.accounts.findUser(email: "nobody@example.com", by: admin)
            _ = try await keycat.accounts.profile(of: lee.id, by: admin)
            _ = try await keycat.accounts.profile(of: admin.userID, by: admin)
            _ = try await keycat.accounts.listUsers(nick: "lee", by: shop.operatorConsole)
            let recorded = try await reads()
            #expect(recorded.map(\.target) == ["user:\(kim.id)", "users", "user:\(lee.id)", "users"], "\(recorded)")
            #expect(recorded.map(\.detail) == ["look-up by email", "look-up by email, none found", "profile", "list by nick: \(lee.id)"])
            #expect(recorded.prefix(3).allSatisfy { $0.actor == admin.auditActor } && recorded[3].actor == shop.operatorConsole.auditActor)
            #expect(!recorded.contains { $0.detail.contains("@") || $0.target.contains("@") })
        }
    }

    @Test("two KeyCat instances on one database (as two processes would be): one refresh wins", arguments: TestStore.allCases)
    func concurrentRefreshAcrossInstances(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let second = try await KeyCat.open(keycat.configuration)
            defer { second.close() }
            _ = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            let token = try await keycat.accounts.logIn(email: "kim@example.com", password: "keycat2026").refreshToken
            let instances = [keycat.accounts, second.accounts]
            let successes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<16 {
                    let accounts = instances[index % 2]
                    group.addTask { (try? await accounts.refresh(token)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(successes == 1)
        }
    }

    @Test("the stored registry keeps a business's representative and opening date, and an application must give both",
          arguments: TestStore.allCases)
    func registeredOwner(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let opened = try CalendarDate(year: 2019, month: 5, day: 10)
            let file = try BusinessRegistryFile.decode(Data("314-81-10008,01,홍길동,20190510\n2208162517,01\n".utf8))
            #expect(try await shop.keycat.loadBusinessRegistry(file.entries, by: shop.operatorConsole) == 2)
            let stranger = try await shop.user(.buyer)
            let refused = try await shop.keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "3148110008", representativeName: "김키캣", openingDate: opened), by: stranger)
            #expect(refused.status == .rejected && refused.reason == BusinessRegistryEntry.unconfirmedReason)
            let owner = try await shop.user(.buyer)
            let pending = try await shop.keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "3148110008", representativeName: "홍길동", openingDate: opened), by: owner)
            #expect(pending.status == .pending)
            // A line without them leaves the applicant's word to the operator, as before.
            let other = try await shop.user(.buyer)
            #expect(try await shop.keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "2208162517", representativeName: "아무개", openingDate: opened), by: other).status == .pending)
            // A refresh of the statuses alone keeps them: the check stays on.
            _ = try await shop.keycat.loadBusinessRegistry([BusinessRegistryEntry(number: try BusinessRegistrationNumber("3148110008"), status: .active)],
                                                          by: shop.operatorConsole)
            #expect(try await shop.keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "3148110008", representativeName: "김키캣", openingDate: opened), by: stranger).status == .rejected)
        }
    }

    @Test("only an admin loads the business registry", arguments: TestStore.allCases)
    func registryLoadForbidden(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            let entry = BusinessRegistryEntry(number: try BusinessRegistrationNumber("220-81-62517"), status: .active)
            await #expect(throws: KeyCatError(.forbidden, "a buyer may not load the business registry", context: ["role": "buyer"])) {
                try await keycat.loadBusinessRegistry([entry], by: Principal(userID: UserID(1), role: .buyer))
            }
        }
    }

    @Test("tokens signed before a reopen still verify: the key lives in the database", arguments: TestStore.allCases)
    func keyPersists(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let keycat = shop.keycat
            _ = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            let token = try await keycat.accounts.logIn(email: "kim@example.com", password: "keycat2026").accessToken
            let second = try await KeyCat.open(keycat.configuration)
            defer { second.close() }
            await #expect(try second.accounts.authenticate(accessToken: token).userID == UserID(1))
        }
    }

    @Test("a server's own signing key is used instead of the stored one", arguments: TestStore.allCases)
    func serverKey(_ store: TestStore) async throws {
        let key = try SecretKey(bytes: [UInt8](repeating: 3, count: 32))
        try await TestShop.with(store, configure: { $0.tokenSigningKey = key }) { shop in
            let keycat = shop.keycat
            _ = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: "keycat2026", nick: "kim"))
            let token = try await keycat.accounts.logIn(email: "kim@example.com", password: "keycat2026").accessToken
            var other = keycat.configuration
            other.tokenSigningKey = nil
            let stored = try await KeyCat.open(other)
            defer { stored.close() }
            await #expect(throws: KeyCatError.self) { try await stored.accounts.authenticate(accessToken: token) }
            #expect(!"\(keycat.configuration)".contains("3, 3, 3"))
            var dumped = ""
            dump(keycat.configuration, to: &dumped)
            #expect(!dumped.contains("3, 3, 3") && !dumped.contains("- 3"))
        }
        #expect(throws: KeyCatError.self) { try SecretKey(bytes: [1, 2, 3]) }
    }

    @Test("the account errors map to the app's HTTP statuses", arguments: [
        (KeyCatError.Code.validation, 400), (.invalidCredentials, 401), (.invalidToken, 401), (.forbidden, 403),
        (.duplicate, 409), (.illegalTransition, 409), (.notFound, 404), (.refreshTokenExpired, 400),
        (.accessTokenExpired, 401), (.notOwner, 403), (.invalidCursor, 400),
    ])
    func httpStatuses(code: KeyCatError.Code, status: Int) {
        #expect(KeyCatError(code, "x").httpStatus == status)
    }

    @Test("no password, token or key appears in any error a session can produce", arguments: TestStore.allCases)
    func noSecretsInErrors(_ store: TestStore) async throws {
        let key = try SecretKey(bytes: Array("server-signing-key-0123456789-abcdef".utf8))
        try await TestShop.with(store, configure: { $0.tokenSigningKey = key }) { shop in
            let (keycat, clock) = (shop.keycat, shop.clock)
            let password = "Sup3rSecretPassw0rd"
            _ = try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: password, nick: "kim"))
            let pair = try await keycat.accounts.logIn(email: "kim@example.com", password: password)
            var errors: [any Error] = []
            func capture(_ body: () async throws -> some Any) async { do { _ = try await body() } catch { errors.append(error) } }
            await capture { try await keycat.accounts.signUp(SignUpForm(email: "kim@example.com", password: password, nick: "kim")) }
            await capture { try await keycat.accounts.signUp(SignUpForm(email: "x@example.com", password: "\(password)\(password)\(password)", nick: "x")) }
            await capture { try await keycat.accounts.logIn(email: "kim@example.com", password: password + "x") }
            await capture { try await keycat.accounts.authenticate(accessToken: pair.accessToken + "x") }
            await capture { try await keycat.accounts.authenticate(accessToken: pair.refreshToken) }
            _ = try await keycat.accounts.refresh(pair.refreshToken)
            await capture { try await keycat.accounts.refresh(pair.refreshToken) }
            clock.advance(by: 3600)
            await capture { try await keycat.accounts.authenticate(accessToken: pair.accessToken) }
            #expect(errors.count == 7)
            let secrets = [password, pair.accessToken, pair.refreshToken, "server-signing-key", String(pair.accessToken.split(separator: ".")[2])]
            for error in errors {
                let mapped = HTTPErrorResponse(error)
                let texts = ["\(error)", String(reflecting: error), String(decoding: mapped.body, as: UTF8.self)]
                for text in texts {
                    for secret in secrets { #expect(!text.contains(secret), "\(text)") }
                }
            }
            #expect(!pair.description.contains(pair.accessToken) && !pair.description.contains(pair.refreshToken))
            #expect(!SignUpForm(email: "a@b.co", password: password, nick: "kim").description.contains(password))
        }
    }
}
