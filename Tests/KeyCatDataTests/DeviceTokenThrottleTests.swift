import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Strangers guessing on many addresses slow an account down, but never its owner: a client
/// that logged in before sends back its device token and has a budget of its own (OWASP's
/// device cookies).
@Suite("Log-in throttling with device tokens")
struct DeviceTokenThrottleTests {
    private static func logIn(_ harness: AccountsHarness, _ password: String, client: String,
                              device: String? = nil) async -> KeyCatError? {
        await keycatError {
            try await harness.accounts.logIn(email: "kim@example.com", password: password, client: client, deviceToken: device)
        }
    }

    /// The device tokens of `count` log-ins to kim's account.
    private static func deviceTokens(_ harness: AccountsHarness, _ count: Int) async throws -> [String] {
        var tokens: [String] = []
        for _ in 0..<count {
            tokens.append(try #require(try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026").deviceToken).token)
        }
        return tokens
    }

    /// How many of 15 wrong guesses from one address, sent with `tokens` in turn, are refused.
    private static func refusedGuesses(_ harness: AccountsHarness, with tokens: [String]) async -> Int {
        var refused = 0
        for attempt in 0..<15 {
            let error = await logIn(harness, "guess-\(attempt)", client: "203.0.113.9", device: tokens[attempt % tokens.count])
            if error?.code == .rateLimited { refused += 1 }
        }
        return refused
    }

    /// 30 wrong passwords from three addresses, then one every 200 ms from ever new addresses.
    private static func attack(_ harness: AccountsHarness, seconds: Int = 120) async {
        for number in 0..<30 { _ = await logIn(harness, "wrong-guess-\(number)", client: "203.0.113.\(number % 3 + 1)") }
        for tick in 0..<(seconds * 5) {
            harness.clock.advance(by: 0.2)
            _ = await logIn(harness, "wrong-guess-\(tick)", client: "2001:db8:\(tick / 256):\(tick % 256)::1")
        }
    }

    @Test("under a guessing attack from rotating addresses, the owner's right password without a device token is slowed; with it, it logs in and changes the password",
          arguments: Backend.allCases)
    func ownerGetsThrough(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            let user = try await harness.signUp()
            let first = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026", client: "192.0.2.1")
            let device = try #require(first.deviceToken)
            #expect(device.expiresAt == harness.clock.now().addingTimeInterval(90 * 24 * 60 * 60))
            await Self.attack(harness)
            // What the attack does to everyone without a device token: the owner included.
            #expect(await Self.logIn(harness, "keycat2026", client: "192.0.2.1")?.code == .rateLimited)
            #expect(await Self.logIn(harness, "keycat2026", client: "198.51.100.1")?.code == .rateLimited)
            // The device token gets the owner in, and hands out a new one.
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026", client: "192.0.2.1",
                                                        deviceToken: device.token)
            let renewed = try #require(pair.deviceToken)
            #expect(renewed.token != device.token)
            // PUT /me/password: signed in, with the device token or without it.
            let changed = try await harness.accounts.changePassword(
                current: "keycat2026", new: "keycat2027", by: user.principal, client: "192.0.2.1", deviceToken: renewed.token)
            #expect(changed.deviceToken != nil)
            let latest = try await harness.accounts.changePassword(current: "keycat2027", new: "keycat2028", by: user.principal,
                                                                   client: "198.51.100.1")
            // A token from before the change counts for nothing now: whoever held it once (the
            // password with it) is a stranger again, under the strangers' budgets.
            #expect(await Self.logIn(harness, "keycat2028", client: "192.0.2.1", device: renewed.token)?.code == .rateLimited)
            #expect(await Self.logIn(harness, "keycat2028", client: "192.0.2.1", device: try #require(latest.deviceToken).token) == nil)
        }
    }

    @Test("wrong passwords with a device token count against that token alone: ten, then it is refused until the window closes",
          arguments: Backend.allCases)
    func deviceBudget(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            let device = try #require(try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026").deviceToken)
            for _ in 1...10 {
                #expect(await Self.logIn(harness, "wrong-guess-1", client: "203.0.113.5", device: device.token)?.code == .invalidCredentials)
            }
            let refused = await Self.logIn(harness, "keycat2026", client: "203.0.113.5", device: device.token)
            #expect(refused?.code == .rateLimited && refused?.context["retry_after"] == "900")
            // The strangers' budgets were not touched: the same address without the token is let in…
            #expect(await Self.logIn(harness, "keycat2026", client: "203.0.113.5") == nil)
            // …as is the token once its window closed.
            harness.clock.advance(by: 900)
            #expect(await Self.logIn(harness, "keycat2026", client: "203.0.113.5", device: device.token) == nil)
        }
    }

    @Test("tokens collected while someone knew the password count for nothing once it is changed: their guesses are a stranger's",
          arguments: Backend.allCases)
    func tokensEndWithThePassword(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            let user = try await harness.signUp()
            // Five log-ins, five tokens, each with a budget of ten of its own while they count.
            let tokens = try await Self.deviceTokens(harness, 5)
            _ = try await harness.accounts.changePassword(current: "keycat2026", new: "keycat2027", by: user.principal)
            // Guesses at the new password with the old tokens share the strangers' ten for this address.
            await #expect(Self.refusedGuesses(harness, with: tokens) == 5, "each of five tokens would have had ten guesses of its own")
        }
    }

    @Test("a device token that is forged, expired, or another account's counts as none", arguments: Backend.allCases)
    func invalidTokens(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            _ = try await harness.signUp("lee@example.com", nick: "lee")
            let own = try #require(try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026").deviceToken)
            let lees = try #require(try await harness.accounts.logIn(email: "lee@example.com", password: "keycat2026").deviceToken)
            var forged = Array(own.token)
            forged[20] = forged[20] == "A" ? "B" : "A"
            // Past the lifetime (and past every window the attack below has not opened yet).
            harness.clock.advance(by: 90 * 24 * 60 * 60)
            await Self.attack(harness, seconds: 10)
            for token in [own.token, lees.token, String(forged), "not-a-token"] {
                #expect(await Self.logIn(harness, "keycat2026", client: "192.0.2.1", device: token)?.code == .rateLimited)
            }
        }
    }

    @Test("a withdrawn account's tokens are not those of a later account with its email, which starts at the same version",
          arguments: Backend.allCases)
    func tokensStayWithTheirAccount(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            // Someone signs up with kim's email, collects tokens and withdraws, freeing it.
            let squatter = try await harness.signUp()
            let tokens = try await Self.deviceTokens(harness, 3)
            try await harness.accounts.withdraw(password: "keycat2026", by: squatter.principal)
            // Kim signs up; the account is new, at the version every new account starts at.
            _ = try await harness.signUp(password: "kims-own-2026")
            // The old tokens' guesses share the strangers' ten for this address.
            await #expect(Self.refusedGuesses(harness, with: tokens) == 5, "each of three tokens would have had ten guesses of its own")
        }
    }

    @Test("wrong current passwords in a password change count against the account's sessions, not the strangers' log-in budgets",
          arguments: Backend.allCases)
    func passwordChangeBudget(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            let user = try await harness.signUp()
            let change = { (current: String) in
                await keycatError {
                    try await harness.accounts.changePassword(current: current, new: "keycat2027", by: user.principal, client: "203.0.113.5")
                }?.code
            }
            for _ in 1...10 { #expect(await change("wrong-guess-1") == .invalidCredentials) }
            #expect(await change("wrong-guess-1") == .rateLimited)
            #expect(await change("keycat2026") == .rateLimited)
            // Log-in from that address is a budget of its own.
            #expect(await Self.logIn(harness, "keycat2026", client: "203.0.113.5") == nil)
            harness.clock.advance(by: 900)
            #expect(await change("keycat2026") == nil)
        }
    }

    @Test("a withdrawal's wrong passwords share the password change's budget: a stolen access token guesses ten times in all",
          arguments: Backend.allCases)
    func withdrawalBudget(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            let user = try await harness.signUp()
            let withdraw = { (password: String) in
                await keycatError { try await harness.accounts.withdraw(password: password, by: user.principal, client: "203.0.113.5") }?.code
            }
            for _ in 1...5 { #expect(await withdraw("wrong-guess-1") == .invalidCredentials) }
            for _ in 1...5 {
                #expect(await keycatError {
                    try await harness.accounts.changePassword(current: "wrong-guess-2", new: "keycat2027", by: user.principal, client: "203.0.113.5")
                }?.code == .invalidCredentials)
            }
            #expect(await withdraw("keycat2026") == .rateLimited)
            await #expect(try harness.users.find(user.id)?.isActive == true)
            harness.clock.advance(by: 900)
            #expect(await withdraw("keycat2026") == nil)
            await #expect(try harness.users.find(user.id)?.isActive == false)
        }
    }

    @Test("a device budget under one, or a device token living under a minute or over a year, is a validation error",
          arguments: [(0, 3_600.0), (10, 59.0), (10, 367.0 * 24 * 60 * 60)])
    func invalidPolicy(attempts: Int, lifetime: Double) {
        let error = keycatError {
            try LogInThrottlePolicy(window: 900, attemptsPerAccountAndClient: 10, attemptsPerClient: 100, attemptsPerAccount: 30,
                                    attemptsPerDevice: attempts, deviceTokenLifetime: lifetime)
        }
        #expect(error?.code == .validation)
    }
}
