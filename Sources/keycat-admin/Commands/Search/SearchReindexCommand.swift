import KeyCat

/// `keycat-admin search reindex`: indexes every live listing again, online (one batch per
/// transaction, so searches and writes go on meanwhile); what to run when `db check` finds the
/// index and the catalog apart. Written to the audit log as `search.reindex` with the count, as
/// `payments reconcile` records its run.
struct SearchReindexCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reindex", abstract: "Rebuild the search index from the catalog, online.")

    init(parsing arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let progress = context.console.progressReporter(showing: !context.json)
        let count = try await keycat.search.reindex(by: context.principal) { progress("reindexing: \($0) listings") }
        context.console.endProgress()
        try await keycat.auditLog.record(AuditEntry(
            actor: context.actor, action: "search.reindex", target: context.databaseName, detail: "listings=\(count)",
            at: context.now(keycat)))
        context.emit(json: .object([("reindexed", .int(count))]),
                     human: "Reindexed \(count) listing\(count == 1 ? "" : "s").")
    }
}
