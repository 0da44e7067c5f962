import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator

/// `keycat-admin demo [--db PATH]`: the whole story on a fresh database, narrated step by step.
///
/// The database is `--db`, else `./keycat-demo.db`; `$KEYCAT_DB` is ignored so the demo never
/// touches the database an operator works on. It starts from nothing: an existing demo database
/// at that path (the demo marks the databases it creates) is removed with its `-wal`/`-shm`, its
/// PG simulator file (`.pg.db`) and its images folder (`.images`), and the narration says so.
/// Any other file there — a shop's database, another program's file — is refused and left as it
/// was, unless `--force` is given. The catalog is the demo catalog built into the
/// binary (`seed/catalog.json` when it was built), so the demo runs from any directory. Accounts are hashed with ``passwordIterations`` PBKDF2 iterations (not
/// 600,000) so the story runs in seconds.
struct DemoCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "demo",
        abstract: "Run the whole story on a fresh ./keycat-demo.db (or --db), narrated.",
        discussion: """
            Replaces a previous demo database at that path (with its -wal, -shm, .pg.db and
            .images); any other file there is refused unless --force is given. $KEYCAT_DB is ignored. The demo catalog is built in. With
            --json, prints a summary of the steps instead of the story.
            """,
        flags: [FlagSpec(name: "force", help: "Replace the file at the path even if it is not a demo database.")])

    /// The demo's database when `--db` is not given.
    static let defaultPath = "./keycat-demo.db"
    /// PBKDF2 iterations for the demo's accounts: enough to be a real hash, few enough for
    /// seconds (production: 600,000).
    static let passwordIterations = 10_000

    /// Whether to replace a file the demo did not create.
    let force: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        force = arguments.flag("force")
    }

    func run(_ context: CommandContext) async throws {
        let started = ContinuousClock.now
        let path = context.databasePathOption ?? Self.defaultPath
        if !force { try await Self.refuseUnlessDemo(at: path) }
        let narrator = DemoNarrator(context: context)
        let removed = try Self.removePreviousDemo(at: path)
        narrator.say("KeyCat demo on \(path)"
            + (removed.isEmpty ? ", a new file." : ", starting fresh: removed the previous \(removed.joined(separator: ", ")).")
            + "\nA keyboard shop's day, told through KeyCat's use cases, the way a server would call them.")

        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.passwordIterations = Self.passwordIterations
        configuration.gatewayLog = DiscardingLogSink()
        // The demo shop tracks its parcels with simulated carriers, as it pays through the PG simulator.
        let carriers = SimulatedCarriers()
        configuration.parcelTracker = carriers
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        try await keycat.markAsDemoDatabase()
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "demo.run", target: path, detail: "narrated demo", at: keycat.configuration.clock.now()))
        let story = DemoStory(keycat: keycat, narrator: narrator, operatorConsole: context.principal, carriers: carriers)
        try await story.run()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        let database = "--db \(Self.shellQuoted(path))"
        let followUps = [
            "keycat-admin orders show \(story.order.id) \(database)",
            "keycat-admin orders list \(database)",
            "keycat-admin products list --sort rating \(database)",
            "keycat-admin search explain 저소음 --limit 3 \(database)",
            "keycat-admin reviews list --product \(story.product.id) \(database)",
            "keycat-admin stats --days 7 \(database)",
            "keycat-admin db backup keycat-demo-backup.db \(database)",
        ]
        narrator.say("\nDone in \(String(format: "%.1f", seconds)) s. The database stays for you to explore:\n"
            + followUps.map { "  \($0)" }.joined(separator: "\n"))
        if context.json {
            context.console.print(JSONValue.object([
                ("database", .string(path)),
                ("removed", .array(removed.map(JSONValue.string))),
                ("seconds", .double((seconds * 100).rounded() / 100)),
                ("order_id", .int(story.order.id.rawValue)),
                ("order_status", .string(story.order.status.rawValue)),
                ("product_id", .int(story.product.id.rawValue)),
                ("buyer_id", .int(story.buyer.userID.rawValue)),
                ("seller_id", .int(story.seller.userID.rawValue)),
                ("healthy", .bool(true)),
                ("steps", narrator.json),
            ]).serialized())
        }
    }

    /// Throws unless `path` is free or holds a database an earlier demo created. Reads only.
    static func refuseUnlessDemo(at path: String) async throws {
        let refusal = { (what: String) in
            InputOutputError(message: "demo: \(path) \(what); the demo replaces only databases it created. "
                + "Pick another --db, or give --force to replace it anyway")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            // Files beside a database that is not there are someone's: a Postgres shop keeps its
            // PG simulator file and images folder where a SQLite file would be.
            let beside = candidates(at: path).dropFirst().filter { FileManager.default.fileExists(atPath: $0) }
            guard beside.isEmpty else { throw refusal("does not exist, but \(beside.joined(separator: ", ")) beside it do") }
            return
        }
        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.store.sqlite?.readOnly = true
        configuration.gatewayLog = DiscardingLogSink()
        let keycat: KeyCat
        do {
            keycat = try await KeyCat.open(configuration)
        } catch {
            throw refusal("is not a KeyCat demo database (\(error.message))")
        }
        defer { keycat.close() }
        guard try await keycat.isDemoDatabase() else { throw refusal("is a KeyCat database the demo did not create") }
    }

    /// The database at `path` and everything KeyCat keeps beside it, the database first.
    private static func candidates(at path: String) -> [String] {
        let pg = PGSimulator.storagePath(besideDatabase: path)
        return [path, path + "-wal", path + "-shm", pg, pg + "-wal", pg + "-shm", path + ".images"]
    }

    /// Removes the database at `path` with everything KeyCat keeps beside it; returns what was
    /// there.
    static func removePreviousDemo(at path: String) throws -> [String] {
        var removed: [String] = []
        for candidate in candidates(at: path) where FileManager.default.fileExists(atPath: candidate) {
            do {
                try FileManager.default.removeItem(atPath: candidate)
            } catch {
                throw InputOutputError(message: "cannot remove \(candidate): \(error.localizedDescription)")
            }
            removed.append(candidate)
        }
        return removed
    }

    /// `path` as a shell word.
    static func shellQuoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "./-_".contains($0) } ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
