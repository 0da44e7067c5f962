/// `keycat-admin reviews`: read and moderate product reviews.
struct ReviewsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "reviews",
        abstract: "List a product's reviews or delete one.",
        subcommands: [ReviewsListCommand.self, ReviewsDeleteCommand.self])
}
