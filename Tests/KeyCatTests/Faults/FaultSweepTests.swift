import Foundation
@testable import KeyCat
import KeyCatTestSupport
import Testing

/// The suites that drive the fault VFS, whose state is global: one test at a time.
///
/// SQLite only: the fault VFS is a SQLite VFS under the file. A full disk on Postgres is
/// `FullDisk`'s `disk_full` trigger (`RefundDurabilityTests`, `WebhookFullDiskPostgresTests`).
@Suite("Injected I/O faults and power loss", .serialized)
struct FaultInjectionTests {}

extension FaultInjectionTests {
    /// Each write use case, run once per possible failure: for every kind of fault, the 1st,
    /// 2nd, 3rd… operation of that kind fails, until a run hits no fault at all.
    @Suite("Every write use case under every injected I/O failure")
    struct Sweep {
        typealias Fault = FaultVFS.Fault

        /// How many runs of a use case hit a fault, by kind, and how they ended.
        struct Tally: CustomStringConvertible {
            var runs: [Fault: Int] = [:]
            /// Runs that threw a storage error and left nothing done.
            var failedUndone = 0
            /// Runs that threw, yet the operation was complete afterwards (it committed before
            /// the failure, or reconciliation or the PG's redelivery completed it).
            var failedDone = 0
            /// Runs whose fault SQLite absorbed: the use case returned, and it was done.
            var absorbed = 0

            mutating func count(_ fault: Fault, failed: Bool, done: Bool) {
                runs[fault, default: 0] += 1
                if !failed { absorbed += 1 } else if done { failedDone += 1 } else { failedUndone += 1 }
            }

            var description: String {
                let kinds = Fault.allCases.map { "\($0) \(runs[$0, default: 0])" }.joined(separator: ", ")
                return "\(runs.values.reduce(0, +)) injected failures (\(kinds)): \(failedUndone) storage errors with nothing done, "
                    + "\(failedDone) storage errors with the operation complete, \(absorbed) absorbed by SQLite"
            }
        }

        /// What one faulted run did.
        struct Outcome {
            var hit: Bool
            var error: (any Error)?
        }

        @Test("a failed read, write, sync or truncation, or a full disk, at every point: a storage error, a database that reopens clean, all or nothing",
              arguments: WriteUseCase.allCases)
        func sweep(_ useCase: WriteUseCase) async throws {
            try await withTemporaryDirectory { root in
                let fixture = root.appendingPathComponent("fixture", isDirectory: true)
                try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
                var shop: FaultShop?
                if useCase == .migration {
                    try OutdatedDatabase.build(at: fixture.appendingPathComponent(FaultShop.fileName).path)
                } else {
                    shop = try await FaultShop.build(in: fixture)
                }
                func copy(_ name: String) throws -> String { try FaultShop.copy(fixture, to: root, name) }
                // The two states a run may leave: the operation not done, and done.
                let before = try await settledContents(of: try copy("before"), useCase)
                let afterPath = try copy("after")
                let afterRun = try await attempt(useCase, shop, path: afterPath, fault: nil, nth: 0)
                #expect(afterRun.error == nil, "the use case fails with no fault injected: \(String(describing: afterRun.error))")
                let after = try await settledContents(of: afterPath, useCase)
                #expect(before != after, "the use case changed nothing")

                var tally = Tally()
                for fault in Fault.allCases {
                    var nth = 1
                    while nth < 10_000 {
                        let path = try copy("\(fault)-\(nth)")
                        let outcome = try await attempt(useCase, shop, path: path, fault: fault, nth: nth)
                        guard outcome.hit else {
                            #expect(outcome.error == nil, "\(fault) #\(nth): failed with no fault hit: \(String(describing: outcome.error))")
                            break
                        }
                        if let error = outcome.error {
                            #expect((error as? KeyCatError)?.code == .storage, "\(fault) #\(nth): \(error)")
                        }
                        // A webhook that failed is delivered again, as the PG does until it gets a 2xx.
                        let redelivered = useCase == .webhook && outcome.error != nil
                        let contents = try await settledContents(of: path, useCase, redeliveringTo: redelivered ? shop : nil)
                        // Nothing done is allowed only after a failure the PG does not repeat.
                        let mayBeUndone = outcome.error != nil && !redelivered
                        #expect(contents == after || (contents == before && mayBeUndone),
                                "\(useCase), \(fault) #\(nth): neither all nor nothing: \(Self.difference(contents, before, after))")
                        tally.count(fault, failed: outcome.error != nil, done: contents == after)
                        try FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
                        nth += 1
                    }
                }
                print("fault sweep: \(useCase): \(tally)")
            }
        }

        /// Opens KeyCat on `path` through the fault VFS, runs `useCase` with `fault` armed on the
        /// `nth` operation of its kind (none: a clean run), and closes it with the disk freed.
        func attempt(_ useCase: WriteUseCase, _ shop: FaultShop?, path: String, fault: Fault?, nth: Int) async throws -> Outcome {
            FaultVFS.reset()
            defer { FaultVFS.reset() }
            let configuration = FaultShop.configuration(path, vfs: FaultVFS.name)
            let arm = { if let fault { FaultVFS.arm(fault, nth: nth) } }
            var error: (any Error)?
            if useCase == .migration {
                arm()
                let keycat: Result<KeyCat, KeyCatError>
                do { keycat = .success(try await KeyCat.open(configuration)) } catch { keycat = .failure(error) }
                FaultVFS.disarm()
                switch keycat {
                case let .success(keycat): keycat.close()
                case let .failure(failure): error = failure
                }
            } else {
                let keycat = try await KeyCat.open(configuration)
                arm()
                do { try await useCase.run(on: keycat, shop) } catch let failure { error = failure }
                FaultVFS.disarm()
                keycat.close()
            }
            return Outcome(hit: FaultVFS.failures > 0, error: error)
        }

        /// Reopens the database at `path` as a new process would (through the fault VFS, disarmed:
        /// a pass-through that skips the real fsyncs), expects `db check` to be clean, settles
        /// what the PG knows when the use case needs it (and with `redeliveringTo`, handles the
        /// webhook again), and returns what the database holds. A migration is compared before
        /// the reopen, which finishes it.
        func settledContents(of path: String, _ useCase: WriteUseCase, redeliveringTo shop: FaultShop? = nil) async throws -> [String] {
            if useCase == .migration {
                let contents = try DatabaseContents.lines(at: path, schemaOnly: true)
                let keycat = try await KeyCat.open(FaultShop.configuration(path, vfs: FaultVFS.name))
                defer { keycat.close() }
                let report = try await keycat.checkHealth()
                #expect(report.isHealthy, "\(useCase): \(report)")
                return contents
            }
            let keycat = try await KeyCat.open(FaultShop.configuration(path, vfs: FaultVFS.name))
            defer { keycat.close() }
            let report = try await keycat.checkHealth()
            #expect(report.isHealthy, "\(useCase): \(report)")
            if let shop { try await WriteUseCase.webhook.run(on: keycat, shop) }
            guard useCase.settlesByReconciliation else { return try await DatabaseContents.lines(keycat) }
            _ = try await keycat.checkout.reconcile()
            let gateway = try await keycat.checkGateway()
            #expect(gateway.isClean, "\(gateway.problems)")
            // Reconciliation completes a refund the PG made under its own name, and a key whose
            // answer could not be stored stays claimed until its lease ends: what must match is
            // the refund, the order and the PG, not who finished it.
            return try await DatabaseContents.lines(keycat).compactMap { line in
                if line.hasPrefix("idempotency_keys:") { return nil }
                guard line.hasPrefix("audit_log:") else { return line }
                let fields = line.split(separator: "|")
                return "audit_log: \(fields[2])|\(fields[3])"
            }
        }

        /// The lines that differ from each expected state, for a failure message.
        static func difference(_ contents: [String], _ before: [String], _ after: [String]) -> String {
            let set = Set(contents)
            return "beyond before: \(set.subtracting(before).sorted()); beyond after: \(set.subtracting(after).sorted())"
        }
    }
}
