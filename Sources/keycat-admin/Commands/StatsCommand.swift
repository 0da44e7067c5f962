import KeyCat

/// `keycat-admin stats [--days N] [--top N] [--seller ID]`: sales and refunds per day (calendar
/// days in Asia/Seoul), orders by status, and the top products by revenue and by rating — of the
/// whole shop, or of one seller's share.
struct StatsCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Sales and refunds per day, orders by status, top products by revenue and rating.",
        discussion: """
            Days are calendar days in Asia/Seoul, today included. Sales are what orders paid on
            a day were paid (before refunds); refunds count on the day they completed. The
            table leaves out days without either; --json lists every day. With --seller, a
            seller's share: their lines and delivery fees as the settlement ledger has them (orders
            paid before the marketplace migration are not counted), the orders holding their
            parcels, their products.
            """,
        options: [
            OptionSpec(name: "days", valueName: "N", help: "How many days back, 1–365 (default 30)."),
            OptionSpec(name: "top", valueName: "N", help: "Products in each top list, 1–100 (default 5)."),
            OptionSpec(name: "seller", valueName: "ID", help: "Only this seller's share."),
        ])

    let days: Int
    let top: Int
    let seller: UserID?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        days = try arguments.int("days", in: StatisticsService.dayRange) ?? 30
        top = try arguments.int("top", in: 1...100) ?? 5
        seller = try arguments.id("seller").map(UserID.init)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let report = try await keycat.statistics.report(days: days, top: top, seller: seller, by: context.principal)
        context.emit(json: StatsPresenter.json(report), human: StatsPresenter.text(report))
    }
}
