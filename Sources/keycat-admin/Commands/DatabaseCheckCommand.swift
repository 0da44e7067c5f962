import KeyCat

/// `keycat-admin db check [--gateway [--window-hours N]]`: SQLite's integrity and foreign-key
/// checks, KeyCat's invariants, the schema against the one KeyCat's migrations build (every
/// table, index and trigger), and the search index against the catalog (a `search` section;
/// `search reindex` mends it); with `--gateway`, also KeyCat's orders against the PG's payments of
/// the window (a `gateway` section). Opens the database read-only and changes nothing, not even
/// an outdated schema or a missing index (`init` restores those). Exits 1 when it finds a
/// problem. The `permissions` section warns of files beside the database that group or others
/// may read, naming the `chmod` to run; warnings alone leave the exit code 0 (the database is
/// not broken, and group access may be deliberate).
struct DatabaseCheckCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Run SQLite's integrity and foreign-key checks, KeyCat's invariants, a schema check and a search index check.",
        options: [GatewayWindowOption.spec],
        flags: [FlagSpec(name: "gateway", help: "Also cross-check orders, payments and refunds against the PG.")])

    /// The window to cross-check with the PG, when asked.
    let gatewayLookback: Double?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        gatewayLookback = arguments.flag("gateway") ? try GatewayWindowOption.seconds(arguments) : nil
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading(allowOutdated: true, withSimulator: gatewayLookback != nil)
        defer { keycat.close() }
        let report = try await keycat.checkHealth()
        let sections: [(String, [String])] = [
            ("integrity", report.integrityProblems),
            ("foreign_keys", report.foreignKeyProblems),
            ("invariants", report.invariantProblems),
            ("schema", report.schemaProblems),
            ("search", report.searchProblems),
        ]
        var human = ""
        for (name, problems) in sections {
            human += problems.isEmpty
                ? "\(name): ok\n"
                : "\(name): \(problems.count) problem(s)\n" + problems.map { "  - \($0)\n" }.joined()
        }
        let warnings = report.permissionWarnings
        human += warnings.isEmpty
            ? "permissions: ok\n"
            : "permissions: \(warnings.count) warning(s)\n" + warnings.map { "  - \($0)\n" }.joined()
        var gateway: (report: GatewayCheckReport, human: String, json: JSONValue)?
        if let gatewayLookback { gateway = try await Self.gatewaySection(keycat, lookback: gatewayLookback) }
        human += gateway?.human ?? ""
        let healthy = report.isHealthy && gateway?.report.isClean != false
        human += healthy ? "The database is healthy." : "The database has problems."
        context.emit(
            json: .object(
                [("path", .string(context.databaseName)), ("healthy", .bool(healthy))]
                    + sections.map { ($0.0, .array($0.1.map(JSONValue.string))) }
                    + [("permissions", .array(warnings.map(JSONValue.string)))]
                    + (gateway.map { [("gateway", $0.json)] } ?? [])),
            human: human)
        if !healthy { throw CommandFailure(exitCode: .domainError) }
    }
}
