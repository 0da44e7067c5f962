import Foundation
import HTTPTypes
import Hummingbird
import KeyCatAPI
import NIOCore

/// The operators' console at `/admin/`: its static files, a session held in cookies, and
/// `/admin/api/…`, which forwards to ``KeyCatAPI`` with the session's access token, so the
/// console calls the very routes any client calls (no second set of rules).
///
/// - `GET /admin/` and `/admin/{file}`: the console's files (``AdminConsoleAssets``).
/// - `POST /admin/session`: signs in through `POST /sessions`; an account that is not an
///   operator is refused (403) and its new session logged out at once.
/// - `GET /admin/session`: who is signed in (the API's `GET /me`), or `{"signed_in": false}`.
/// - `POST /admin/session/logout`: logs the session out (`POST /sessions/logout`).
/// - `GET /admin/reconciliation`: this server's last reconciliation run (``ReconciliationRecord``),
///   to a signed-in operator (403 to anyone else).
/// - `/admin/api/{path}`: `{path}` on KeyCatAPI (but the routes that answer with tokens). A 401
///   (419 under the KeyCat app's status profile) for an expired access token is answered by
///   refreshing once (``AdminSessionRefresher``) and repeating the request.
///
/// Tokens never reach the page: both live in `HttpOnly`, `SameSite=Strict` cookies (`Secure`
/// behind https), both scoped to `/admin/`. Every request that changes
/// something must carry `X-CSRF-Token` equal to the `keycat_admin_csrf` cookie (a double-submit
/// token, set by the console's page and renewed at sign-in); otherwise 403 `csrf`. Every answer
/// carries a strict Content-Security-Policy: scripts and styles from the console's own files only.
struct AdminConsoleMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    static var prefix: String { "/admin" }
    let api: KeyCatAPI
    let assets: AdminConsoleAssets
    let refresher: AdminSessionRefresher
    /// This server's last reconciliation run, for the dashboard.
    let reconciliation: ReconciliationRecord
    var trustedProxies: TrustedProxies = .none
    /// Cookies are `Secure` always (`KEYCAT_CONSOLE_SECURE_COOKIES=1`), or when a trusted proxy
    /// says the request came over https (`X-Forwarded-Proto`).
    var secureCookies = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path == Self.prefix || path.hasPrefix(Self.prefix + "/") else { return try await next(request, context) }
        let exchange = AdminExchange(request: request, peer: context.remoteAddress?.ipAddress, trustedProxies: trustedProxies,
                                     secureCookies: secureCookies)
        var response: Response
        switch (request.method, path) {
        case (.get, Self.prefix), (.head, Self.prefix):
            response = Response(status: .seeOther, headers: [.location: Self.prefix + "/"])
        case (_, Self.prefix + "/session"):
            response = try await session(request, exchange)
        case (_, Self.prefix + "/session/logout"):
            response = try await logOut(request, exchange)
        case (.get, Self.prefix + "/reconciliation"):
            response = try await reconciliationStatus(request, exchange)
        case (_, _) where path.hasPrefix(Self.prefix + "/api/"):
            let apiPath = String(path.dropFirst((Self.prefix + "/api").count))
            if Self.answersWithTokens(apiPath) {
                response = AdminExchange.problem(404, "route_not_found", "the console does not forward \(apiPath): its answer holds tokens")
            } else {
                response = try await forward(request, exchange, to: apiPath)
            }
        case (.get, _), (.head, _):
            response = assets.response(for: String(path.dropFirst(Self.prefix.count + 1)), exchange: exchange)
        default:
            response = AdminExchange.problem(405, "method_not_allowed", "\(request.method) is not allowed on \(path)")
        }
        Self.secure(&response.headers)
        return response
    }

    /// The API's routes whose answers hold tokens (log-in, refresh, a password change): the
    /// console's page never sees a token, so `/admin/api/` does not forward them; the session
    /// has its own `/admin/session`.
    static func answersWithTokens(_ path: String) -> Bool {
        path == "/sessions" || path.hasPrefix("/sessions/") || path == "/me/password"
    }

    /// The headers every console answer carries.
    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
    }

    // MARK: - The API

    /// `path` on KeyCatAPI with the session's access token, refreshed once when it has expired.
    ///
    /// A change's body is read only once its head is admitted with the session's token
    /// (``KeyCatAPI/admit(_:)``, as the API's own middleware does), and at most up to its route's
    /// limit: the CSRF check alone proves nothing of the sender, who can set both the cookie and
    /// the header, and until 2026-12-01 anyone could make the console buffer 2 MiB per request
    /// before learning they were not signed in. A genuine token past its expiry proves the
    /// session too (its cookie lives as long as the refresh token's): the body is then read, up
    /// to ``expiredSessionBodyLimit``, before the session is renewed, so the renewed cookies go
    /// back with the answer at once and no other request of the page presents the retired
    /// refresh token while a slow body is read (which the API would take for a stolen token's
    /// reuse and end the session).
    func forward(_ request: Request, _ exchange: AdminExchange, to path: String) async throws -> Response {
        let changes = request.method != .get && request.method != .head
        if changes, let refusal = exchange.csrfRefusal() { return refusal }
        let target = path + (request.uri.query.map { "?" + $0 } ?? "")
        let method = APIMethod(request.method.rawValue)
        var body: [UInt8] = []
        var renewed: AdminTokenPair?
        if changes {
            var head = exchange.apiRequest(method, target)
            for name in [HTTPField.Name.contentType, .contentLength, .transferEncoding] {
                if let value = request.headers[name] { head.headers[name.rawName] = value }
            }
            var admitted: APIAdmission?  // nil: an expired session's, whose route's limit is not known yet
            switch await self.admitted(head, exchange) {
            case let .admitted(admission, pair): (admitted, renewed) = (admission, pair)
            case .expired: break
            case let .instead(response): return response
            }
            let limit = admitted?.bodyLimit ?? Self.expiredSessionBodyLimit
            var request = request
            if limit > 0 {
                do {
                    body = Array(buffer: try await request.collectBody(upTo: limit))
                } catch let error as HTTPError where error.status == .contentTooLarge {
                    guard let admitted else {
                        return AdminExchange.problem(413, "payload_too_large", "the body is larger than this route takes")
                    }
                    return answer(admitted.bodyTooLarge, renewed: renewed, exchange)
                }
            }
        }
        var apiRequest = exchange.apiRequest(method, target, body: body, contentType: request.headers[.contentType])
        if let key = request.headers[HTTPField.Name("Idempotency-Key")!] { apiRequest.headers["Idempotency-Key"] = key }
        switch await call(apiRequest, exchange, renewed: renewed) {
        case let .answered(answer, renewed): return self.answer(answer, renewed: renewed, exchange)
        case let .instead(response): return response
        }
    }

    /// The most a change whose session's access token has expired may send: the console's own
    /// forms are far smaller, and the route's own limit is known only once the head is admitted
    /// with a live token.
    static var expiredSessionBodyLimit: Int { 2 << 20 }

    private enum Admission {
        /// Admitted with the session's token (`renewed`, when there was none to send).
        case admitted(APIAdmission, renewed: AdminTokenPair?)
        /// Refused only because the session's genuine access token has expired.
        case expired
        case instead(Response)
    }

    /// `head` judged by the API with the session's access token. Without one (a session from
    /// before its cookie outlived the token), the session is renewed first; any other refusal
    /// is answered as the API answered it.
    private func admitted(_ head: APIRequest, _ exchange: AdminExchange) async -> Admission {
        var head = head
        var renewed: AdminTokenPair?
        if exchange.cookie(AdminCookie.access) == nil {
            switch await renew(exchange) {
            case let .renewed(pair): renewed = pair
            case let .instead(response): return .instead(response)
            }
        }
        guard let access = renewed?.accessToken ?? exchange.cookie(AdminCookie.access) else { return .instead(exchange.signedOut()) }
        head.headers["Authorization"] = "Bearer \(access)"
        let admission = await api.admit(head)
        guard let refusal = admission.refusal else { return .admitted(admission, renewed: renewed) }
        if renewed == nil, Self.refusesToken(refusal.status), Self.code(of: refusal) == "access_token_expired" { return .expired }
        return .instead(answer(refusal, renewed: renewed, exchange))
    }

    /// The `code` of a problem answer, if it has one.
    private static func code(of answer: APIResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["code"] as? String
    }

    /// How a call through the session ended: the API answered (with the session renewed on the
    /// way, or not), or the console answers instead (signed out, or the refresh could not be
    /// made now).
    enum CallOutcome {
        case answered(APIResponse, renewed: AdminTokenPair?)
        case instead(Response)
    }

    /// `apiRequest` with the session's access token. An access token the API refuses (401, or
    /// 419 under the KeyCat app's status profile), or none, is renewed once from the refresh
    /// token and the request sent again.
    func call(_ apiRequest: APIRequest, _ exchange: AdminExchange, renewed: AdminTokenPair? = nil) async -> CallOutcome {
        var apiRequest = apiRequest
        var renewed = renewed
        if renewed == nil, exchange.cookie(AdminCookie.access) == nil {
            switch await renew(exchange) {
            case let .renewed(pair): renewed = pair
            case let .instead(response): return .instead(response)
            }
        }
        guard let access = renewed?.accessToken ?? exchange.cookie(AdminCookie.access) else { return .instead(exchange.signedOut()) }
        apiRequest.headers["Authorization"] = "Bearer \(access)"
        var answer = await api.respond(to: apiRequest)
        if Self.refusesToken(answer.status), renewed == nil {
            switch await renew(exchange) {
            case let .renewed(pair):
                renewed = pair
                apiRequest.headers["Authorization"] = "Bearer \(pair.accessToken)"
                answer = await api.respond(to: apiRequest)
            case let .instead(response): return .instead(response)
            }
        }
        return .answered(answer, renewed: renewed)
    }

    /// The API's answer as the console sends it: never stored, with the renewed session's
    /// cookies, or with the session's cleared when the API still refuses its token.
    func answer(_ answer: APIResponse, renewed: AdminTokenPair?, _ exchange: AdminExchange) -> Response {
        var response = AdminExchange.response(answer)
        response.headers[.cacheControl] = "no-store"
        if let renewed { exchange.setSession(renewed, on: &response.headers) }
        if Self.refusesToken(answer.status) { exchange.clearSession(on: &response.headers) }
        return response
    }

    private enum Renewal {
        case renewed(AdminTokenPair)
        case instead(Response)
    }

    /// The session renewed from its refresh cookie, before it is used for anything. A refresh
    /// the API refuses signs the console out; so does an account that is no longer an
    /// operator (an operator changed its role), whose new session is logged out here. A
    /// refresh that could not be made now (the API busy, its database away) is answered as the
    /// API answered it, and the session's cookies stay for the next try.
    private func renew(_ exchange: AdminExchange) async -> Renewal {
        guard let refresh = exchange.cookie(AdminCookie.refresh) else { return .instead(exchange.signedOut()) }
        switch await refresher.refresh(refresh, api: api, exchange: exchange) {
        case let .renewed(pair) where pair.role == "admin":
            return .renewed(pair)
        case let .renewed(pair):
            _ = await api.respond(to: exchange.apiRequest(.post, "/sessions/logout", json: ["refresh_token": pair.refreshToken]))
            return .instead(exchange.signedOut())
        case .refused:
            return .instead(exchange.signedOut())
        case let .unavailable(answer):
            var response = AdminExchange.response(answer)
            response.headers[.cacheControl] = "no-store"
            return .instead(response)
        }
    }

    /// Whether the API refused the access token itself: 401, or 419 (expired or revoked) under
    /// the KeyCat app's status profile.
    static func refusesToken(_ status: Int) -> Bool { status == 401 || status == 419 }
}
