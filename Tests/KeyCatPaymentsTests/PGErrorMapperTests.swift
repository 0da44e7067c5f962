import Foundation
import KeyCatDomain
import KeyCatInfrastructure
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
        PGAnswerScenario(description: "400 (a parameter missing)", expected: .gatewayInvalidRequest) { harness in
            await keyCatError { () async throws(KeyCatError) in try await harness.client.prepare(merchantUID: "order-1", amount: .zero) }
        },
        PGAnswerScenario(description: "401 Unauthorized", expected: .gatewayAuthenticationFailed) { harness in
            harness.simulator.injectFault(.error(.unauthorized), on: .payment, times: 5)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "403 Forbidden", expected: .gatewayForbidden) { harness in
            harness.simulator.injectFault(.error(.forbidden), on: .payment)
            return await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        },
        PGAnswerScenario(description: "404 존재하지 않는 결제정보입니다.", expected: .paymentNotFound) { harness in
            await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_missing") }
        },
        PGAnswerScenario(description: "200, code 1: 이미 결제완료된 merchant_uid", expected: .alreadyPaid) { harness in
            // Paid without our prepare.
            try harness.simulator.pay(merchantUID: "order-1", cardNumber: PGTestCard.success.number, amount: 10_000)
            return await keyCatError { () async throws(KeyCatError) in
                try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
            }
        },
        PGAnswerScenario(description: "200, code 1: 결제완료 상태가 아닌 결제건", expected: .paymentNotPaid) { harness in
            try await harness.client.prepare(merchantUID: "order-1", amount: Money(won: 10_000))
            _ = try harness.simulator.openWindow(merchantUID: "order-1")  // the payment appears, ready
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(target: .merchantUID("order-1"), checksum: .zero, reason: "test"))
            }
        },
        PGAnswerScenario(description: "200, code 1: 이미 전액취소된 주문입니다.", expected: .paymentAlreadyCancelled) { harness in
            let paid = try await harness.paidPayment("order-1")
            _ = try await harness.client.cancel(.init(target: .impUID(paid.impUID), checksum: paid.amount, reason: "first"))
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(target: .impUID(paid.impUID), checksum: .zero, reason: "again"))
            }
        },
        PGAnswerScenario(description: "200, code 1: checksum mismatch", expected: .cancellableAmountInconsistent) { harness in
            let paid = try await harness.paidPayment("order-1")
            return await keyCatError { () async throws(KeyCatError) in
                _ = try await harness.client.cancel(.init(
                    target: .impUID(paid.impUID), amount: Money(won: 1_000), checksum: Money(won: 9_000), reason: "stale"))
            }
        },
        PGAnswerScenario(description: "200, code 1: 취소가능잔액을 초과", expected: .cancelAmountExceedsCancellable) { harness in
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
        PGAnswerScenario(description: "502", expected: .gatewayUnavailable) { harness in
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

    @Test("the simulator's HTTP errors each have their row in the mapper's table")
    func tableCoversSimulatorTypes() {
        for type in PGErrorType.allCases {
            #expect(PGErrorMapper.table.contains { $0.status == type.httpStatus }, "\(type)")
        }
    }

    /// v1's refusal messages as PortOne's published clients' own tests pin them, and the
    /// simulator's wording of the others: each maps to its domain case.
    @Test("v1 refusal messages map to their domain cases", arguments: [
        ("취소할 결제건이 존재하지 않습니다.", KeyCatError.Code.paymentNotFound),
        ("이미 전액취소된 주문입니다.", .paymentAlreadyCancelled),
        (PGRefusal.notPaid.message, .paymentNotPaid),
        (PGRefusal.alreadyPaid("order-1").message, .alreadyPaid),
        (PGRefusal.checksumMismatch(checksum: 9_000, cancellable: 10_000).message, .cancellableAmountInconsistent),
        (PGRefusal.exceedsCancellable(amount: 20_000, cancellable: 10_000).message, .cancelAmountExceedsCancellable),
        ("카드정보 인증에 실패하였습니다.", .gatewayInvalidRequest),
    ])
    func refusalMessages(_ message: String, _ expected: KeyCatError.Code) {
        let error = PGErrorMapper.refusalError(code: 1, message: message)
        #expect(error.code == expected)
        #expect(error.context["pg_code"] == "1")
        #expect(error.context["pg_message"] == message)
    }

    @Test("a PG's Retry-After is read as delta-seconds or as an HTTP date; a 429 without one still says a second", arguments: [
        ("120", 120 as Int?), ("  7 ", 7), ("-3", 0), ("Mon, 30 Nov 2026 15:00:30 GMT", 30), ("Mon, 30 Nov 2026 14:59:00 GMT", 0),
        ("soon", nil), (nil, nil), ("Tue, 01 Dec 2026 15:00:00 GMT", 86_400), ("Mon, 30 Nov 2026 15:00:30 UTC", nil),
        ("Mon, 31 Nov 2026 15:00:30 GMT", nil), ("Mon, 30 Nov 2026 24:00:00 GMT", nil), ("Mon, 30 Nov 2026 15:0:30 GMT", nil),
        ("Mon, 30 Nov 2026 15:00:30 GMT ", 30), ("Mon 30 Nov 2026 15:00:30 GMT", nil), ("Mon, 30 Nov 2026  15:00:30 GMT", nil),
        ("Monday, 30-Nov-26 15:00:30 GMT", 30), ("Mon Nov 30 15:00:30 2026", 30), ("Tue Dec  1 15:00:00 2026", 86_400),
    ] as [(String?, Int?)])
    func retryAfter(_ header: String?, _ seconds: Int?) throws {
        let now = try Date("2026-11-30T15:00:00Z", strategy: .iso8601)
        let response = TransportResponse(status: 429, headers: header.map { ["Retry-After": $0] } ?? [:])
        #expect(PGResponseDecoder.retryAfterSeconds(response, now: now) == seconds)
        let error = PGErrorMapper.error(for: PGErrorMapper.rule(status: 429), status: 429, message: nil, retryAfterSeconds: seconds)
        #expect(error.code == .rateLimited && error.context["retry_after"] == String(seconds ?? 1))
    }

    @Test("a wrong API secret is gatewayAuthenticationFailed without retrying the token")
    func wrongSecret() async throws {
        let harness = try PaymentsHarness(clientSecret: "not-the-secret")
        let error = await keyCatError { () async throws(KeyCatError) in _ = try await harness.client.payment(impUID: "imp_1") }
        #expect(error?.code == .gatewayAuthenticationFailed)
        #expect(harness.simulator.requestCount(.getToken) == 1)
        #expect(harness.simulator.requestCount(.payment) == 0)
    }

    @Test("HTTP dates are read to the second without Foundation's formatter, in all three of RFC 9110's forms: its examples, a leap day, before 1970",
          arguments: [("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777), ("Thu, 29 Feb 2024 00:00:00 GMT", 1_709_164_800),
                      ("Wed, 31 Dec 1969 23:59:59 GMT", -1), ("Fri, 29 Feb 2023 00:00:00 GMT", nil), ("Sun, 06 Nov 1994 08:49:37 gmt", nil),
                      ("Sun, 06 Nov 1994 08:49:37", nil), ("Sun, 06 Foo 1994 08:49:37 GMT", nil), ("Sun, ٠٦ Nov 1994 08:49:37 GMT", nil),
                      ("Sun, +6 Nov 1994 08:49:37 GMT", nil), ("Sun, 06 Nov -994 08:49:37 GMT", nil),
                      // RFC 850: a two-digit year more than 50 years ahead is the century before's.
                      ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777), ("Thursday, 29-Feb-24 00:00:00 GMT", 1_709_164_800),
                      ("Sun, 06-Nov-94 08:49:37 GMT", nil), ("Sunday, 06-Nov-1994 08:49:37 GMT", nil), ("Sunday, 06-Nov-+4 08:49:37 GMT", nil),
                      // asctime: a day under 10 after two spaces.
                      ("Sun Nov  6 08:49:37 1994", 784_111_777), ("Thu Feb 29 00:00:00 2024", 1_709_164_800),
                      ("Sun Nov 6 08:49:37 1994", nil), ("Sun Nov  16 08:49:37 1994", nil), ("Sunday Nov  6 08:49:37 1994", nil)]
                      as [(String, Int?)])
    func httpDate(_ text: String, _ seconds: Int?) throws {
        let now = try Date("2026-11-30T15:00:00Z", strategy: .iso8601)
        #expect(PGResponseDecoder.httpDate(text, now: now).map { Int($0.timeIntervalSince1970) } == seconds)
    }
}
