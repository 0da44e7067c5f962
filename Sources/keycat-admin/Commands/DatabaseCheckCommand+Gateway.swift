import Foundation
import KeyCat

extension DatabaseCheckCommand {
    /// The `gateway` section of `db check --gateway`: both sides of the window cross-checked
    /// (``KeyCat/checkGateway(window:)``), as human lines and as JSON.
    static func gatewaySection(_ keycat: KeyCat, lookback: Double) async throws -> (report: GatewayCheckReport, human: String, json: JSONValue) {
        let now = keycat.configuration.clock.now()
        let window = DateInterval(start: now.addingTimeInterval(-lookback), end: now)
        let report = try await keycat.checkGateway(window: window)
        let counts = "\(report.gatewayPaymentsChecked) PG payment(s), \(report.ordersChecked) order(s) in the last \(Int(lookback / 3600)) h"
        var human = report.isClean
            ? "gateway: ok (\(counts))\n"
            : "gateway: \(report.problems.count) problem(s) (\(counts))\n" + report.problems.map { "  - \($0)\n" }.joined()
        if !report.orphans.isEmpty {
            human += "  \(report.orphans.count) orphan(s) hold \(report.orphanAmount): "
                + "'keycat-admin payments reconcile --void-orphans' cancels them at the PG\n"
        }
        let json = JSONValue.object([
            ("healthy", .bool(report.isClean)),
            ("gateway_payments_checked", .int(Int64(report.gatewayPaymentsChecked))),
            ("orders_checked", .int(Int64(report.ordersChecked))),
            ("orphan_amount", .int(report.orphanAmount.won)),
            ("orphans", .array(report.orphans.map(GatewayOutput.json))),
            ("problems", .array(report.problems.map(JSONValue.string))),
        ])
        return (report, human, json)
    }
}
