import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// `keycat-admin webhooks`: the endpoints' whole life from the command line, every change in
/// the audit log, on every store.
@Suite("keycat-admin webhooks")
struct AdminWebhooksTests {
    private func json(_ database: AdminDatabase, _ arguments: [String], environment: [String: String] = [:]) throws -> [String: Any] {
        let outcome = try AdminProcess.run(arguments + ["--db", database.argument, "--json"], environment: environment,
                                           currentDirectory: database.directory)
        #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
        return try jsonObject(outcome.standardOutput)
    }

    @Test("add (secret printed once), list, disable, enable, rotate-secret, deliveries, replay, remove; each change audited",
          arguments: TestStore.allCases)
    func lifecycle(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let refused = try database.run(["webhooks", "add", "http://127.0.0.1:9/", "--events", "*", "--db", database.argument])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("https"))

            let added = try json(database, ["webhooks", "add", "http://127.0.0.1:9/hooks", "--events", "order.paid,shipment.*",
                                            "--description", "warehouse"],
                                 environment: ["KEYCAT_WEBHOOK_ALLOWED_HOSTS": "localhost, 127.0.0.1"])
            let secret = try #require(added["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            let id = try #require(added["id"] as? Int)
            #expect(added["events"] as? String == "order.paid,shipment.*")

            let listed = try json(database, ["webhooks", "list"])
            let items = try #require(listed["items"] as? [[String: Any]])
            #expect(items.count == 1)
            #expect(items[0]["secret"] == nil)
            #expect(!String(describing: listed).contains(secret))

            #expect(try json(database, ["webhooks", "disable", "\(id)"])["enabled"] as? Bool == false)
            #expect(try json(database, ["webhooks", "enable", "\(id)"])["enabled"] as? Bool == true)
            let rotated = try json(database, ["webhooks", "rotate-secret", "\(id)"])
            #expect((rotated["secret"] as? String).map { $0 != secret && $0.hasPrefix("whsec_") } == true)
            #expect(rotated["previous_secret_expires_at"] is String)
            #expect((try json(database, ["webhooks", "deliveries", "--failed"])["items"] as? [Any])?.isEmpty == true)

            let unknown = try database.run(["webhooks", "replay", "--event", "evt_nothing", "--db", database.argument])
            #expect(unknown.status == 1)
            let usage = try database.run(["webhooks", "replay", "--db", database.argument])
            #expect(usage.status == 2)
            #expect(try json(database, ["webhooks", "replay", "--since", "2026-01-01"])["deliveries"] as? Int == 0)

            #expect(try json(database, ["webhooks", "remove", "\(id)"])["removed"] as? Bool == true)
            let gone = try database.run(["webhooks", "disable", "\(id)", "--db", database.argument])
            #expect(gone.status == 1)

            let audit = try database.run(["audit", "list", "--db", database.argument, "--json", "--limit", "50"])
            for action in ["webhook.endpoint.add", "webhook.endpoint.disable", "webhook.endpoint.enable",
                           "webhook.endpoint.rotate_secret", "webhook.replay", "webhook.endpoint.remove"] {
                #expect(audit.standardOutput.contains(action), "\(action)")
            }
            #expect(!audit.standardOutput.contains(secret))
        }
    }

    @Test("a secret of one's own is read from standard input with --secret -, and refused as an argument")
    func secretOnStandardInput() async throws {
        try await withAdminDatabase(.sqlite) { database in
            let secret = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()
            let arguments = ["webhooks", "add", "https://hooks.example.com/keycat", "--events", "*", "--db", database.argument, "--json"]
            let written = try database.run(arguments + ["--secret", secret])
            #expect(written.status == 2 && written.standardError.contains("ps"), "\(written.standardError)")
            #expect(!written.standardError.contains(secret))
            let empty = try database.run(arguments + ["--secret", "-"])
            #expect(empty.status == 1 && empty.standardError.contains("standard input"), "\(empty.standardError)")

            let added = try database.run(arguments + ["--secret", "-"], input: secret + "\n")
            #expect(added.status == 0, "\(added.standardError)")
            #expect(try jsonObject(added.standardOutput)["secret"] as? String == secret)
            let id = try #require(try jsonObject(added.standardOutput)["id"] as? Int)
            // Piped in, nothing is prompted for.
            #expect(added.standardError.isEmpty, "\(added.standardError)")

            let next = "whsec_" + Data((32..<64).map { UInt8($0) }).base64EncodedString()
            let rotated = try database.run(["webhooks", "rotate-secret", "\(id)", "--secret", "-", "--db", database.argument, "--json"],
                                           input: next + "\n")
            #expect(rotated.status == 0, "\(rotated.standardError)")
            #expect(try jsonObject(rotated.standardOutput)["secret"] as? String == next)
        }
    }
}
