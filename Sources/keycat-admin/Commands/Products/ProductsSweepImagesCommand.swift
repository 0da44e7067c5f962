import KeyCat

/// `keycat-admin products sweep-images [--dry-run]`: deletes the stored images no listing names
/// (``KeyCat/sweepImages(dryRun:)``), as the reconciliation loop does once a day.
struct ProductsSweepImagesCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "sweep-images",
        abstract: "Delete stored images no listing names: replaced by an edit a day ago or more, or of listings withdrawn 30 days ago or more.",
        flags: [FlagSpec(name: "dry-run", help: "Count what would go; change nothing.")])

    let dryRun: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        dryRun = arguments.flag("dry-run")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let report = try await keycat.sweepImages(dryRun: dryRun)
        context.emit(
            json: .object([
                ("dry_run", .bool(report.dryRun)), ("listings_forgotten", .int(Int64(report.listingsForgotten))),
                ("images", .int(Int64(report.images))), ("bytes", .int(report.bytes)),
            ]),
            human: "\(report.dryRun ? "Would delete" : "Deleted") \(report.images) image(s), \(report.bytes) bytes; "
                + "\(report.listingsForgotten) withdrawn listing(s)' images \(report.dryRun ? "would be" : "were") forgotten.")
    }
}
