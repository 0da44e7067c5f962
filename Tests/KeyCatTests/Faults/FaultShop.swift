import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure
import KeyCatPGSimulator

/// The shop every fault run starts from, built once per test and copied fresh for each run:
/// a seller's listing with stock, an order paid at the PG but not yet confirmed, and an order
/// paid and confirmed. The PG simulator's file sits beside it and is copied with it, so the PG
/// remembers exactly what this copy of the shop does.
struct FaultShop: Sendable {
    static let fileName = "shop.db"
    static let instant = Date(timeIntervalSince1970: 1_767_225_600)

    /// The folder holding the prepared files.
    let directory: URL
    let seller: Principal
    let buyer: Principal
    let productID: ProductID
    /// Paid at the PG, not yet confirmed (for confirm and the webhook).
    let unconfirmed: Order
    let unconfirmedImpUID: String
    /// Paid and confirmed (for refund and review).
    let paid: Order

    var path: String { directory.appendingPathComponent(Self.fileName).path }

    /// A configuration for the database at `path`, with the clock stopped at one instant (so a
    /// run and its repeat write the same rows), through `vfs` when given.
    static func configuration(_ path: String, vfs: String? = nil) -> KeyCat.Configuration {
        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.clock = TestClock(instant)
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        configuration.gatewayInitialBackoff = .milliseconds(1)
        configuration.store.sqlite?.readerCount = 1
        configuration.toggleRateLimit = nil
        configuration.store.sqlite?.vfs = vfs
        // Each run is a process of its own, over before the next opens the file: no request can
        // be racing the reconciliation that settles what a faulty run left.
        configuration.refundInFlightWindow = 0
        return configuration
    }

    /// Builds the shop in `directory` and closes it.
    static func build(in directory: URL) async throws -> FaultShop {
        let path = directory.appendingPathComponent(fileName).path
        let keycat = try await KeyCat.open(configuration(path))
        defer { keycat.close() }
        let admin = Principal.operatorConsole("tester")
        func user(_ role: Role, _ name: String) async throws -> Principal {
            let user = try await keycat.accounts.createUser(
                SignUpForm(email: "\(name)@example.com", password: "keycat123", nick: name), role: role, by: admin)
            return Principal(userID: user.id, role: role)
        }
        let seller = try await user(.seller, "seller")
        let buyer = try await user(.buyer, "buyer")
        let product = try await keycat.catalog.create(TestShop.draft(price: 10_000) { $0.stock = 5 }, for: seller.userID, by: seller)
        guard let simulator = keycat.paymentSimulator else { throw KeyCatError(.internalError, "no PG simulator") }
        let request = CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)]))
        let unconfirmed = try await keycat.checkout.checkout(request, by: buyer)
        let payment = try simulator.pay(merchantUID: unconfirmed.merchantUID, cardNumber: PGTestCard.success.number)
        let paidOrder = try await keycat.checkout.checkout(request, by: buyer)
        let paidPayment = try simulator.pay(merchantUID: paidOrder.merchantUID, cardNumber: PGTestCard.success.number)
        _ = try await keycat.checkout.confirm(paidOrder.id, impUID: paidPayment.impUID, by: buyer)
        // Delivered and its receipt confirmed, so its buyer may review it.
        let console = Principal.operatorConsole("fault-shop")
        _ = try await keycat.orders.ship(paidOrder.id, carrier: "CJ대한통운", trackingNumber: "123456789012", by: console)
        var paid = try await keycat.orders.deliver(paidOrder.id, by: console)
        for parcel in paid.shipments { paid = try await keycat.orders.confirmReceipt(of: parcel.id, by: buyer) }
        return FaultShop(directory: directory, seller: seller, buyer: buyer, productID: product.id, unconfirmed: unconfirmed,
                         unconfirmedImpUID: payment.impUID, paid: paid)
    }

    /// Copies the prepared files in `directory` (database and PG simulator; both closed, so no
    /// `-wal`) into a new folder `name` under `root`, and returns the database's path there.
    static func copy(_ directory: URL, to root: URL, _ name: String) throws -> String {
        let target = root.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.copyItem(at: directory.appendingPathComponent(file), to: target.appendingPathComponent(file))
        }
        return target.appendingPathComponent(Self.fileName).path
    }
}

/// Every rows-and-schema fact of a database that a use case may change, as sorted lines, with
/// the random parts of merchant UIDs and event ids blanked, so two runs of the same operation
/// compare equal.
enum DatabaseContents {
    /// What `keycat`'s database holds.
    static func lines(_ keycat: KeyCat, schemaOnly: Bool = false) async throws -> [String] {
        try await keycat.database.read { try lines(on: $0, schemaOnly: schemaOnly) }
    }

    /// What the file at `path` holds, read without KeyCat (which would migrate it).
    static func lines(at path: String, schemaOnly: Bool = false) throws -> [String] {
        var configuration = SQLiteConfiguration()
        configuration.readOnly = true
        let connection = try SQLiteConnection(path: path, configuration: configuration)
        defer { connection.close() }
        return try lines(on: connection, schemaOnly: schemaOnly)
    }

    /// The schema's objects, and the rows of every table (with `schemaOnly`, of
    /// `schema_migrations` only).
    static func lines(on connection: SQLiteConnection, schemaOnly: Bool) throws -> [String] {
            var lines = try connection.query(
                "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"
            ) { $0.string(0) }
            let tables = try connection.query(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") { $0.string(0) }
            for table in tables where !schemaOnly || table == "schema_migrations" {
                try connection.forEach("SELECT * FROM \"\(table)\"") { row in
                    var columns: [String] = []
                    for column in 0..<row.columnCount {
                        columns.append(row.isNull(column) ? "NULL" : row.string(column))
                    }
                    if table == "schema_migrations" { columns.removeLast() }  // applied_at: the wall clock
                    // A settlement entry's row id follows which lands first, the refund or the
                    // reconciliation's payment of the other order; what it says does not.
                    if table == "settlement_entries" { columns.removeFirst() }
                    // The same for an event's position: the refund's and the payment's events
                    // are told in the order they landed.
                    if table == "events" { columns.removeFirst() }
                    lines.append("\(table): " + columns.joined(separator: "|"))
                }
            }
            return lines.map(blankMerchantUIDs).sorted()
    }

    private static func blankMerchantUIDs(_ line: String) -> String {
        line.replacing(/kc_[0-9a-f]{32}/, with: "kc_…").replacing(/evt_[0-9a-f]{32}/, with: "evt_…")
    }
}
