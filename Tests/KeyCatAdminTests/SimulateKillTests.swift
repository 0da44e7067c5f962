import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// `payments simulate` killed with SIGKILL at seeded random moments, again and again on one
/// database: after each kill, `payments reconcile` and `db check` must pass. The count is
/// `KEYCAT_CRASH_KILLS` (default 12, a few seconds in all; the README records a run of 100),
/// the moments are drawn from `KEYCAT_CRASH_SEED` (default 2026).
///
/// On a SQLite file; the same kill on Postgres is `AdminPostgresTests`'.
@Suite("payments simulate killed with SIGKILL, again and again")
struct SimulateKillTests {
    static var kills: Int { ProcessInfo.processInfo.environment["KEYCAT_CRASH_KILLS"].flatMap { Int($0) } ?? 12 }
    static var seed: UInt64 { ProcessInfo.processInfo.environment["KEYCAT_CRASH_SEED"].flatMap { UInt64($0) } ?? 2026 }

    @Test("killed at seeded random moments, each time reconcile succeeds and db check finds the database healthy with every invariant")
    func killedAgainAndAgain() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("killed.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            var generator = SplitMix64(seed: Self.seed)  // the kill moments repeat for a seed
            var killed = 0, unhealthy = 0, violations = 0
            for run in 0..<Self.kills {
                let child = try ChildProcess(
                    AdminProcess.binary.path,
                    ["payments", "simulate", "--db", path, "--orders", "20000", "--seed", "\(run + 1)",
                     "--fault-rate", "0.05", "--timeout-rate", "0.1", "--webhook-duplicate-rate", "0.2"],
                    environment: ["PATH": "/usr/bin:/bin", "USER": "tester"])
                // Anywhere from start-up (opening, creating the run's shop) to deep in the orders.
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...700, using: &generator)))
                child.signal(SIGKILL)
                if child.wait() == .signalled(SIGKILL) { killed += 1 }

                let reconcile = try AdminProcess.run(["payments", "reconcile", "--db", path])
                #expect(reconcile.status == 0, "kill \(run + 1): \(reconcile.standardOutput) \(reconcile.standardError)")
                let check = try AdminProcess.run(["db", "check", "--db", path, "--json"])
                let report = try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any]
                let invariants = (report?["invariants"] as? [Any])?.count ?? -1
                if check.status != 0 || report?["healthy"] as? Bool != true { unhealthy += 1 }
                if invariants != 0 { violations += 1 }
                #expect(check.status == 0 && invariants == 0, "kill \(run + 1): \(check.standardOutput) \(check.standardError)")
            }
            #expect(killed == Self.kills, "only \(killed) of \(Self.kills) runs were still going when killed")
            print("crash test: \(killed) SIGKILLs of payments simulate (seed \(Self.seed)): \(unhealthy) unhealthy databases, \(violations) with invariant violations")
        }
    }
}
