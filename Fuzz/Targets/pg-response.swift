// The payment gateway's answers are bytes from another company's server.
// The input reads like a response: a first line `status` (and optionally ` retry-after`), then
// the body. Contract: every reader gives a value or a `KeyCatError` (never a trap on a huge
// number, a wrong type or a missing key); a success envelope of a payment reads back the
// fields it was written with.
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain
@testable import KeyCatInfrastructure

private func response(_ bytes: [UInt8]) -> TransportResponse {
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let head = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ", maxSplits: 1)
    let status = head.first.flatMap { Int($0) } ?? 200
    var headers: [String: String] = [:]
    if head.count > 1 { headers["retry-after"] = String(head[1]) }
    let body = newline < bytes.count ? Data(bytes[(newline + 1)...]) : Data()
    return TransportResponse(status: status, headers: headers, body: body)
}

private func read<Payload: Decodable>(_ type: Payload.Type, from response: TransportResponse) -> Payload? {
    do {
        return try PGResponseDecoder.payload(type, from: response)
    } catch {
        FuzzContract.expect(!error.message.isEmpty, "a gateway error says something")
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func pgResponseFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let answer = response(bytes)

    _ = read(PGTokenPayload.self, from: answer)
    _ = read(PGPreparePayload.self, from: answer)
    _ = read(PGPaymentPayload.self, from: answer)?.domain
    _ = read(PGPaymentListPayload.self, from: answer)?.list.map(\.domain)
    let error = PGResponseDecoder.error(for: answer)
    FuzzContract.expect(error.code == PGResponseDecoder.rule(for: answer).code, "the error is the rule's")
    if let seconds = PGResponseDecoder.retryAfterSeconds(answer) {
        FuzzContract.expect(seconds >= 0, "Retry-After is never negative")
    }

    // A payment written as the gateway writes it reads back field for field.
    var tail = FuzzTail(bytes)
    let amount = tail.int64()
    let cancelled = tail.int64()
    let paidAt = tail.int64()
    let text = String(decoding: bytes.prefix(64), as: UTF8.self)
    let payment: [String: Any] = [
        "imp_uid": "imp_" + text, "merchant_uid": text, "amount": amount, "cancel_amount": cancelled,
        "status": "paid", "paid_at": paidAt,
    ]
    guard let body = try? JSONSerialization.data(withJSONObject: ["code": 0, "response": payment]) else { return 0 }
    let read = try? PGResponseDecoder.payload(PGPaymentPayload.self, from: TransportResponse(status: 200, body: body))
    FuzzContract.expect(read?.impUID == "imp_" + text && read?.merchantUID == text && read?.amount == amount
                        && read?.cancelAmount == cancelled && read?.paidAt == paidAt && read?.domain?.status == .paid,
                        "a payment reads back as written")
    return 0
}
