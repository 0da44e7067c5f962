import KeyCat

/// `keycat-admin sellers reject ID --reason R`.
struct SellersRejectCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reject", abstract: "Reject a pending application with a reason.",
        arguments: [ArgumentSpec(name: "ID", help: "The application id.")],
        options: [OptionSpec(name: "reason", valueName: "R", help: "Why, shown to the applicant.", isRequired: true)])

    let id: SellerApplicationID
    let reason: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = SellerApplicationID(try arguments.id(at: 0, named: "ID"))
        reason = try arguments.requiredString("reason")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let application = try await keycat.sellers.reject(id, reason: reason, by: context.principal)
        context.emit(json: UserPresenter.json(application), human: "Rejected application \(application.id).")
    }
}
