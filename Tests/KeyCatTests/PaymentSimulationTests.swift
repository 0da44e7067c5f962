import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("Payment-flow simulation")
struct PaymentSimulationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var options: PaymentSimulation.Options
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        func options(_ change: (inout PaymentSimulation.Options) -> Void) -> PaymentSimulation.Options {
            var options = PaymentSimulation.Options()
            options.orders = 120
            options.buyers = 24
            options.products = 3
            options.stock = 15
            change(&options)
            return options
        }
        return [
            Case(name: "no faults", options: options { _ in }),
            Case(name: "PG 5xx, lost answers, duplicate and reordered webhooks", options: options {
                $0.faultRate = 0.1
                $0.timeoutRate = 0.1
                $0.webhookDuplicateRate = 0.5
                $0.declineRate = 0.2
                $0.seed = 7
            }),
            Case(name: "every answer lost, nobody confirms: reconciliation settles everything", options: options {
                $0.timeoutRate = 0.3
                $0.skipConfirmRate = 1
                $0.seed = 11
            }),
        ]
    }()

    @Test("dozens of concurrent buyers racing for the last units: after reconcile every invariant holds", arguments: cases)
    func racingBuyers(_ scenario: Case) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sim.db").path
            let report = try await PaymentSimulation.run(databasePath: path, options: scenario.options)
            #expect(report.holds, "\(report)")
            #expect(report.ordersAttempted == scenario.options.orders)
            #expect(report.outOfStock > 0, "the buyers should have run out of units: \(report)")
            #expect(report.oversoldUnits == 0 && report.ordersChargedTwice == 0)
            #expect(report.paidPaymentsWithoutPaidOrder == 0 && report.stockConservationErrors == 0)
        }
    }

    @Test("two KeyCat instances on one file race for the same units and the invariants hold for both")
    func twoInstancesOneFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shared.db").path
            var options = PaymentSimulation.Options()
            options.orders = 60
            options.buyers = 10
            options.stock = 10
            options.products = 2
            options.timeoutRate = 0.1
            options.webhookDuplicateRate = 0.3
            options.sharedCatalog = "shared"  // both race for the same units
            let setup = try KeyCat.open(KeyCat.Configuration(databasePath: path))
            setup.close()
            var other = options
            other.seed = 99
            let firstOptions = options, secondOptions = other
            async let first = PaymentSimulation.run(databasePath: path, options: firstOptions)
            async let second = PaymentSimulation.run(databasePath: path, options: secondOptions)
            let reports = try await [first, second]
            for report in reports { #expect(report.holds, "\(report)") }
        }
    }
}
