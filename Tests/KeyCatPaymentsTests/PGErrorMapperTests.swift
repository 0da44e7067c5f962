import Foundation
import KeyCatDomain
import KeyCatPGSimulator
import Testing
@testable import KeyCatData

/// One row of architecture §5's PG → domain table, produced by the simulator for real.
struct PGAnswerScenario: Sendable, CustomStringConvertible {
    let description: String
    let expected: KeyCatError.Code
    let run: @Sendable (PaymentsHarness) async throws -> KeyCatError?
}

@Suite("PG answers map to domain errors")
struct PGErrorMapperTests {
    static let scenarios: [PGAnswerScenario] = [
        PGAnswerScenario(description: "400 INVALID_REQUEST", expected: .gatewayInvalidRequest) { harness in
            await keyCatError { () async throws(KeyCatError) in try await harness.client.prepare(merchantUID: "order-1", amount: .zero) }
        },
        PGAnswerScenario(description: "401 UNAUTHORIZED", expected: .gatewayAuthenticationFailed) { harness in
            harness.simulator.injectFault(.error(.unauthorized), on: .payment, times: 5)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "403 FORBIDDEN", expected: .gatewayForbidden) { harness in
            harness.simulator.injectFault(.error(.forbidden), on: .payment)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "404 PAYMENT_NOT_FOUND", expected: .paymentNotFound) { harness in
            await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_missing") }
        },
        PGAnswerScenario(description: "409 ALREADY_PAID", expected: .alreadyPaid) { harness in
            // Paid without our prepare (so no earlier answer is replayed for its idempotency key).
            try harness.simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
            return await keyCatError { () async throws(KeyCatError) in
                try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
            }
        },
        PGAnswerScenario(description: "409 PAYMENT_NOT_PAID", expected: .paymentNotPaid) { harness in
            try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(target: .merchantUID("order-1"), checksum: .zero, reason: "test"))
            }
        },
        PGAnswerScenario(description: "409 PAYMENT_ALREADY_CANCELLED", expected: .paymentAlreadyCancelled) { harness in
            let paid = try await harness.paidPayment("order-1")
            _ = try await harness.client.cancel(.init(target: .impUID(paid.impUID), checksum: paid.amount, reason: "first"))
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(target: .impUID(paid.impUID), checksum: .zero, reason: "again"))
            }
        },
        PGAnswerScenario(description: "409 CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN", expected: .cancellableAmountInconsistent) { harness in
            let paid = try await harness.paidPayment("order-1")
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(
                    target: .impUID(paid.impUID), amount: Money(won: 1_000), checksum: Money(won: 9_000), reason: "stale"))
            }
        },
        PGAnswerScenario(description: "409 CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT", expected: .cancelAmountExceedsCancellable) { harness in
            let paid = try await harness.paidPayment("order-1")
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(
                    target: .impUID(paid.impUID), amount: Money(won: 20_000), checksum: paid.amount, reason: "too much"))
            }
        },
        PGAnswerScenario(description: "429 with Retry-After past the deadline", expected: .rateLimited) { harness in
            harness.simulator.injectFault(.rateLimited(retryAfterSeconds: 600), on: .payment, times: 10)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "500", expected: .gatewayUnavailable) { harness in
            harness.simulator.injectFault(.error(.internalServerError), on: .payment, times: 10)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "502 PG_PROVIDER", expected: .gatewayUnavailable) { harness in
            harness.simulator.injectFault(.error(.pgProvider), on: .payment, times: 10)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "503", expected: .gatewayUnavailable) { harness in
            harness.simulator.injectFault(.error(.serviceUnavailable), on: .payment, times: 10)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "no answer in time", expected: .gatewayTimeout) { harness in
            harness.simulator.injectFault(.lostAnswer, on: .payment, times: 10)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "malformed body", expected: .invalidGatewayResponse) { harness in
            harness.simulator.injectFault(.malformedBody, on: .payment)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
    ]

    @Test("each PG answer becomes its domain error", arguments: scenarios)
    func mapsRow(_ scenario: PGAnswerScenario) async throws {
        let harness = try PaymentsHarness()
        let error = try await scenario.run(harness)
        #expect(error?.code == scenario.expected)
    }

    @Test("a 429 carries the PG's Retry-After as retry_after")
    func retryAfterInContext() async throws {
        let harness = try PaymentsHarness()
        harness.simulator.injectFault(.rateLimited(retryAfterSeconds: 600), on: .payment, times: 10)
        let error = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        #expect(error?.context["retry_after"] == "600")
        #expect(error?.context["pg_status"] == "429")
    }

    @Test("the simulator's error types and the mapper's table agree on every status")
    func tableCoversSimulatorTypes() {
        for type in PGErrorType.allCases {
            let rule = PGErrorMapper.rule(status: type.httpStatus, type: type.rawValue)
            #expect(rule.status == type.httpStatus, "\(type)")
        }
    }

    @Test("a wrong API secret is gatewayAuthenticationFailed without retrying the token")
    func wrongSecret() async throws {
        let harness = try PaymentsHarness(clientSecret: "not-the-secret")
        let error = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        #expect(error?.code == .gatewayAuthenticationFailed)
        #expect(harness.simulator.requestCount(.getToken) == 1)
        #expect(harness.simulator.requestCount(.payment) == 0)
    }
}
