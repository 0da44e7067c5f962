/// `keycat-admin orders`: list, show, ship, deliver, cancel and refund orders.
struct OrdersCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "orders",
        abstract: "List, show, ship, deliver, cancel and refund orders.",
        subcommands: [OrdersListCommand.self, OrdersShowCommand.self, OrdersShipCommand.self,
                      OrdersDeliverCommand.self, OrdersCancelCommand.self, OrdersRefundCommand.self,
                      OrdersExportCommand.self])
}
