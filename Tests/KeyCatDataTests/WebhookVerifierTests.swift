import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

@Suite("Webhook verification")
struct WebhookVerifierTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let body = Data(#"{"imp_uid":"imp_1","merchant_uid":"order-1","status":"paid"}"#.utf8)
    let clock = TestClock()

    func headers(id: String = "msg_1", at timestamp: Int64? = nil, body: Data = body, secrets: [String] = [secret]) -> [String: String] {
        let timestamp = timestamp ?? Int64(clock.now().timeIntervalSince1970)
        let signatures = secrets.map { StandardWebhookSignature.sign(id: id, timestamp: timestamp, body: body, secret: $0) }
        return ["webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.joined(separator: " ")]
    }

    func verify(_ headers: [String: String], body: Data = body, secrets: [String] = [secret]) -> Result<VerifiedWebhook, WebhookVerificationFailure> {
        Result { () throws(WebhookVerificationFailure) -> VerifiedWebhook in
            try WebhookVerifier(secrets: secrets, clock: clock).verify(headers: headers, body: body)
        }
    }

    @Test("a valid webhook is accepted and read")
    func valid() throws {
        let webhook = try verify(headers()).get()
        #expect(webhook.id == "msg_1")
        #expect(webhook.impUID == "imp_1")
        #expect(webhook.merchantUID == "order-1")
        #expect(webhook.status == "paid")
    }

    @Test("header names are matched in any case")
    func headerCase() throws {
        let upper = Dictionary(uniqueKeysWithValues: headers().map { ($0.key.uppercased(), $0.value) })
        #expect((try? verify(upper).get()) != nil)
    }

    @Test("a tampered body is a signature mismatch")
    func tamperedBody() {
        let tampered = Data(#"{"imp_uid":"imp_1","merchant_uid":"order-1","status":"cancelled"}"#.utf8)
        #expect(verify(headers(), body: tampered) == .failure(.signatureMismatch))
    }

    @Test("a signature made with another secret is a mismatch")
    func wrongSecret() {
        #expect(verify(headers(secrets: ["whsec_c29tZW9uZS1lbHNlcy1zZWNyZXQ="])) == .failure(.signatureMismatch))
    }

    @Test("a timestamp older than five minutes is refused")
    func stale() {
        let old = Int64(clock.now().timeIntervalSince1970) - 301
        #expect(verify(headers(at: old)) == .failure(.timestampTooOld))
        #expect((try? verify(headers(at: old + 2)).get()) != nil)
    }

    @Test("a timestamp more than five minutes ahead is refused")
    func future() {
        let ahead = Int64(clock.now().timeIntervalSince1970) + 301
        #expect(verify(headers(at: ahead)) == .failure(.timestampInFuture))
    }

    @Test("each missing header is named", arguments: ["webhook-id", "webhook-timestamp", "webhook-signature"])
    func missingHeader(_ name: String) {
        var headers = headers()
        headers[name] = nil
        #expect(verify(headers) == .failure(.missingHeader(name)))
    }

    @Test("malformed timestamp and signature are told apart from a mismatch")
    func malformed() {
        var badTimestamp = headers()
        badTimestamp["webhook-timestamp"] = "yesterday"
        #expect(verify(badTimestamp) == .failure(.malformedTimestamp))
        var badSignature = headers()
        badSignature["webhook-signature"] = "v2,abc"
        #expect(verify(badSignature) == .failure(.malformedSignature))
    }

    @Test("during rotation a header signed with old and new secrets passes under either")
    func rotatedSecret() {
        let old = "whsec_b2xkLXNlY3JldC1iZWZvcmUtcm90YXRpb24="
        let signedWithBoth = headers(secrets: [old, Self.secret])
        #expect((try? verify(signedWithBoth, secrets: [Self.secret]).get()) != nil)
        #expect((try? verify(signedWithBoth, secrets: [old]).get()) != nil)
        // and a receiver that accepts both secrets takes a header signed with only the old one
        #expect((try? verify(headers(secrets: [old]), secrets: [Self.secret, old]).get()) != nil)
        #expect(verify(headers(secrets: [old]), secrets: [Self.secret]) == .failure(.signatureMismatch))
    }

    /// SQLite only for the reopened file; the store's first-delivery rule runs on every store in
    /// `StoredPortsTests`.
    @Test("a duplicate delivery of one webhook id is recognised, durably")
    func duplicateID() async throws {
        try await withTemporaryDirectory { directory async throws in
            let database = try SQLiteDatabase(path: directory.appendingPathComponent("events.db").path)
            defer { database.close() }
            try KeyCatSchema.migrator().migrate(database)
            let events = SQLWebhookEventStore<SQLiteDatabase>(database: database)
            let first = try verify(headers(id: "msg_dup")).get()
            clock.advance(by: 60)
            let redelivered = try verify(headers(id: "msg_dup")).get()  // re-signed at a later time
            #expect(try await events.recordFirstDelivery(of: first.id, at: clock.now()))
            #expect(try await !events.recordFirstDelivery(of: redelivered.id, at: clock.now()))
            #expect(try await events.recordFirstDelivery(of: "msg_other", at: clock.now()))
        }
    }

    @Test("every failure maps to the same validation error, which names no reason")
    func domainError() {
        let failures: [WebhookVerificationFailure] = [
            .missingHeader("webhook-id"), .malformedTimestamp, .timestampTooOld, .timestampInFuture, .malformedSignature,
            .signatureMismatch, .malformedPayload,
        ]
        let errors = Set(failures.map { "\($0.keyCatError.code) \($0.keyCatError.message) \($0.keyCatError.context)" })
        #expect(errors == ["validation the webhook could not be verified [\"field\": \"webhook\"]"])
    }
}
