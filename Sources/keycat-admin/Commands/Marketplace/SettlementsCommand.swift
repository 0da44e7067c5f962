import Foundation
import KeyCat

/// `keycat-admin settlements`: close a month, and read what each seller is owed.
struct SettlementsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "settlements",
        abstract: "Close a month's settlements, list, show and export them.",
        subcommands: [SettlementsRunCommand.self, SettlementsListCommand.self, SettlementsShowCommand.self,
                      SettlementsExportCommand.self])

    /// `--period`'s month, read before any database is opened.
    static func month(_ text: String) throws(UsageError) -> SettlementPeriod {
        do { return try SettlementPeriod(text) } catch { throw UsageError("--period: \(error.message)", commandPath: "keycat-admin settlements") }
    }
}

/// `keycat-admin settlements run --period YYYY-MM [--dry-run]`.
struct SettlementsRunCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Close a month (Korean time): one settlement per seller; it never changes afterwards.",
        options: [OptionSpec(name: "period", valueName: "YYYY-MM", help: "The month to close; it must have ended (a dry run may name the current month).",
                               isRequired: true)],
        flags: [FlagSpec(name: "dry-run", help: "Show what closing would make, and write nothing; for the current month, so far.")])

    let period: String
    let month: SettlementPeriod
    let dryRun: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        period = try arguments.requiredString("period")
        month = try SettlementsCommand.month(period)
        dryRun = arguments.flag("dry-run")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await dryRun ? context.openForReading() : context.openExisting()
        defer { keycat.close() }
        let settlements = try await keycat.settlements.close(month, dryRun: dryRun, by: context.operatorPrincipal)
        let total = settlements.reduce(Int64(0)) { $0 + $1.payout.won }
        let owed = settlements.reduce(Int64(0)) { $0 + $1.carriedForward.won }
        let ongoing = Date() < month.end
        context.emit(json: .object([("period", .string(period)), ("dry_run", .bool(dryRun)), ("month_ended", .bool(!ongoing)),
                                    ("items", .array(settlements.map(SettlementOutput.json)))]),
                     human: SettlementOutput.table(settlements)
                         + "\(dryRun ? "Would close" : "Closed") \(period)\(ongoing ? " as of now (the month has not ended)" : ""): "
                         + "\(settlements.count) sellers, payouts \(Money(won: total))"
                         + (owed > 0 ? ", \(Money(won: owed)) owed by sellers carried to their next settlements" : "") + ".\n"
                         + "Rates: \(keycat.configuration.commission.summary).")
    }
}

/// `keycat-admin settlements list [--period YYYY-MM] [--seller ID]`.
struct SettlementsListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List settlements, newest first.",
        options: [
            OptionSpec(name: "period", valueName: "YYYY-MM", help: "Only this month's."),
            OptionSpec(name: "seller", valueName: "ID", help: "Only this seller's."),
            OptionSpec(name: "limit", valueName: "N", help: "Settlements per page, 1–100 (default 20)."),
            OptionSpec(name: "cursor", valueName: "C", help: "The next_cursor of the previous page."),
        ])

    let period: SettlementPeriod?
    let seller: UserID?
    let limit: Int
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        period = try arguments.string("period").map { text throws(UsageError) in try SettlementsCommand.month(text) }
        seller = try arguments.id("seller").map(UserID.init)
        limit = try arguments.int("limit", in: PageLimit.range) ?? PageLimit.default.value
        cursor = arguments.string("cursor")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.settlements.list(period: period, seller: seller,
                                                     limit: try PageLimit(limit), cursor: cursor, by: context.operatorPrincipal)
        context.emit(json: .object([("items", .array(page.items.map(SettlementOutput.json))), ("next_cursor", .optional(page.nextCursor))]),
                     human: SettlementOutput.table(page.items) + (page.nextCursor.map { "next cursor: \($0)" } ?? ""))
    }
}

/// `keycat-admin settlements show ID`: one settlement and every entry it adds up.
struct SettlementsShowCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show one settlement with the payment and refund rows it adds up.",
        arguments: [ArgumentSpec(name: "ID", help: "The settlement's id.")])

    let id: SettlementID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = SettlementID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let (settlement, entries) = try await keycat.settlements.settlement(id, by: context.operatorPrincipal)
        var json = SettlementOutput.json(settlement)
        if case let .object(fields) = json { json = .object(fields + [("entries", .array(entries.map(SettlementOutput.json)))]) }
        context.emit(json: json, human: SettlementOutput.table([settlement]) + "\n" + SettlementOutput.entryTable(entries))
    }
}

/// `keycat-admin settlements export --period YYYY-MM --format csv|json`: every entry of a closed
/// month, with its settlement, for the accountant.
struct SettlementsExportCommand: AdminCommand {
    enum Format: String, CaseIterable { case csv, json }

    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export a closed month's settlements and their entries.",
        options: [
            OptionSpec(name: "period", valueName: "YYYY-MM", help: "The month.", isRequired: true),
            OptionSpec(name: "format", valueName: "F", help: "csv or json.", isRequired: true),
        ])

    let month: SettlementPeriod
    let format: Format

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        month = try SettlementsCommand.month(try arguments.requiredString("period"))
        format = try arguments.choice("format", as: Format.self)!
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        var settlements: [Settlement] = []
        var cursor: String?
        repeat {
            let page = try await keycat.settlements.list(period: month, limit: try PageLimit(100), cursor: cursor, by: context.operatorPrincipal)
            settlements += page.items
            cursor = page.nextCursor
        } while cursor != nil
        var rows: [(Settlement, SettlementEntry)] = []
        for settlement in settlements.sorted(by: { $0.id < $1.id }) {
            await rows += try keycat.settlements.settlement(settlement.id, by: context.operatorPrincipal).1.map { (settlement, $0) }
        }
        switch format {
        case .json:
            context.console.write(JSONValue.object([
                ("period", .string(month.description)), ("settlements", .array(settlements.map(SettlementOutput.json))),
                ("entries", .array(rows.map { SettlementOutput.json($0.1) })),
            ]).serialized() + "\n")
        case .csv:
            var csv = CSVWriter(header: ["settlement_id", "seller_id", "entry_id", "kind", "order_id", "shipment_id", "line",
                                         "payment_id", "refund_id", "category", "amount", "commission", "occurred_at"])
            for (settlement, entry) in rows {
                csv.append([.number(settlement.id.rawValue), .number(settlement.sellerID.rawValue), .number(entry.id),
                            .text(entry.kind.rawValue), .number(entry.orderID.rawValue), .number(entry.shipmentID.rawValue),
                            entry.line.map { .number(Int64($0)) } ?? .empty, entry.paymentID.map { .number($0) } ?? .empty,
                            entry.refundID.map { .number($0) } ?? .empty, entry.category.map { .text($0.rawValue) } ?? .empty,
                            .number(entry.amount.won), entry.commission.map { .number($0.won) } ?? .empty,
                            .text(OrderOutput.timestamp(entry.occurredAt))])
            }
            context.console.write(csv.text)
        }
    }
}

/// How settlements look on the command line.
enum SettlementOutput {
    static func json(_ settlement: Settlement) -> JSONValue {
        .object([
            ("id", .int(settlement.id.rawValue)), ("period", .string(settlement.period)), ("seller_id", .int(settlement.sellerID.rawValue)),
            ("sales", .int(settlement.sales.won)), ("delivery_fees", .int(settlement.deliveryFees.won)),
            ("refunds", .int(settlement.refunds.won)), ("commission", .int(settlement.commission.won)),
            ("brought_forward", .int(settlement.broughtForward.won)), ("payout", .int(settlement.payout.won)),
            ("carried_forward", .int(settlement.carriedForward.won)), ("entry_count", .int(Int64(settlement.entryCount))),
        ])
    }

    static func json(_ entry: SettlementEntry) -> JSONValue {
        .object([
            ("id", .int(entry.id)), ("kind", .string(entry.kind.rawValue)), ("seller_id", .int(entry.sellerID.rawValue)),
            ("order_id", .int(entry.orderID.rawValue)), ("shipment_id", .int(entry.shipmentID.rawValue)),
            ("line", entry.line.map { .int(Int64($0)) } ?? .null), ("payment_id", entry.paymentID.map { .int($0) } ?? .null),
            ("refund_id", entry.refundID.map { .int($0) } ?? .null), ("category", .optional(entry.category?.rawValue)),
            ("amount", .int(entry.amount.won)), ("commission", entry.commission.map { .int($0.won) } ?? .null),
            ("occurred_at", .string(OrderOutput.timestamp(entry.occurredAt))),
        ])
    }

    static func table(_ settlements: [Settlement]) -> String {
        var table = TextTable(["ID", "PERIOD", "SELLER", "SALES", "FEES", "REFUNDS", "COMMISSION", "OWED BEFORE", "PAYOUT", "OWED AFTER",
                               "ENTRIES"])
        for s in settlements {
            table.append([String(s.id.rawValue), s.period, String(s.sellerID.rawValue), s.sales.description, s.deliveryFees.description,
                          s.refunds.description, s.commission.description, s.broughtForward.description, s.payout.description,
                          s.carriedForward.description, String(s.entryCount)])
        }
        return table.rendered()
    }

    static func entryTable(_ entries: [SettlementEntry]) -> String {
        var table = TextTable(["ENTRY", "KIND", "ORDER", "SHIPMENT", "LINE", "PAYMENT", "REFUND", "AMOUNT", "COMMISSION"])
        for e in entries {
            table.append([String(e.id), e.kind.rawValue, String(e.orderID.rawValue), String(e.shipmentID.rawValue),
                          e.line.map(String.init) ?? "fee", e.paymentID.map(String.init) ?? "-", e.refundID.map(String.init) ?? "-",
                          e.amount.description, e.commission?.description ?? "-"])
        }
        return table.rendered()
    }
}
