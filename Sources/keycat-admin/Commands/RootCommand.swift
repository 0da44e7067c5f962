/// The top of the command tree.
struct RootCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "keycat-admin",
        abstract: "Operate a KeyCat database: catalog, sellers, orders, payments and checks.",
        discussion: """
            Exit codes: 0 ok, 1 a domain error (not found, conflict, validation…), 2 usage,
            3 storage or I/O.
            """,
        subcommands: [
            InitCommand.self, SeedCommand.self, DemoCommand.self, UsersCommand.self, SellersCommand.self, ProductsCommand.self,
            SearchCommand.self,
            ReviewsCommand.self, OrdersCommand.self, ShipmentsCommand.self, ReturnsCommand.self, SettlementsCommand.self, PaymentsCommand.self, WebhooksCommand.self, StatsCommand.self, AuditCommand.self,
            DatabaseCommand.self,
        ])
}
