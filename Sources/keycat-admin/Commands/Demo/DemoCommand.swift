import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator

/// `keycat-admin demo [--db PATH]`: the whole story on a fresh database, narrated step by step.
///
/// The database is `--db`, else `./keycat-demo.db`; `$KEYCAT_DB` is ignored so the demo never
/// touches the database an operator works on. It starts from nothing: an existing file at that
/// path is removed with its `-wal`/`-shm`, its PG simulator file (`.pg.db`) and its images
/// folder (`.images`), and the narration says so. The catalog is `seed/catalog.json` from the
/// current directory. Accounts are hashed with ``passwordIterations`` PBKDF2 iterations (not
/// 600,000) so the story runs in seconds.
struct DemoCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "demo",
        abstract: "Run the whole story on a fresh ./keycat-demo.db (or --db), narrated.",
        discussion: """
            Removes any database at that path first (with its -wal, -shm, .pg.db and .images);
            $KEYCAT_DB is ignored. Reads seed/catalog.json from the current directory. With
            --json, prints a summary of the steps instead of the story.
            """)

    /// The demo's database when `--db` is not given.
    static let defaultPath = "./keycat-demo.db"
    /// The catalog, relative to the current directory.
    static let catalogPath = "seed/catalog.json"
    /// PBKDF2 iterations for the demo's accounts: enough to be a real hash, few enough for
    /// seconds (production: 600,000).
    static let passwordIterations = 10_000

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) throws {
        let started = ContinuousClock.now
        let path = context.databasePathOption ?? Self.defaultPath
        let catalog = URL(fileURLWithPath: Self.catalogPath)
        guard FileManager.default.isReadableFile(atPath: catalog.path) else {
            throw InputOutputError(message: "cannot read \(Self.catalogPath) (run the demo from the KeyCat folder, where seed/ is)")
        }
        let narrator = DemoNarrator(context: context)
        let removed = try Self.removePreviousDemo(at: path)
        narrator.say("KeyCat demo on \(path)"
            + (removed.isEmpty ? ", a new file." : ", starting fresh: removed the previous \(removed.joined(separator: ", ")).")
            + "\nA keyboard shop's day, told through KeyCat's use cases, the way a server would call them.")

        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.passwordIterations = Self.passwordIterations
        configuration.gatewayLog = DiscardingLogSink()
        let keycat = try KeyCat.open(configuration)
        defer { keycat.close() }
        try keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "demo.run", target: path, detail: "narrated demo", at: keycat.configuration.clock.now()))
        let story = DemoStory(keycat: keycat, narrator: narrator, operatorConsole: context.principal, catalogFile: catalog)
        try story.run()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        let database = "--db \(Self.shellQuoted(path))"
        let followUps = [
            "keycat-admin orders show \(story.order.id) \(database)",
            "keycat-admin orders list \(database)",
            "keycat-admin products list --sort rating \(database)",
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

    /// Removes the database at `path` with everything KeyCat keeps beside it; returns what was
    /// there.
    static func removePreviousDemo(at path: String) throws -> [String] {
        let pg = PGSimulator.storagePath(besideDatabase: path)
        let candidates = [path, path + "-wal", path + "-shm", pg, pg + "-wal", pg + "-shm", path + ".images"]
        var removed: [String] = []
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate) {
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
