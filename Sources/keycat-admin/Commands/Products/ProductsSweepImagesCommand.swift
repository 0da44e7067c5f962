import KeyCat

/// `keycat-admin products sweep-images [--retention-days N] [--dry-run]`: deletes the stored
/// images no listing names (``CatalogService/sweepImages(retention:dryRun:by:)``), as the
/// reconciliation loop does once a day; for shops that reconcile from cron instead.
struct ProductsSweepImagesCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "sweep-images",
        abstract: "Delete stored images no listing names (stored a day ago or more), and those of listings withdrawn N days ago or more.",
        options: [OptionSpec(name: "retention-days", valueName: "N",
                             help: "How long a withdrawn listing keeps its images: 0 to 365 days (default 30, the library's default).")],
        flags: [FlagSpec(name: "dry-run", help: "Count what would go; change nothing.")])

    let retentionDays: Int
    let dryRun: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        retentionDays = try arguments.int("retention-days", in: 0...365) ?? 30
        dryRun = arguments.flag("dry-run")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let report = try await keycat.catalog.sweepImages(retention: Double(retentionDays) * 86_400, dryRun: dryRun,
                                                          by: context.principal)
        context.emit(
            json: .object([
                ("dry_run", .bool(report.dryRun)), ("listings_forgotten", .int(Int64(report.listingsForgotten))),
                ("images", .int(Int64(report.images))), ("bytes", .int(report.bytes)),
            ]),
            human: "\(report.dryRun ? "Would delete" : "Deleted") \(report.images) image(s), \(report.bytes) bytes; "
                + "\(report.listingsForgotten) withdrawn listing(s)' images \(report.dryRun ? "would be" : "were") forgotten.")
    }
}
