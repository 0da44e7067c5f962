import Foundation
import HTTPTypes
import Hummingbird
import KeyCatAPI
import NIOCore

/// The console's cookies.
enum AdminCookie {
    /// The access token (15 minutes), sent only to `/admin/` paths.
    static let access = "keycat_admin_access"
    /// The refresh token, sent only to `/admin/` paths.
    static let refresh = "keycat_admin_refresh"
    /// The double-submit CSRF token: readable by the page, which echoes it in `X-CSRF-Token`.
    static let csrf = "keycat_admin_csrf"
    /// The device token a log-in answered, sent back with this browser's next log-ins (only to
    /// `/admin/session`): it outlives sessions, as the API's device tokens do.
    static let device = "keycat_admin_device"
}

/// One console request: its cookies, the client's address, and the answers' common shapes.
struct AdminExchange: Sendable {
    let cookies: [String: String]
    let csrfHeader: String?
    let ifNoneMatch: String?
    let clientAddress: String?
    let secure: Bool

    init(request: Request, peer: String?, trustedProxies: TrustedProxies, secureCookies: Bool) {
        var cookies: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if cookies[name] == nil { cookies[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        self.cookies = cookies
        csrfHeader = request.headers[HTTPField.Name("X-CSRF-Token")!]
        ifNoneMatch = request.headers[.ifNoneMatch]
        let headers = APIHeaders(request.headers.map { ($0.name.rawName, $0.value) })
        clientAddress = trustedProxies.clientAddress(peer: peer, headers: headers)
        let viaTrustedHTTPS = peer.map(trustedProxies.trusts) == true && request.headers[HTTPField.Name("X-Forwarded-Proto")!] == "https"
        secure = secureCookies || viaTrustedHTTPS
    }

    func cookie(_ name: String) -> String? { cookies[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// 403 `csrf` unless `X-CSRF-Token` equals the CSRF cookie (compared in constant time).
    func csrfRefusal() -> Response? {
        guard let cookie = cookie(AdminCookie.csrf), let header = csrfHeader, cookie.utf8.count == header.utf8.count,
              zip(cookie.utf8, header.utf8).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else {
            return Self.problem(403, "csrf", "this request's X-CSRF-Token does not match the console's; reload the page")
        }
        return nil
    }

    /// A request to KeyCatAPI from this client.
    func apiRequest(_ method: APIMethod, _ target: String, body: [UInt8] = [], contentType: String? = nil) -> APIRequest {
        var headers: APIHeaders = [:]
        if let contentType, !body.isEmpty { headers["Content-Type"] = contentType }
        if !body.isEmpty { headers["Content-Length"] = String(body.count) }
        return APIRequest(method: method, target: target, headers: headers, body: body, clientAddress: clientAddress)
    }

    func apiRequest(_ method: APIMethod, _ target: String, json: [String: String]) -> APIRequest {
        let body = (try? JSONSerialization.data(withJSONObject: json)).map(Array.init) ?? []
        return apiRequest(method, target, body: body, contentType: "application/json")
    }

    // MARK: - Cookies

    private func cookie(_ name: String, _ value: String, path: String, maxAge: Int, httpOnly: Bool = true) -> String {
        var text = "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); SameSite=Strict"
        if httpOnly { text += "; HttpOnly" }
        if secure { text += "; Secure" }
        return text
    }

    /// Sets the session's cookies from a token pair.
    func setSession(_ pair: AdminTokenPair, on headers: inout HTTPFields) {
        let now = Date()
        // The access token's cookie lives as long as the refresh token's: a genuine token past
        // its expiry still proves the session before a change's body is read (AdminConsole).
        let refreshAge = max(1, Int(pair.refreshTokenExpiresAt.timeIntervalSince(now)))
        headers.append(HTTPField(name: .setCookie, value: cookie(AdminCookie.access, pair.accessToken, path: "/admin/", maxAge: refreshAge)))
        headers.append(HTTPField(name: .setCookie, value: cookie(AdminCookie.refresh, pair.refreshToken, path: "/admin/", maxAge: refreshAge)))
    }

    /// Clears the session's cookies (the CSRF token stays: it belongs to the page).
    func clearSession(on headers: inout HTTPFields) {
        headers.append(HTTPField(name: .setCookie, value: cookie(AdminCookie.access, "", path: "/admin/", maxAge: 0)))
        headers.append(HTTPField(name: .setCookie, value: cookie(AdminCookie.refresh, "", path: "/admin/", maxAge: 0)))
    }

    /// A CSRF cookie for a page that has none: 32 random bytes, readable by the page's script.
    func csrfCookieIfMissing(on headers: inout HTTPFields) {
        guard cookie(AdminCookie.csrf) == nil else { return }
        renewCSRF(on: &headers)
    }

    /// A new CSRF cookie, at sign-in: a token someone planted before cannot outlive it. The page
    /// reads the cookie for each request, so the next one sends the new token.
    func renewCSRF(on headers: inout HTTPFields) {
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        headers.append(HTTPField(name: .setCookie, value: cookie(AdminCookie.csrf, token, path: "/admin/", maxAge: 14 * 86_400, httpOnly: false)))
    }

    /// The page's log-in body with this browser's device token added, when it has one and the
    /// body is a JSON object without one; any other body goes as it came, for the API to judge.
    func withDeviceToken(_ body: [UInt8]) -> [UInt8] {
        guard let device = cookie(AdminCookie.device),
              var object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any], object["device_token"] == nil,
              JSONSerialization.isValidJSONObject(object) else { return body }
        object["device_token"] = device
        return (try? JSONSerialization.data(withJSONObject: object)).map(Array.init) ?? body
    }

    /// Keeps the device token a log-in answered, until it expires.
    func setDeviceToken(from body: [UInt8], on headers: inout HTTPFields) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              let token = object["device_token"] as? String, !token.isEmpty,
              token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }) else { return }
        let expires = (object["device_token_expires_at"] as? String).flatMap(AdminTokenPair.date(from:)) ?? Date().addingTimeInterval(30 * 86_400)
        let age = max(1, Int(expires.timeIntervalSinceNow))
        headers.append(HTTPField(name: .setCookie, value: cookie(AdminCookie.device, token, path: "/admin/session", maxAge: age)))
    }

    /// 401 with the session's cookies cleared: sign in again.
    func signedOut() -> Response {
        var response = Self.problem(401, "not_signed_in", "the console's session has ended; sign in again")
        clearSession(on: &response.headers)
        return response
    }

    // MARK: - Answers

    static func response(_ answer: APIResponse) -> Response {
        var fields = HTTPFields()
        for field in answer.headers {
            if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    static func json(_ object: [String: any Sendable], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func problem(_ status: Int, _ code: String, _ message: String) -> Response {
        json(["code": code, "message": message], status: .init(code: status))
    }
}

/// The tokens a log-in or refresh answered, as the console needs them.
struct AdminTokenPair: Sendable {
    var accessToken: String
    var accessTokenExpiresAt: Date
    var refreshToken: String
    var refreshTokenExpiresAt: Date
    var userID: Int64
    var role: String

    init?(_ body: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let access = object["access_token"] as? String, let refresh = object["refresh_token"] as? String,
              let role = object["role"] as? String, let userID = (object["user_id"] as? NSNumber)?.int64Value else { return nil }
        func date(_ key: String) -> Date {
            (object[key] as? String).flatMap(Self.date(from:)) ?? Date().addingTimeInterval(60)
        }
        accessToken = access
        refreshToken = refresh
        accessTokenExpiresAt = date("access_token_expires_at")
        refreshTokenExpiresAt = date("refresh_token_expires_at")
        self.userID = userID
        self.role = role
    }

    /// An RFC 3339 time as the API writes it, with or without fractional seconds.
    static func date(from text: String) -> Date? {
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return dates.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}

/// What a refresh came to: a new pair; the refresh token refused (the session is over); or no
/// answer to act on now (the API busy or its database away), which ends nothing.
enum AdminRefresh: Sendable {
    case renewed(AdminTokenPair)
    case refused
    case unavailable(APIResponse)
}

/// Refreshes a session once however many of its requests find the access token expired at the
/// same moment: refresh tokens rotate on every use and a second use revokes the family, so the
/// requests that arrive with the same old token share one refresh and its answer. The answer is
/// kept ``window`` only: long enough for requests sent together, short enough that an old token
/// presented later meets the API's reuse detection. A refresh that came to nothing to act on
/// (``AdminRefresh/unavailable(_:)``) is forgotten once answered, so the next request tries again.
actor AdminSessionRefresher {
    static let window: TimeInterval = 10
    private var recent: [String: (at: Date, task: Task<AdminRefresh, Never>)] = [:]

    func refresh(_ token: String, api: KeyCatAPI, exchange: AdminExchange) async -> AdminRefresh {
        let now = Date()
        recent = recent.filter { now.timeIntervalSince($0.value.at) < Self.window }
        if let shared = recent[token] { return await shared.task.value }
        let request = exchange.apiRequest(.post, "/sessions/refresh", json: ["refresh_token": token])
        let task = Task { () -> AdminRefresh in
            let answer = await api.respond(to: request)
            switch answer.status {
            case 200: return AdminTokenPair(answer.body).map(AdminRefresh.renewed) ?? .refused  // never forward a body of tokens
            // Refused: the token is unknown, expired, reused or revoked (400 `invalid_grant`,
            // 401, or 418 under the KeyCat app's status profile).
            case 400, 401, 418: return .refused
            default: return .unavailable(answer)
            }
        }
        recent[token] = (now, task)
        let outcome = await task.value
        if case .unavailable = outcome, recent[token]?.at == now { recent[token] = nil }
        return outcome
    }
}
