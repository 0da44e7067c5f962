import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// An IPv6 client is a /64, not an address: a host picks any of its 2⁶⁴ addresses at will.
@Suite("Throttling IPv6 clients by their /64")
struct ClientNetworkThrottleTests {
    @Test("sign-ups from any address of one IPv6 /64 share one budget; another /64 and each IPv4 address have their own",
          arguments: Backend.allCases)
    func signUps(_ backend: Backend) async throws {
        let policy = try SignUpThrottlePolicy(window: 3_600, attemptsPerClient: 3)
        try await withAccounts(backend, signUpThrottle: policy) { harness in
            var number = 0
            let signUp = { (client: String) -> KeyCatError.Code? in
                number += 1
                let form = SignUpForm(email: "user\(number)@example.com", password: "keycat2026", nick: "user")
                return await keycatError { try await harness.accounts.signUp(form, client: client) }?.code
            }
            for client in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:a:b:c:d"] { #expect(await signUp(client) == nil) }
            #expect(await signUp("2001:db8:1:2:ffff::99") == .rateLimited)
            #expect(await signUp("2001:db8:1:3::1") == nil)
            for _ in 1...3 { #expect(await signUp("203.0.113.9") == nil) }
            #expect(await signUp("203.0.113.9") == .rateLimited)
            #expect(await signUp("203.0.113.10") == nil)
        }
    }

    @Test("log-ins from any address of one IPv6 /64 share one (email, client) budget; another /64 and each IPv4 address have their own",
          arguments: Backend.allCases)
    func logIns(_ backend: Backend) async throws {
        try await withAccounts(backend, throttle: .standard) { harness in
            _ = try await harness.signUp()
            let logIn = { (password: String, client: String) in
                await keycatError { try await harness.accounts.logIn(email: "kim@example.com", password: password, client: client) }?.code
            }
            for host in 1...10 { #expect(await logIn("wrong-guess-1", "2001:db8:1:2::\(host)") == .invalidCredentials) }
            #expect(await logIn("keycat2026", "2001:db8:1:2:abcd::1") == .rateLimited)
            #expect(await logIn("keycat2026", "2001:db8:1:3::1") == nil)
            for _ in 1...10 { #expect(await logIn("wrong-guess-1", "203.0.113.1") == .invalidCredentials) }
            #expect(await logIn("keycat2026", "203.0.113.1") == .rateLimited)
            #expect(await logIn("keycat2026", "203.0.113.2") == nil)
        }
    }
}
