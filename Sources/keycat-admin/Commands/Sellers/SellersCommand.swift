/// `keycat-admin sellers`: seller applications (사업자 인증).
struct SellersCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "sellers", abstract: "Review seller applications: list, approve, reject.",
        subcommands: [
            SellersListCommand.self, SellersApproveCommand.self, SellersRejectCommand.self,
            SellersRegistryCommand.self,
        ])
}
