import KeyCat

/// `keycat-admin db check`: SQLite's integrity and foreign-key checks plus KeyCat's invariants.
/// Changes nothing, not even an outdated schema. Exits 1 when it finds a problem.
struct DatabaseCheckCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Run SQLite's integrity and foreign-key checks and KeyCat's invariants.")

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) throws {
        let keycat = try context.openExisting(migrate: false)
        defer { keycat.close() }
        let report = try keycat.checkHealth()
        let sections: [(String, [String])] = [
            ("integrity", report.integrityProblems),
            ("foreign_keys", report.foreignKeyProblems),
            ("invariants", report.invariantProblems),
        ]
        var human = ""
        for (name, problems) in sections {
            human += problems.isEmpty
                ? "\(name): ok\n"
                : "\(name): \(problems.count) problem(s)\n" + problems.map { "  - \($0)\n" }.joined()
        }
        human += report.isHealthy ? "The database is healthy." : "The database has problems."
        context.emit(
            json: .object(
                [("path", .string(context.databasePath)), ("healthy", .bool(report.isHealthy))]
                    + sections.map { ($0.0, .array($0.1.map(JSONValue.string))) }),
            human: human)
        if !report.isHealthy { throw CommandFailure(exitCode: .domainError) }
    }
}
