// Every HTTP request reaches KeyCatAPI.respond(to:) as whatever the client sent: any method,
// path, query, headers and body. The input reads like a request: `METHOD TARGET` on the first
// line, `name: value` header lines, a blank line, then the body. Its last byte decides whether
// a signed-in buyer's access token is added (when the input sends no Authorization of its own),
// so the routes behind the token are reached too.
// Contract: the API answers, never traps; no answer is a 5xx; every 4xx is a typed error
// (`application/json` with a `code` and a `message`, a 400 naming its `field` when it is a
// validation error); a 405 lists the methods in `Allow`; a 401 asks for a `Bearer` token; an
// answer to HEAD, a refusal too, keeps its headers and has no body.
import Foundation
@testable import KeyCat
@testable import KeyCatAPI
@testable import KeyCatDomain

/// One KeyCat over a file in a fresh temporary directory for the whole run, a buyer signed up in
/// it, and the API over it.
private let setup: (api: KeyCatAPI, token: String) = fromFuzzerThread {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-fuzz-api-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("api.db").path)
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        let keycat = try await KeyCat.open(configuration)
        _ = try await keycat.accounts.signUp(SignUpForm(email: "fuzz@keycat.test", password: "fuzz-password-1", nick: "fuzz"))
        let tokens = try await keycat.accounts.logIn(email: "fuzz@keycat.test", password: "fuzz-password-1")
        return (KeyCatAPI(keycat), tokens.accessToken)
    } catch {
        fatalError("the fuzz target's KeyCat could not be set up: \(error)")
    }
}

/// The request the input spells.
private func request(_ bytes: [UInt8]) -> APIRequest {
    let separator: [UInt8] = [0x0A, 0x0A]
    var headerEnd = bytes.count
    var bodyStart = bytes.count
    if bytes.count >= 2 {
        for index in 0..<(bytes.count - 1) where bytes[index] == separator[0] && bytes[index + 1] == separator[1] {
            headerEnd = index
            bodyStart = index + 2
            break
        }
    }
    let lines = String(decoding: bytes[..<headerEnd], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let first = (lines.first ?? "").split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
    var headers = APIHeaders()
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    }
    if headers["Authorization"] == nil, bytes.last.map({ $0 & 1 == 1 }) == true {
        headers["Authorization"] = "Bearer \(setup.token)"
    }
    return APIRequest(method: APIMethod(String(first.first ?? "")), target: first.count > 1 ? String(first[1]) : "",
                      headers: headers, body: Array(bytes[bodyStart...]), clientAddress: "203.0.113.9")
}

/// `respond(to:)` from libFuzzer's synchronous call.
private func respond(_ request: APIRequest) -> APIResponse {
    fromFuzzerThread { await setup.api.respond(to: request) }
}

/// Runs `body` on a task of its own and waits for its value on the calling thread: libFuzzer calls
/// the target synchronously, from a thread of its own that no task shares.
private func fromFuzzerThread<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let answer = Answer<Value>()
    let done = DispatchSemaphore(value: 0)
    Task {
        answer.set(await body())
        done.signal()
    }
    done.wait()
    return answer.get()
}

/// The value handed from the task back to the fuzzer's thread.
private final class Answer<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ value: Value) { lock.withLock { self.value = value } }
    func get() -> Value { lock.withLock { value! } }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func apiRequestFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let request = request(fuzzBytes(data, size))
    let response = respond(request)
    let what = "\(request.method) \(request.path)"
    FuzzContract.expect(response.status < 500, "\(what) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
    guard (400..<500).contains(response.status) else { return 0 }
    FuzzContract.expect(response.headers["Content-Type"] == "application/json", "\(what): a \(response.status) is JSON")
    // An answer to HEAD keeps the GET's headers and drops the body (RFC 9110 §9.3.2), a refusal's too.
    if request.method == .head {
        FuzzContract.expect(response.body.isEmpty, "\(what): an answer to HEAD has no body")
        return 0
    }
    let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
    let code = object?["code"] as? String
    FuzzContract.expect(code?.isEmpty == false && (object?["message"] as? String) != nil,
                        "\(what): a \(response.status) has a code and a message")
    if code == "validation" {
        FuzzContract.expect((object?["field"] as? String)?.isEmpty == false, "\(what): a validation error names its field")
    }
    if response.status == 405 {
        FuzzContract.expect(response.headers["Allow"]?.isEmpty == false, "\(what): a 405 lists Allow")
    }
    if response.status == 401 {
        FuzzContract.expect(response.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true, "\(what): a 401 asks for a Bearer token")
    }
    return 0
}
