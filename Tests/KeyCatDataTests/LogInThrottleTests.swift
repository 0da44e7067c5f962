import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCatData

/// Failed log-ins are throttled per email and per client, before any password is hashed.
@Suite("Log-in throttling")
struct LogInThrottleTests {
    /// The outcome of one log-in attempt, comparable across attempts.
    private static func attempt(_ accounts: AccountService, _ email: String, _ password: String,
                                client: String? = nil) async -> KeyCatError? {
        await keycatError { try await accounts.logIn(email: email, password: password, client: client) }
    }

    @Test("twenty failed log-ins for one account: ten are checked, the next ten refused with a retry time",
          arguments: Backend.allCases)
    func twentyFailures(backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            var outcomes: [KeyCatError?] = []
            for _ in 1...20 { outcomes.append(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1")) }
            #expect(outcomes.prefix(10).allSatisfy { $0?.code == .invalidCredentials })
            #expect(outcomes.suffix(10).allSatisfy { $0?.code == .rateLimited })
            #expect(outcomes.last??.context["retry_after"] == "900")
            // The right password is refused too while the window is open…
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026")?.code == .rateLimited)
            harness.clock.advance(by: 600)
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026")?.context["retry_after"] == "300")
            // …and accepted once it closed.
            harness.clock.advance(by: 300)
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026") == nil)
        }
    }

    @Test("an unknown email and a wrong password get the same answers, throttled or not", arguments: Backend.allCases)
    func unknownAndWrongAlike(backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            var known: [KeyCatError?] = []
            for _ in 1...12 { known.append(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1")) }
            var unknown: [KeyCatError?] = []
            for _ in 1...12 { unknown.append(await Self.attempt(harness.accounts, "nobody@example.com", "wrong-guess-1")) }
            #expect(known.map { $0?.code } == unknown.map { $0?.code })
            #expect(known.map { $0?.message } == unknown.map { $0?.message })
            #expect(known.map { $0?.context } == unknown.map { $0?.context })
            #expect(known.last??.code == .rateLimited)
        }
    }

    @Test("a refused attempt hashes nothing; a checked one hashes once, for unknown and known emails alike",
          arguments: Backend.allCases)
    func refusedAttemptsCostNoHashing(_ backend: Backend) async throws {
        let counter = CountingHasher.Count()
        try await withAccounts(backend, throttle: .standard, hasher: { CountingHasher(base: $0, count: counter) }) { harness in
            _ = try await harness.signUp()
            let afterSignUp = counter.value
            for email in ["kim@example.com", "nobody@example.com"] {
                for _ in 1...10 { _ = await Self.attempt(harness.accounts, email, "wrong-guess-1") }
            }
            #expect(counter.value - afterSignUp == 20)
            for email in ["kim@example.com", "nobody@example.com"] {
                for _ in 1...50 { _ = await Self.attempt(harness.accounts, email, "wrong-guess-1") }
            }
            #expect(counter.value - afterSignUp == 20)
        }
    }

    @Test("a successful log-in clears the account's count", arguments: Backend.allCases)
    func successResets(backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            for _ in 1...9 { _ = await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1") }
            #expect(await Self.attempt(harness.accounts, "KIM@example.com", "keycat2026") == nil)
            var again: [KeyCatError?] = []
            for _ in 1...10 { again.append(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1")) }
            #expect(again.allSatisfy { $0?.code == .invalidCredentials })
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1")?.code == .rateLimited)
        }
    }

    @Test("one client guessing across many emails runs out of its own budget; another client does not",
          arguments: Backend.allCases)
    func clientBudget(backend: Backend) async throws {
        let policy = try LogInThrottlePolicy(window: 60, attemptsPerAccountAndClient: 10, attemptsPerClient: 5, attemptsPerAccount: 10)
        try await withAccounts(backend, throttle: policy) { harness in
            _ = try await harness.signUp()
            var sprayed: [KeyCatError?] = []
            for number in 1...6 {
                sprayed.append(await Self.attempt(harness.accounts, "user\(number)@example.com", "wrong-guess-1", client: "203.0.113.9"))
            }
            #expect(sprayed.prefix(5).allSatisfy { $0?.code == .invalidCredentials })
            #expect(sprayed.last??.code == .rateLimited)
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026", client: "203.0.113.9")?.code == .rateLimited)
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026", client: "198.51.100.7") == nil)
        }
    }

    @Test("an attacker's wrong passwords from one client lock out that client, not the owner on another",
          arguments: Backend.allCases)
    func noTargetedLockOut(backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            var attacker: [KeyCatError?] = []
            for _ in 1...11 { attacker.append(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1", client: "203.0.113.66")) }
            #expect(attacker.prefix(10).allSatisfy { $0?.code == .invalidCredentials })
            #expect(attacker.last??.code == .rateLimited && attacker.last??.context["retry_after"] == "900")
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026", client: "198.51.100.7") == nil)
        }
    }

    @Test("past the account's budget, guesses from many clients are slowed by a doubling delay, not refused for the window",
          arguments: Backend.allCases)
    func accountSlowsDown(backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            // 30 guesses from 30 addresses: each client's own budget is untouched.
            for number in 1...30 {
                #expect(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1", client: "203.0.113.\(number)")?.code
                        == .invalidCredentials)
            }
            // The 31st waits a second after the 30th, the 32nd two after the 31st, and so on.
            var waits: [String?] = []
            for (number, wait) in [1.0, 2, 4, 8].enumerated() {
                let refused = await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1", client: "198.51.100.\(number)")
                waits.append(refused?.context["retry_after"])
                harness.clock.advance(by: wait)
                #expect(await Self.attempt(harness.accounts, "kim@example.com", "wrong-guess-1", client: "198.51.100.\(number)")?.code
                        == .invalidCredentials)
            }
            #expect(waits == ["1", "2", "4", "8"])
            // The owner, on a client of their own, waits seconds, then gets in.
            let owner = await Self.attempt(harness.accounts, "kim@example.com", "keycat2026", client: "192.0.2.1")
            #expect(owner?.code == .rateLimited && owner?.context["retry_after"] == "16")
            harness.clock.advance(by: 16)
            #expect(await Self.attempt(harness.accounts, "kim@example.com", "keycat2026", client: "192.0.2.1") == nil)
        }
    }

    @Test("the slow-down's delay doubles up to its longest")
    func delays() {
        let slowDown = ThrottleSlowDown(firstDelay: 1, maximumDelay: 60)
        #expect((0...9).map { slowDown.delay(excess: $0) } == [0, 1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(slowDown.delay(excess: 10_000) == 60)
    }

    @Test("sign-ups are counted per client once the form is valid; other clients and unnamed callers are not held",
          arguments: Backend.allCases)
    func signUpThrottle(backend: Backend) async throws {
        let policy = try SignUpThrottlePolicy(window: 3_600, attemptsPerClient: 3)
        try await withAccounts(backend, signUpThrottle: policy) { harness in
            let signUp = { (number: Int, client: String?) in
                await keycatError {
                    try await harness.accounts.signUp(SignUpForm(email: "user\(number)@example.com", password: "keycat2026", nick: "user"),
                                                      client: client)
                }
            }
            // An invalid form costs nothing and is not counted.
            #expect(await keycatError { try await harness.accounts.signUp(SignUpForm(email: "bad", password: "keycat2026", nick: "x"),
                                                              client: "203.0.113.9") }?.code == .validation)
            for number in 1...3 { #expect(await signUp(number, "203.0.113.9") == nil) }
            let refused = await signUp(4, "203.0.113.9")
            #expect(refused?.code == .rateLimited && refused?.context["retry_after"] == "3600")
            #expect(await signUp(5, "198.51.100.9") == nil)
            #expect(await signUp(6, nil) == nil)
            harness.clock.advance(by: 3_600)
            #expect(await signUp(7, "203.0.113.9") == nil)
        }
    }

    @Test("an unknown email, a suspended account and a wrong password each cost one hashing at the current parameters",
          arguments: Backend.allCases)
    func equalCost(_ backend: Backend) async throws {
        let counter = CountingHasher.Count()
        try await withAccounts(backend, throttle: .standard, hasher: { CountingHasher(base: $0, count: counter) }) { harness in
            _ = try await harness.signUp()
            let suspended = try await harness.signUp("lee@example.com", nick: "lee")
            _ = try await harness.accounts.suspend(suspended.id, by: .operatorConsole("root"))
            for email in ["kim@example.com", "nobody@example.com", "lee@example.com"] {
                let before = counter.value
                #expect(await Self.attempt(harness.accounts, email, "wrong-guess-1", client: "203.0.113.1")?.code == .invalidCredentials)
                #expect(counter.value - before == 1, "\(email)")
            }
            let before = counter.value
            #expect(await Self.attempt(harness.accounts, "lee@example.com", "keycat2026", client: "203.0.113.1")?.code == .forbidden)
            #expect(counter.value - before == 1)
        }
    }

    @Test("a policy out of range is a validation error", arguments: [
        (0.0, 10, 100, 30, 1.0), (90_000.0, 10, 100, 30, 1.0), (60.0, 0, 100, 30, 1.0), (60.0, 10, 0, 30, 1.0),
        (60.0, 10, 100, 0, 1.0), (60.0, 10, 100, 30, 0.0), (60.0, 10, 100, 30, 120.0),
    ])
    func invalidPolicy(window: Double, pair: Int, client: Int, account: Int, firstDelay: Double) {
        #expect(keycatError {
            try LogInThrottlePolicy(window: window, attemptsPerAccountAndClient: pair, attemptsPerClient: client,
                                    attemptsPerAccount: account, firstDelay: firstDelay)
        }?.code == .validation)
        #expect(keycatError { try SignUpThrottlePolicy(window: window, attemptsPerClient: client) }?.code
                == (window == 60 && client > 0 ? nil : .validation))
    }

    /// SQLite only: the sweep's plan is SQLite's `EXPLAIN QUERY PLAN`.
    @Test("closed windows are swept from the table as new attempts come in")
    func sweep() async throws {
        let policy = try LogInThrottlePolicy(window: 60, attemptsPerAccountAndClient: 3, attemptsPerClient: 100, attemptsPerAccount: 3)
        try await withAccounts(.sqlite, throttle: policy) { harness in
            // Each attempt without a client counts against two keys: the (email, no client) pair and the email.
            for number in 1...25 { _ = await Self.attempt(harness.accounts, "user\(number)@example.com", "wrong-guess-1") }
            let rows = { try await harness.database!.read { try $0.queryOne("SELECT count(*) FROM login_attempts") { $0.int(0) } } }
            #expect(try await rows() == 50)
            harness.clock.advance(by: 61)
            for number in 26...28 { _ = await Self.attempt(harness.accounts, "user\(number)@example.com", "wrong-guess-1") }
            // Each admission sweeps up to ten closed windows.
            #expect(try await rows() == 50 - 30 + 6)
            let plan = try await harness.database!.read {
                try $0.query("EXPLAIN QUERY PLAN SELECT rowid FROM login_attempts WHERE window_start <= 0 LIMIT 10") { $0.string(3) }
            }
            #expect(plan.joined().contains("login_attempts_by_window"))
        }
    }
}

/// A password hasher that counts how often it hashes or verifies.
private struct CountingHasher: PasswordHasher {
    final class Count: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    let base: PBKDF2PasswordHasher
    let count: Count

    func hash(_ password: String) async throws(KeyCatError) -> String {
        count.add()
        return try await base.hash(password)
    }

    func verify(_ password: String, against stored: String) async -> Bool {
        count.add()
        return await base.verify(password, against: stored)
    }

    func needsRehash(_ stored: String) -> Bool { base.needsRehash(stored) }
}
