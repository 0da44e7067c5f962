import Foundation
import KeyCatInfrastructure
import Testing
@testable import KeyCatPGSimulator

@Suite("PG simulator under concurrency")
struct PGSimulatorConcurrencyTests {
    @Test("concurrent partial cancels never refund more than was paid")
    func concurrentCancels() async throws {
        let simulator = try PGSimulator()
        var client = SimulatorClient(simulator: simulator)
        try await client.authenticate()
        let paid = try simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 5_000)
        let authenticated = client
        let codes = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    let answer = try? await authenticated.send(
                        .post, "/payments/cancel", ["imp_uid": paid.impUID, "amount": 1_000, "reason": "r"])
                    return answer?.status == 200 ? answer?.json["code"] as? Int ?? -99 : -99
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        // v1 refuses the five that come too late with HTTP 200 and code 1.
        #expect(codes.filter { $0 == 0 }.count == 5)
        #expect(codes.filter { $0 == 1 }.count == 5)
        #expect(simulator.payment(impUID: paid.impUID)?.status == .cancelled)
        #expect(simulator.cancellations(impUID: paid.impUID).map(\.amount).reduce(0, +) == 5_000)
    }
}
