import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatPGSimulator

/// `keycat-bench concurrency [--db postgres://…] [--latency-ms N] [--orders N] [--json]`:
/// checkout + confirm throughput (orders a second) with 1, 4, 16 and 64 buyers at once, each on
/// a product of its own and all on one hot product, on a SQLite file and, with `--db`, on
/// Postgres, side by side; on Postgres also the round trips one order takes. With
/// `--latency-ms`, Postgres is reached through a ``LatencyRelay`` delivering each chunk that long
/// after it arrived, each way, as a database on another host would be.
///
/// Each buyer is a task in one task group, as a server's request handlers are. KeyCat's async
/// use cases wait for the database on its storage threads (one per connection), so as many
/// orders are in flight as there are connections, whatever the cores.
///
/// On Postgres each cell also runs the raw baseline (``RawPostgresCommerce``: the same rows
/// written by libpq directly, one statement a round trip) with the same buyers, each on a
/// connection and a thread of its own, and prints KeyCat's orders/s over the raw's. Every store gets a fresh
/// database (a temporary file; a ``BenchSchema``, dropped
/// afterwards), 16 products of 1,000,000 units and 16 buyers, and `--orders` orders (default
/// 400) per cell after a warm-up. A failed order (a write that lost its race more times than
/// Postgres's retries allow) is counted, not retried.
struct ConcurrencyBench {
    let options: KeycatBench.Options
    let directory: URL
    let log: (String) -> Void

    static let buyerCounts = [1, 4, 16, 64]

    struct Cell {
        var store: String
        var buyers: Int
        var hot: Bool
        var ordersPerSecond: Double
        var failed: Int
        /// Requests sent to Postgres and waited for, per order (nil on SQLite).
        var roundTrips: Double?
        /// Statements sent per order (Postgres only).
        var statements: Double?
        /// The 99th percentile of a plain task's wait for a thread of the global executor while
        /// the buyers ran (``LatencyProbe``).
        var plainTaskWait: Duration
        /// The raw baseline's orders/s, failures and round trips per order (Postgres only).
        var raw: (ordersPerSecond: Double, failed: Int, roundTrips: Double)?
    }

    func run() async throws {
        let idleWait = await LatencyProbe.idle()
        var cells: [Cell] = []
        cells += try await measure(store: "sqlite", configuration: KeyCat.Configuration(
            databasePath: directory.appendingPathComponent("concurrency.db").path))
        if let url = options.databaseURL {
            let benchSchema = try BenchSchema(in: url)
            defer { benchSchema.drop() }
            let schema = benchSchema.name
            log("postgres: in schema \(schema), dropped after the run")
            var target = url
            if let latency = options.latencyMilliseconds {
                target = try LatencyRelay.relaying(postgresURL: url, delay: .milliseconds(latency)).url
                log("postgres: through a relay delaying each chunk \(latency) ms each way")
            }
            var configuration = KeyCat.Configuration(.postgres(
                url: try PostgresBench.url(target, searchPath: schema),
                filesBeside: directory.appendingPathComponent("concurrency-pg.db").path))
            // A connection for every buyer, so the pool is not what limits them.
            configuration.store.postgres?.maximumConnections = Self.buyerCounts.max()! + 1
            let rawURL = try PostgresBench.url(target, searchPath: schema)
            cells += try await measure(store: "postgres", configuration: configuration) { buyers in
                try (0..<buyers).map { _ in try RawPostgres(url: rawURL) }
            }
        }
        print(options.json ? json(cells, idleWait: idleWait) : table(cells, idleWait: idleWait))
    }

    /// KeyCat's cells on one store; with `rawConnections` (which opens that many raw
    /// connections), the raw baseline's beside them.
    private func measure(store: String, configuration base: KeyCat.Configuration,
                         rawConnections: ((Int) throws -> [RawPostgres])? = nil) async throws -> [Cell] {
        let simulator = try PGSimulator()
        let keycat = try await KeyCat.open(KeycatBench.configuration(base, simulator: simulator, tokenKey: SecureRandom.bytes(count: 32)))
        defer { keycat.close() }
        let admin = Principal.operatorConsole("bench")
        let seller = try await keycat.accounts.createUser(
            SignUpForm(email: "seller@example.com", password: "keycat2026", nick: "셀러"), role: .seller, by: admin).principal.userID
        let draft = ProductDraft(
            kind: .commercial, category: .keyboard, title: "동시 키보드", content: "벤치마크용",
            pricing: Pricing(regularPrice: Money(won: 129_000), salePrice: Money(won: 119_000)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 1_000_000)
        let count = Self.buyerCounts.max()!
        var products: [ProductID] = []
        var buyers: [Principal] = []
        for number in 0..<count {
            products.append(try await keycat.catalog.create(draft, for: seller, by: admin).id)
            buyers.append(try await keycat.accounts.createUser(
                SignUpForm(email: "buyer\(number)@example.com", password: "keycat2026", nick: "buyer\(number)"),
                role: .buyer, by: admin).principal)
        }
        var raw: (commerce: [RawPostgresCommerce], threads: DedicatedThreads)?
        if let rawConnections {
            let gateway = try await RawGateway.signIn(to: simulator)
            raw = (try rawConnections(count).map { RawPostgresCommerce(database: $0, gateway: gateway) },
                   DedicatedThreads(count: count, name: "raw-db"))
        }
        defer { raw?.threads.shutdown() }
        var cells: [Cell] = []
        for hot in [false, true] {
            for buyerCount in Self.buyerCounts {
                log("\(store): \(buyerCount) buyer(s), \(hot ? "one hot product" : "distinct products")…")
                _ = try await round(keycat, simulator, buyers: Array(buyers.prefix(buyerCount)),
                                    products: hot ? [products[0]] : products, orders: buyerCount * 5)
                let clock = ContinuousClock()
                var failed = 0
                let tripsBefore = PostgresConnection.roundTrips.load(ordering: .relaxed)
                let statementsBefore = PostgresConnection.statements.load(ordering: .relaxed)
                let probe = LatencyProbe.start()
                let elapsed = try await clock.measure {
                    failed = try await round(keycat, simulator, buyers: Array(buyers.prefix(buyerCount)),
                                             products: hot ? [products[0]] : products, orders: options.concurrencyOrders)
                }
                let plainTaskWait = await probe.stop()
                let seconds = elapsed.seconds
                let trips = PostgresConnection.roundTrips.load(ordering: .relaxed) - tripsBefore
                let statements = PostgresConnection.statements.load(ordering: .relaxed) - statementsBefore
                let perOrder = { (count: Int) in store == "postgres" ? Double(count) / Double(max(1, options.concurrencyOrders)) : nil }
                var cell = Cell(store: store, buyers: buyerCount, hot: hot,
                                ordersPerSecond: Double(options.concurrencyOrders - failed) / seconds, failed: failed,
                                roundTrips: perOrder(trips), statements: perOrder(statements), plainTaskWait: plainTaskWait)
                if let raw {
                    let connections = Array(raw.commerce.prefix(buyerCount))
                    let targets = hot ? [products[0]] : products
                    _ = try await rawRound(connections, on: raw.threads, buyers: buyers, products: targets, orders: buyerCount * 5)
                    let tripsBefore = connections.reduce(0) { $0 + $1.database.roundTrips }
                    var rawFailed = 0
                    let rawElapsed = try await clock.measure {
                        rawFailed = try await rawRound(connections, on: raw.threads, buyers: buyers, products: targets,
                                                       orders: options.concurrencyOrders)
                    }
                    let rawTrips = connections.reduce(0) { $0 + $1.database.roundTrips } - tripsBefore
                    cell.raw = (Double(options.concurrencyOrders - rawFailed) / rawElapsed.seconds, rawFailed,
                                Double(rawTrips) / Double(max(1, options.concurrencyOrders)))
                }
                cells.append(cell)
            }
        }
        return cells
    }

    /// `orders` checkouts + confirms spread over the buyers, each on its own product (or the one
    /// product given); answers how many failed.
    private func round(_ keycat: KeyCat, _ simulator: PGSimulator, buyers: [Principal], products: [ProductID],
                       orders: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, buyer) in buyers.enumerated() {
                let product = products[index % products.count]
                let share = orders / buyers.count + (index < orders % buyers.count ? 1 : 0)
                group.addTask {
                    var failed = 0
                    for _ in 0..<share {
                        do {
                            let order = try await keycat.checkout.checkout(
                                CheckoutRequest(.items([CheckoutItem(productID: product, quantity: 1)])), by: buyer)
                            // The buyer pays in the PG's window, served from the PG's own threads as
                            // the example server serves it: its SQLite write holds no thread of the
                            // pool (the raw buyers pay from their own threads too).
                            let payment = try await withTaskExecutorPreference(simulator.storageExecutor) {
                                try simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
                            }
                            _ = try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer)
                        } catch is KeyCatError {
                            failed += 1
                        }
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// The raw baseline's round: as ``round(_:_:buyers:products:orders:)``, each buyer on its own
    /// raw connection, its blocking calls on a thread of `threads`; answers how many failed.
    private func rawRound(_ connections: [RawPostgresCommerce], on threads: DedicatedThreads, buyers: [Principal],
                          products: [ProductID], orders: Int) async throws -> Int {
        await withTaskGroup(of: Int.self) { group in
            for (index, commerce) in connections.enumerated() {
                let buyer = buyers[index].userID.rawValue
                let product = products[index % products.count].rawValue
                let share = orders / connections.count + (index < orders % connections.count ? 1 : 0)
                group.addTask(executorPreference: threads) {
                    var failed = 0
                    for _ in 0..<share {
                        do {
                            try await commerce.checkoutAndConfirm(buyer: buyer, product: product)
                        } catch {
                            failed += 1
                        }
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
    }

    private func table(_ cells: [Cell], idleWait: Duration) -> String {
        var stores = Array(Set(cells.map(\.store))).sorted { $0 == "sqlite" && $1 != "sqlite" }
        let hasRaw = cells.contains { $0.raw != nil }
        if hasRaw { stores += ["raw postgres", "keycat ÷ raw"] }
        var lines = ["checkout + confirm, orders/s (\(options.concurrencyOrders) orders a cell; failed orders in brackets"
                     + (options.latencyMilliseconds.map { "; Postgres \($0) ms away each way" } ?? "") + ")",
                     "buyers  products  " + stores.map { $0.padding(toLength: 31, withPad: " ", startingAt: 0) }.joined(separator: "  ")]
        for hot in [false, true] {
            for buyers in Self.buyerCounts {
                let values = stores.map { store -> String in
                    if store == "raw postgres" || store == "keycat ÷ raw" {
                        guard let cell = cells.first(where: { $0.raw != nil && $0.buyers == buyers && $0.hot == hot }),
                              let raw = cell.raw else { return "-" }
                        if store == "keycat ÷ raw" { return String(format: "%.2f", cell.ordersPerSecond / raw.ordersPerSecond) }
                        return String(format: "%.0f", raw.ordersPerSecond) + (raw.failed > 0 ? " (\(raw.failed))" : "")
                            + String(format: ", %.1f RT", raw.roundTrips)
                    }
                    guard let cell = cells.first(where: { $0.store == store && $0.buyers == buyers && $0.hot == hot }) else { return "-" }
                    return String(format: "%.0f", cell.ordersPerSecond) + (cell.failed > 0 ? " (\(cell.failed))" : "")
                        + (cell.roundTrips.map { String(format: ", %.1f RT", $0) } ?? "")
                        + (cell.statements.map { String(format: ", %.0f st", $0) } ?? "")
                        + String(format: ", %.2f ms", cell.plainTaskWait.milliseconds)
                }
                lines.append(String(format: "%6d  ", buyers) + (hot ? "one hot" : "distinct").padding(toLength: 10, withPad: " ", startingAt: 0)
                             + values.map { $0.padding(toLength: 31, withPad: " ", startingAt: 0) }.joined(separator: "  "))
            }
        }
        if cells.contains(where: { $0.statements != nil }) {
            lines.append("RT: round trips per order; st: statements sent per order"
                         + (hasRaw ? " (raw postgres sends one a round trip)" : ""))
        }
        lines.append(String(format: "ms: a plain task's p99 wait for a thread of the global executor during the cell; %.2f ms idle",
                            idleWait.milliseconds))
        return lines.joined(separator: "\n")
    }

    private func json(_ cells: [Cell], idleWait: Duration) -> String {
        let rows: [[String: Any]] = cells.map {
            ["store": $0.store, "buyers": $0.buyers, "products": $0.hot ? "one_hot" : "distinct",
             "orders_per_second": $0.ordersPerSecond, "failed": $0.failed, "round_trips_per_order": $0.roundTrips ?? NSNull(),
             "statements_per_order": $0.statements ?? NSNull(),
             "plain_task_wait_p99_ms": $0.plainTaskWait.milliseconds,
             "raw": $0.raw.map { ["orders_per_second": $0.ordersPerSecond, "failed": $0.failed, "round_trips_per_order": $0.roundTrips] }
                 ?? NSNull()]
        }
        let info = ["date": ISO8601DateFormatter().string(from: Date()), "orders": String(options.concurrencyOrders),
                    "latency_ms": options.latencyMilliseconds.map(String.init) ?? "0",
                    "plain_task_wait_p99_idle_ms": String(format: "%.3f", idleWait.milliseconds),
                    "cores": String(ProcessInfo.processInfo.activeProcessorCount)]
        let data = try? JSONSerialization.data(withJSONObject: ["info": info, "cells": rows], options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}
