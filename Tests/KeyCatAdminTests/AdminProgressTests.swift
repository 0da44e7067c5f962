import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// Long work shows progress on a terminal's stderr, and nothing extra when redirected or with
/// `--json`.
///
/// SQLite only: the synthetic bulk load and the file backup are SQLite's; what is tested is the
/// terminal output.
@Suite("keycat-admin progress")
struct AdminProgressTests {
    /// Runs keycat-admin under `script`, which gives it a pseudo-terminal for stdout and stderr.
    private func onTerminal(_ arguments: [String]) throws -> AdminProcess.Outcome {
        let command = ([AdminProcess.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = try ChildProcess(
            "/usr/bin/script", ["-qec", command, "/dev/null"],
            environment: ["PATH": "/usr/bin:/bin", "USER": "tester", "TERM": "dumb"], standardOutput: .pipe, standardError: .inherit)
        let finished = script.finish()
        return AdminProcess.Outcome(status: finished.termination.exitStatus ?? -1,
                                    standardOutput: String(decoding: finished.output, as: UTF8.self), standardError: "")
    }

    @Test("seed --synthetic, products import and db backup report progress on a terminal only", arguments: [
        (["seed", "--synthetic", "6000"], "seeding: 5000 / 6000"),
        (["products", "import", "CATALOG"], "importing: checked 178 / 178 products"),
        (["db", "backup", "BACKUP"], "backup: "),
        (["payments", "simulate", "--orders", "60"], "simulating: 50/60 orders"),
    ])
    func progress(command: [String], shown: String) throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            let catalog = packageDirectory.appendingPathComponent("seed/catalog.json").path
            let words = { (suffix: String) in
                command.map { $0 == "CATALOG" ? catalog : $0 == "BACKUP" ? directory.appendingPathComponent("b\(suffix)").path : $0 }
                    + ["--db", path]
            }
            let terminal = try onTerminal(words("1"))
            #expect(terminal.status == 0, "\(terminal.standardOutput)")
            #expect(terminal.standardOutput.contains(shown), "\(terminal.standardOutput)")

            let redirected = try AdminProcess.run(words("2"))
            #expect(redirected.status == 0, "\(redirected.standardError)")
            #expect(!redirected.standardError.contains(shown))

            let json = try onTerminal(words("3") + ["--json"])
            #expect(json.status == 0, "\(json.standardOutput)")
            #expect(!json.standardOutput.contains(shown))
        }
    }

    @Test("payments reconcile reports each pass on a terminal only")
    func reconcileProgress() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            #expect(try AdminProcess.run(["init", "--db", path]).status == 0)
            // Paid payments at the PG for the gateway-side pass to walk.
            let simulate = try AdminProcess.run(["payments", "simulate", "--orders", "20", "--decline-rate", "0", "--db", path])
            #expect(simulate.status == 0, "\(simulate.standardError)")

            let terminal = try onTerminal(["payments", "reconcile", "--db", path])
            #expect(terminal.status == 0, "\(terminal.standardOutput)")
            #expect(terminal.standardOutput.contains("reconciling gateway payments: "), "\(terminal.standardOutput)")
            let redirected = try AdminProcess.run(["payments", "reconcile", "--db", path])
            #expect(redirected.status == 0 && !redirected.standardError.contains("reconciling"))
            let json = try onTerminal(["payments", "reconcile", "--db", path, "--json"])
            #expect(json.status == 0 && !json.standardOutput.contains("reconciling"), "\(json.standardOutput)")
        }
    }
}
