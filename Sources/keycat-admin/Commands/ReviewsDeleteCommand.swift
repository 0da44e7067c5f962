import KeyCat

/// `keycat-admin reviews delete ID`: removes a review as an admin; the product's rating is
/// corrected and the deletion audited in the same transaction.
struct ReviewsDeleteCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "delete",
        abstract: "Delete a review (audited); the product's rating is corrected.",
        arguments: [ArgumentSpec(name: "ID", help: "The review to delete.")])

    let review: ReviewID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        review = ReviewID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let deleted = try await keycat.reviews.review(review)
        try await keycat.reviews.delete(review, by: context.principal)
        context.emit(
            json: .object([
                ("deleted", .int(deleted.id.rawValue)),
                ("product_id", .int(deleted.productID.rawValue)),
                ("author_id", .int(deleted.authorID.rawValue)),
                ("rating", .int(deleted.rating)),
            ]),
            human: "Deleted review \(deleted.id) of product \(deleted.productID) by \(deleted.authorNick) (\(deleted.rating) stars).")
    }
}
