/// `keycat-admin products`: the catalog.
struct ProductsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "products", abstract: "Browse and manage listings.",
        subcommands: [
            ProductsListCommand.self, ProductsShowCommand.self, ProductsAddCommand.self,
            ProductsUpdateCommand.self, ProductsAdjustStockCommand.self, ProductsStockHistoryCommand.self,
            ProductsDeleteCommand.self, ProductsImportCommand.self, ProductsSweepImagesCommand.self,
        ])
}
