import KeyCat

/// `keycat-admin sellers approve ID`: the applicant becomes a seller.
struct SellersApproveCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "approve", abstract: "Approve a pending application; the applicant becomes a seller.",
        arguments: [ArgumentSpec(name: "ID", help: "The application id.")])

    let id: SellerApplicationID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = SellerApplicationID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let application = try await keycat.sellers.approve(id, by: context.principal)
        context.emit(json: UserPresenter.json(application),
                     human: "Approved application \(application.id): user \(application.userID) is now a seller.")
    }
}
