import Foundation
import KeyCat
import KeyCatInfrastructure

/// `keycat-admin orders export --since D [--until D] --format csv|json [--output F]`: the orders,
/// payments and refunds of a period for accounting, to stdout or a new owner-only file.
struct OrdersExportCommand: AdminCommand {
    enum Format: String, CaseIterable {
        case csv, json
    }

    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export a period's orders, payments and refunds (CSV or JSON).",
        discussion: """
            Each record falls in [--since, --until) by its own time: an order by when it was placed,
            a payment by when it was recorded, a refund by when it was asked for. Dates are days in
            Asia/Seoul (2026-11-01) or ISO 8601 times. CSV has one row per record, with a `record`
            column (order, payment, refund); JSON has the three lists and each order's lines.
            --output never replaces a file, and creates it readable by its owner only.
            """,
        options: [
            OptionSpec(name: "since", valueName: "D", help: "The period's start, included.", isRequired: true),
            OptionSpec(name: "until", valueName: "D", help: "The period's end, excluded (default: now)."),
            OptionSpec(name: "format", valueName: "F", help: "csv or json.", isRequired: true),
            OptionSpec(name: "output", valueName: "F", help: "Write to this new file instead of stdout."),
        ])

    let since: Date
    let until: Date?
    let format: Format
    let output: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        since = try arguments.date("since")!  // required: the parser checked it is there
        until = try arguments.date("until")
        format = try arguments.choice("format", as: Format.self)!
        output = arguments.string("output")
    }

    /// The refusal of an output path that is taken.
    private static func taken(_ output: String) -> InputOutputError {
        InputOutputError(message: "\(output) already exists; export to a new file")
    }

    func run(_ context: CommandContext) async throws {
        // Refused before anything is read or recorded; the write itself is O_EXCL too, so a file
        // made meanwhile is never replaced.
        if let output, FileManager.default.fileExists(atPath: output) { throw Self.taken(output) }
        let keycat = try await context.openExisting()  // the export is written to the audit log
        defer { keycat.close() }
        let export = try await keycat.exportOrders(since: since, until: until ?? context.now(keycat), by: context.operatorPrincipal)
        let text = format == .csv ? Self.csv(export) : Self.json(export).serialized() + "\n"
        guard let output else {
            context.console.write(text)
            return
        }
        do {
            try OwnerOnlyFile.write(Array(text.utf8), to: output)
        } catch .exists(_) {
            throw Self.taken(output)
        } catch {
            throw InputOutputError(message: "cannot write \(output): \(error)")
        }
        context.console.error("Wrote \(export.orders.count) orders, \(export.payments.count) payments and "
                              + "\(export.refunds.count) refunds to \(output).")
    }

    static func json(_ export: OrdersExport) -> JSONValue {
        .object([
            ("since", .string(OrderOutput.timestamp(export.since))),
            ("until", .string(OrderOutput.timestamp(export.until))),
            ("orders", .array(export.orders.map(OrderOutput.json))),
            ("payments", .array(export.payments.map { payment in
                .object([
                    ("id", .int(payment.id)), ("order_id", .int(payment.orderID.rawValue)), ("imp_uid", .string(payment.impUID)),
                    ("merchant_uid", .string(payment.merchantUID)), ("amount", .int(payment.amount.won)),
                    ("status", .string(payment.status.rawValue)), ("created_at", .string(OrderOutput.timestamp(payment.createdAt))),
                ])
            })),
            ("refunds", .array(export.refunds.map { refund in
                .object([
                    ("id", .int(refund.id)), ("order_id", .int(refund.orderID.rawValue)), ("amount", .int(refund.amount.won)),
                    ("status", .string(refund.status.rawValue)), ("reason", .string(refund.reason)), ("restock", .bool(refund.restock)),
                    ("created_at", .string(OrderOutput.timestamp(refund.createdAt))),
                ])
            })),
        ])
    }

    static func csv(_ export: OrdersExport) -> String {
        var csv = CSVWriter(header: [
            "record", "id", "order_id", "merchant_uid", "buyer_id", "status", "amount", "items_total", "delivery_total",
            "refunded_amount", "imp_uid", "reason", "created_at",
        ])
        for order in export.orders {
            csv.append([.text("order"), .number(order.id.rawValue), .number(order.id.rawValue), .text(order.merchantUID),
                        .number(order.buyerID.rawValue), .text(order.status.rawValue), .number(order.amount.won),
                        .number(order.itemsTotal.won), .number(order.deliveryTotal.won), .number(order.refundedAmount.won),
                        order.impUID.map(CSVWriter.Field.text) ?? .empty, .empty, .text(OrderOutput.timestamp(order.createdAt))])
        }
        for payment in export.payments {
            csv.append([.text("payment"), .number(payment.id), .number(payment.orderID.rawValue), .text(payment.merchantUID),
                        .empty, .text(payment.status.rawValue), .number(payment.amount.won), .empty, .empty, .empty,
                        .text(payment.impUID), .empty, .text(OrderOutput.timestamp(payment.createdAt))])
        }
        for refund in export.refunds {
            csv.append([.text("refund"), .number(refund.id), .number(refund.orderID.rawValue), .empty, .empty,
                        .text(refund.status.rawValue), .number(refund.amount.won), .empty, .empty, .empty, .empty,
                        .text(refund.reason), .text(OrderOutput.timestamp(refund.createdAt))])
        }
        return csv.text
    }
}
