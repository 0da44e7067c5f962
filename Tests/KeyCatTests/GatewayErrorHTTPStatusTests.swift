import Testing
@testable import KeyCat

@Suite("Gateway errors over HTTP")
struct GatewayErrorHTTPStatusTests {
    @Test("gateway and payment codes answer with architecture §5's statuses", arguments: [
        (KeyCatError.Code.paymentDeclined, 402), (.rateLimited, 429), (.gatewayUnavailable, 502),
        (.gatewayTimeout, 504), (.paymentNotFound, 404), (.cancellableAmountInconsistent, 409),
        (.paymentAmountForged, 422),
    ])
    func status(_ code: KeyCatError.Code, _ status: Int) {
        #expect(KeyCatError(code, "x").httpStatus == status)
    }

    @Test("a rate-limited error passes the PG's Retry-After on")
    func retryAfter() {
        let response = HTTPErrorResponse(KeyCatError(.rateLimited, "slow down", context: ["retry_after": "3"]))
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "3")
    }
}
