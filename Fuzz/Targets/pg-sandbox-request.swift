// The PG sandbox serves the simulator to any HTTP client, and KeyCat's webhook route takes
// PortOne's unsigned notifications from anyone: method, path, query, headers and body are
// whatever the sender chose. The input reads like a request: a first line `METHOD /path?query`,
// `name: value` header lines, a blank line, then the body.
// Contract: a request to one of v1's endpoints is answered with v1's envelope — a JSON object
// whose `code` is an integer, `response` null unless `code` is 0 — with 200, 400 or 404; form
// fields decoded, encoded again and decoded give the same fields; a notification body parses to
// a hint or to nothing.
import Foundation
@testable import KeyCat
@testable import KeyCatInfrastructure
@testable import KeyCatPGSimulator

/// One in-memory simulator for the whole run, emptied now and then so it does not grow.
private let simulator = try? PGSimulator()
nonisolated(unsafe) private var runs = 0

private func request(_ bytes: [UInt8]) -> TransportRequest {
    let text = String(decoding: bytes, as: UTF8.self)
    let parts = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
    var lines = parts[0].split(separator: "\n", omittingEmptySubsequences: false)
    let first = lines.isEmpty ? "" : lines.removeFirst()
    let requestLine = first.split(separator: " ", maxSplits: 1)
    let method = requestLine.first.flatMap { TransportMethod(rawValue: String($0)) } ?? .post
    var headers: [String: String] = [:]
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let body = parts.count > 1 ? Data(parts[1].utf8) : Data()
    return TransportRequest(method: method, path: requestLine.count > 1 ? String(requestLine[1]) : "/", headers: headers, body: body)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func pgSandboxRequestFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let call = request(bytes)

    // 1. The simulator's router, past the token check (which only compares a header).
    if let simulator, let endpoint = PGEndpoint(method: call.method.rawValue, path: call.pathWithoutQuery) {
        runs += 1
        if runs % 500 == 0 { try? simulator.reset() }
        let answer = simulator.route(call, endpoint: endpoint)
        FuzzContract.expect([200, 400, 404].contains(answer.status), "v1's statuses only, got \(answer.status)")
        let envelope = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        let code = envelope?["code"] as? Int
        FuzzContract.expect(code != nil, "every answer is v1's envelope with an integer code")
        FuzzContract.expect(code == 0 || envelope?["response"] is NSNull, "a refusal's response is null")
        FuzzContract.expect(code != 0 || answer.status == 200, "code 0 only with 200")
    }

    // 2. The body as a form: decode, encode, decode again.
    let text = String(decoding: call.body, as: UTF8.self)
    let fields = FormEncoding.fields(text)
    let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    let encoded = fields.map { field in
        [field.name, field.value].map { $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }.joined(separator: "=")
    }.joined(separator: "&")
    let again = FormEncoding.fields(encoded)
    FuzzContract.expect(again.map(\.name) == fields.map(\.name) && again.map(\.value) == fields.map(\.value),
                        "form fields survive encoding and decoding")
    _ = call.queryParameters

    // 3. The body as PortOne's notification, as JSON and as a form.
    for contentType in [nil, "application/x-www-form-urlencoded"] {
        if let hint = PortOneNotification(body: call.body, contentType: contentType) {
            FuzzContract.expect((1...100).contains(hint.merchantUID.count), "a hint names a merchant UID of 1–100 characters")
        }
    }
    return 0
}
