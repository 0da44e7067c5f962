import Foundation
@testable import KeyCat
import KeyCatPGSimulator
import KeyCatTestSupport
import Testing

extension FaultInjectionTests {
    /// SQLite's own crash tests in miniature: checkouts run through the fault VFS until, at a
    /// chosen sync or write, the power goes out. Every write not yet synced is lost (or, torn, a
    /// random part of them survives, whole or cut at a sector); the machine "reboots" and a new
    /// process opens the files.
    @Suite("Power loss")
    struct PowerLoss {
        /// What one power cut left.
        struct Trial {
            var returned: [Order] = []
            /// Orders whose confirm returned paid.
            var paid: [OrderID] = []
            var missing: [OrderID] = []
            /// Orders confirmed paid before the cut and not paid after it.
            var unpaid: [OrderID] = []
            var healthy = true
            /// Unsynced writes the cut discarded, and those a torn cut let through.
            var discarded = 0
            var kept = 0
        }

        /// Runs checkouts and confirms on a copy of `shop` with the power going out before the
        /// `nth` `operation`, reopens, and reports which orders whose checkout returned are
        /// missing, and which whose confirm returned are not paid.
        func trial(_ shop: FaultShop, root: URL, at operation: FaultVFS.Operation, nth: Int, tear: Bool,
                   durability: KeyCat.SQLiteStore.Durability = .full) async throws -> Trial {
            let path = try FaultShop.copy(shop.directory, to: root, "\(operation)-\(nth)-\(tear)-\(durability)")
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            var trial = Trial()
            FaultVFS.reset()
            defer { FaultVFS.reset() }
            FaultVFS.armPowerLoss(at: operation, nth: nth, tear: tear, seed: UInt32(nth * 7_919 + (tear ? 1 : 0)))
            var configuration = FaultShop.configuration(path, vfs: FaultVFS.name)
            configuration.store.sqlite?.durability = durability
            if let keycat = try? await KeyCat.open(configuration) {
                let request = CheckoutRequest(.items([CheckoutItem(productID: shop.productID, quantity: 1)]))
                while !FaultVFS.powerLost, trial.returned.count < 30 {
                    guard let order = try? await keycat.checkout.checkout(request, by: shop.buyer) else { break }
                    trial.returned.append(order)
                    // Every other order is paid at the PG (which keeps its own state: it is
                    // another machine) and confirmed.
                    if trial.returned.count % 2 == 0, let simulator = keycat.paymentSimulator,
                       let payment = try? simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number) {
                        guard let confirmed = try? await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: shop.buyer) else { break }
                        if confirmed.status == .paid { trial.paid.append(order.id) }
                    }
                    // A checkpoint every third order (a busy shop's WAL reaches SQLite's
                    // automatic one), so cuts also land while pages move into the database file
                    // and the WAL restarts.
                    if trial.returned.count % 3 == 0 {
                        _ = try? keycat.database.withWriter { try $0.execute("PRAGMA wal_checkpoint(PASSIVE)") }
                    }
                }
                keycat.close()
            }
            trial.discarded = FaultVFS.discardedWrites
            trial.kept = FaultVFS.keptWrites
            FaultVFS.reset()  // the power is back; nothing more is lost

            let keycat = try await KeyCat.open(FaultShop.configuration(path))
            defer { keycat.close() }
            let report = try await keycat.checkHealth()
            trial.healthy = report.isHealthy
            #expect(report.isHealthy, "\(operation) #\(nth), torn: \(tear): \(report)")
            for order in trial.returned {
                let found = try? await keycat.orders.order(order.id, by: .operatorConsole("tester"))
                if found?.merchantUID != order.merchantUID || found?.amount != order.amount { trial.missing.append(order.id) }
                if trial.paid.contains(order.id), found?.status != .paid { trial.unpaid.append(order.id) }
            }
            return trial
        }

        @Test("cut at every sync and at every third write of checkouts, confirms and checkpoints, unsynced writes lost or torn: the database opens clean with every order whose checkout returned, paid if its confirm did")
        func everyReturnedOrderSurvives() async throws {
            try await withTemporaryDirectory { root in
                let fixture = root.appendingPathComponent("fixture", isDirectory: true)
                try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
                let shop = try await FaultShop.build(in: fixture)
                var cuts = 0, returned = 0, paid = 0, discarded = 0, kept = 0
                for (operation, points) in [(FaultVFS.Operation.sync, Array(1...30)), (.write, Array(stride(from: 1, through: 120, by: 3)))] {
                    for nth in points {
                        for tear in [false, true] {
                            let trial = try await trial(shop, root: root, at: operation, nth: nth, tear: tear)
                            #expect(trial.missing.isEmpty, "\(operation) #\(nth), torn: \(tear): lost orders \(trial.missing)")
                            #expect(trial.unpaid.isEmpty, "\(operation) #\(nth), torn: \(tear): lost payments of \(trial.unpaid)")
                            cuts += 1
                            returned += trial.returned.count
                            paid += trial.paid.count
                            discarded += trial.discarded
                            kept += trial.kept
                        }
                    }
                }
                #expect(discarded > 0 && kept > 0, "the cuts lost no unsynced write, or a torn cut kept none")
                print("power loss: \(cuts) cuts, \(returned) checkouts and \(paid) confirms returned before them, \(discarded) unsynced writes discarded and \(kept) kept by torn cuts")
            }
        }

        @Test("the check can fail: with synchronous=NORMAL a power cut loses checkouts that returned")
        func normalDurabilityLosesCommits() async throws {
            try await withTemporaryDirectory { root in
                let fixture = root.appendingPathComponent("fixture", isDirectory: true)
                try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
                let shop = try await FaultShop.build(in: fixture)
                // NORMAL syncs the WAL only at checkpoints: a cut at a late write finds the
                // commits of every earlier checkout unsynced.
                let trial = try await trial(shop, root: root, at: .write, nth: 120, tear: false, durability: .normal)
                #expect(trial.returned.count > 1)
                #expect(!trial.missing.isEmpty, "NORMAL lost nothing: the power cut did not discard unsynced writes")
                #expect(trial.healthy)
            }
        }
    }
}
