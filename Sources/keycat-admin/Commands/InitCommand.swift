import KeyCat

/// `keycat-admin init`: creates the database, or brings an older one up to date and recreates
/// any index or trigger that has gone missing (e.g. a `seed --synthetic` killed mid-way). The
/// only command that creates a database file.
struct InitCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "init",
        abstract: "Create the database, or migrate it to this version's schema and restore missing indexes.")

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForWriting()
        defer { keycat.close() }
        let version = try await keycat.schemaVersion()
        let applied = keycat.migrationsApplied
        let restored = keycat.schemaObjectsRestored
        let restoredNote = restored.isEmpty ? "" : "; restored \(restored.joined(separator: ", "))"
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "database.init", target: context.databaseName,
            detail: (applied.isEmpty ? "already at schema version \(version)" : "migrated to schema version \(version)")
                + restoredNote,
            at: keycat.configuration.clock.now()))
        context.emit(
            json: .object([
                ("path", .string(context.databaseName)),
                ("schema_version", .int(version)),
                ("migrations_applied", .array(applied.map { .int($0) })),
                ("schema_objects_restored", .array(restored.map { .string($0) })),
            ]),
            human: (applied.isEmpty
                ? "\(context.databaseName) is up to date (schema version \(version))."
                : "Initialised \(context.databaseName) at schema version \(version) (applied \(applied.map(String.init).joined(separator: ", ")))."
            ) + (restored.isEmpty ? "" : "\nRestored \(restored.count) missing index(es)/trigger(s): \(restored.joined(separator: ", ")).")
        )
    }
}
