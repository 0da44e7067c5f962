import Foundation
import KeyCat
import Testing
@testable import KeyCatAPI

/// What `POST /webhooks/pg` answers the PG when it does not take a webhook.
@Suite("The PG's webhook answers")
struct WebhookAnswerTests {
    @Test("a notification past the budget is a 503 whose Retry-After says when the budget refills")
    func throttledSaysWhen() throws {
        let throttled = WebhookRoutes.answer(refusing: KeyCatError(.rateLimited, "too many payment notifications; send again later",
                                                                   context: ["retry_after": "1"]))
        #expect(throttled.status == 503)
        #expect(throttled.headers["Retry-After"] == "1")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(throttled.body)) as? [String: Any])
        #expect(body["code"] as? String == "rate_limited")
    }

    @Test("a forged webhook is refused without a Retry-After: trying again cannot help")
    func forgedHasNoRetry() {
        let forged = WebhookRoutes.answer(refusing: KeyCatError.validation("webhook", "bad signature"))
        #expect(forged.status == 400 && forged.headers["Retry-After"] == nil)
    }
}
