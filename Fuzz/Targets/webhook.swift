// Webhooks are HTTP requests from outside: headers and body are whatever the sender chose.
// The input reads like a request: `name: value` header lines, a blank line, then the body.
// Contract: a webhook verifies or throws a `WebhookVerificationFailure`; a correctly signed body
// that is not the payload is refused as `malformedPayload`; a payload signed with our secret
// verifies to the fields it was made from.
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain
@testable import KeyCatInfrastructure

private let secret = "whsec_" + Data(Array(repeating: UInt8(0x57), count: 32)).base64EncodedString()
/// 2026-01-01T00:00:00Z.
private let clock = TestClock()
private let verifier = WebhookVerifier(secrets: ["whsec_b2xkLXNlY3JldA==", secret], clock: clock)

/// Splits the input at its first blank line into headers and body.
private func request(_ bytes: [UInt8]) -> (headers: [String: String], body: Data) {
    let separator: [UInt8] = [0x0A, 0x0A]
    var headerEnd = bytes.count
    var bodyStart = bytes.count
    if bytes.count >= 2 {
        for index in 0..<(bytes.count - 1) where Array(bytes[index..<index + 2]) == separator {
            headerEnd = index
            bodyStart = index + 2
            break
        }
    }
    var headers: [String: String] = [:]
    for line in String(decoding: bytes[..<headerEnd], as: UTF8.self).split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[String(line[..<colon])] = String(line[line.index(after: colon)...])
    }
    return (headers, Data(bytes[bodyStart...]))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func webhookFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let (headers, body) = request(bytes)
    // 1. The request as sent. Typed throws: any error here is a WebhookVerificationFailure.
    _ = try? verifier.verify(headers: headers, body: body)

    // 2. The same body, correctly signed now: only the payload can be wrong.
    let timestamp = Int64(clock.now().timeIntervalSince1970)
    let signed = [
        "Webhook-Id": "msg_fuzz", "webhook-timestamp": String(timestamp),
        "webhook-signature": StandardWebhookSignature.sign(id: "msg_fuzz", timestamp: timestamp, body: body, secret: secret),
    ]
    do {
        let webhook = try verifier.verify(headers: signed, body: body)
        FuzzContract.expect(webhook.id == "msg_fuzz", "the id is the header's")
    } catch {
        FuzzContract.expect(error == .malformedPayload, "a correctly signed body can only be a malformed payload, got \(error)")
    }

    // 3. A payload made from the input's text, signed: verify gives its fields back.
    let text = String(decoding: bytes, as: UTF8.self)
    let payload: [String: String] = ["imp_uid": "imp_" + text, "merchant_uid": text, "status": "paid"]
    guard let made = try? JSONSerialization.data(withJSONObject: payload) else { return 0 }
    let madeHeaders = [
        "webhook-id": "msg_made", "webhook-timestamp": String(timestamp),
        "webhook-signature": "v1,AAAA " + StandardWebhookSignature.sign(id: "msg_made", timestamp: timestamp, body: made, secret: secret),
    ]
    let webhook = try? verifier.verify(headers: madeHeaders, body: made)
    FuzzContract.expect(webhook?.impUID == "imp_" + text && webhook?.merchantUID == text && webhook?.paymentStatus == .paid,
                        "sign then verify gives the payload back")
    return 0
}
