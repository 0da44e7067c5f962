import Foundation
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

/// `keycat-admin --db postgres://…` (or `$KEYCAT_DB`) runs the same commands on Postgres.
@Suite("keycat-admin on Postgres",
       .enabled(if: PostgresTestServer.isConfigured || PostgresTestServer.isCI, Comment(rawValue: PostgresTestServer.skipReason)))
struct AdminPostgresTests {
    /// The test server's URL with `search_path` set to `schema`, as an operator would pass it.
    static func url(schema: String) throws -> String {
        let url = try PostgresTestServer.requireURL()
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D" + schema
    }

    @Test("init, users, db check, stats and backup work on a Postgres URL; the password never shows")
    func commands() async throws {
        try await withPostgresSchema { postgres in
            let url = try Self.url(schema: postgres.searchPath ?? "public")
            try withTemporaryDirectory { directory in
                func admin(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> AdminProcess.Outcome {
                    try AdminProcess.run(arguments, input: input, environment: environment, currentDirectory: directory)
                }
                let initialised = try admin(["init", "--db", url])
                #expect(initialised.status == 0, "\(initialised.standardError)")
                #expect(!initialised.standardOutput.contains("keycat_test@") || initialised.standardOutput.contains("***"))
                #expect(try admin(["init", "--db", url]).standardOutput.contains("up to date"))

                let created = try admin(["users", "create", "--db", url, "--email", "lee@example.com", "--nick", "이키캣"],
                                        input: "keycat2026\n")
                #expect(created.status == 0, "\(created.standardError)")
                let listed = try admin(["users", "list", "--json"], environment: ["KEYCAT_DB": url])
                #expect(listed.status == 0 && listed.standardOutput.contains("lee@example.com"), "\(listed.standardError)")

                let seeded = try admin(["seed", "--db", url, "--file", AdminCatalogTests.seedFile, "--json"])
                #expect(seeded.status == 0 && seeded.standardOutput.contains("\"products_created\":"), "\(seeded.standardError)")
                let again = try admin(["seed", "--db", url, "--file", AdminCatalogTests.seedFile, "--json"])
                #expect(again.standardOutput.contains("\"products_created\":0"), "\(again.standardOutput)")
                let page = try admin(["products", "list", "--db", url, "--json", "--limit", "5", "--sort", "price-asc"])
                #expect(page.status == 0 && page.standardOutput.contains("next_cursor"), "\(page.standardError)")

                let check = try admin(["db", "check", "--db", url])
                #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
                #expect(try admin(["stats", "--db", url]).status == 0)

                let backup = try admin(["db", "backup", directory.appendingPathComponent("copy.db").path, "--db", url])
                #expect(backup.status == 0, "\(backup.standardError)")
                for outcome in [initialised, created, listed, check, backup] {
                    #expect(!(outcome.standardOutput + outcome.standardError).contains(":keycat_test@"))
                }
            }
        }
    }

    /// Starts `keycat-admin` with `arguments` in `directory`, output discarded.
    static func start(_ arguments: [String], in directory: URL, errors: URL? = nil) throws -> ChildProcess {
        try ChildProcess(AdminProcess.binary.path, arguments, environment: ["PATH": "/usr/bin:/bin", "USER": "tester"],
                         currentDirectory: directory.path, standardError: errors.map { .file($0.path) } ?? .null)
    }

    @Test("three payments simulate processes race for one shared catalog on Postgres with faults; then a SIGKILL: reconcile and db check stay clean")
    func simulateAcrossProcesses() async throws {
        try await withPostgresSchema { postgres in
            let url = try Self.url(schema: postgres.searchPath ?? "public")
            try await withTemporaryDirectory { directory in
                #expect(try AdminProcess.run(["init", "--db", url], currentDirectory: directory).status == 0)
                let simulate = ["payments", "simulate", "--db", url, "--catalog", "shared", "--products", "4", "--stock", "40",
                                "--buyers", "6", "--fault-rate", "0.05", "--timeout-rate", "0.05",
                                "--webhook-duplicate-rate", "0.2"]
                let runs = try (1...3).map { try Self.start(simulate + ["--orders", "60", "--seed", "\($0)"], in: directory) }
                for run in runs {
                    // Exit 0: every invariant held and db check found the database healthy.
                    #expect(run.wait() == .exited(0))
                }

                let errors = directory.appendingPathComponent("killed.stderr")
                // A catalog of its own, stocked for most of its 20,000 orders: the shared one is sold
                // out by now, and a run of out-of-stock checkouts would end before the kill.
                let long = ["payments", "simulate", "--db", url, "--orders", "20000", "--seed", "9", "--fault-rate", "0.05",
                            "--timeout-rate", "0.05", "--webhook-duplicate-rate", "0.2"]
                let killed = try Self.start(long, in: directory, errors: errors)
                try await Task.sleep(for: .milliseconds(400))
                killed.signal(SIGKILL)
                let ending = killed.wait()
                #expect(ending == .signalled(SIGKILL),
                        "\(ending) before the kill: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
                let reconcile = try AdminProcess.run(["payments", "reconcile", "--db", url], currentDirectory: directory)
                #expect(reconcile.status == 0, "\(reconcile.standardError)")
                let check = try AdminProcess.run(["db", "check", "--db", url, "--json"], currentDirectory: directory)
                #expect(check.status == 0, "\(check.standardOutput) \(check.standardError)")
                #expect(check.standardOutput.contains("\"invariants\":[]"), "\(check.standardOutput)")
            }
        }
    }
}

