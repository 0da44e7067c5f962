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
///   to a signed-in operator.
/// - `/admin/api/{path}`: `{path}` on KeyCatAPI (but the routes that answer with tokens). A 401
///   for an expired access token is answered by refreshing once (``AdminSessionRefresher``) and
///   repeating the request.
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

    // MARK: - Sessions

    private func session(_ request: Request, _ exchange: AdminExchange) async throws -> Response {
        switch request.method {
        case .get:
            // Nobody signed in is an answer, not an error: the page asks this on every load.
            guard exchange.cookie(AdminCookie.access) != nil || exchange.cookie(AdminCookie.refresh) != nil else {
                return AdminExchange.json(["signed_in": false])
            }
            var response = try await forward(request, exchange, to: "/me")
            if response.status == .unauthorized {
                response.status = .ok
                response.body = .init(byteBuffer: ByteBuffer(string: #"{"signed_in":false}"#))
            }
            return response
        case .post:
            if let refusal = exchange.csrfRefusal() { return refusal }
            var request = request
            let body = Array(buffer: try await request.collectBody(upTo: 64 * 1024))
            let answer = await api.respond(to: exchange.apiRequest(.post, "/sessions", body: body, contentType: "application/json"))
            guard answer.status == 200, let pair = AdminTokenPair(answer.body) else { return AdminExchange.response(answer) }
            guard pair.role == "admin" else {
                // A buyer or seller gets a clear refusal, and no session: the one just made ends here.
                _ = await api.respond(to: exchange.apiRequest(.post, "/sessions/logout", json: ["refresh_token": pair.refreshToken]))
                return AdminExchange.problem(403, "not_an_operator",
                                             "the console is for operators; this account is a \(pair.role), not an admin")
            }
            var response = AdminExchange.json(["user_id": pair.userID, "role": pair.role])
            exchange.setSession(pair, on: &response.headers)
            return response
        default:
            return AdminExchange.problem(405, "method_not_allowed", "\(request.method) is not allowed on /admin/session")
        }
    }

    private func logOut(_ request: Request, _ exchange: AdminExchange) async throws -> Response {
        guard request.method == .post else {
            return AdminExchange.problem(405, "method_not_allowed", "\(request.method) is not allowed on /admin/session/logout")
        }
        if let refusal = exchange.csrfRefusal() { return refusal }
        if let refresh = exchange.cookie(AdminCookie.refresh) {
            _ = await api.respond(to: exchange.apiRequest(.post, "/sessions/logout", json: ["refresh_token": refresh]))
        }
        var response = Response(status: .noContent)
        exchange.clearSession(on: &response.headers)
        return response
    }

    /// The last reconciliation run, once the session proves to be an operator's (the API's
    /// `GET /me`, refreshed as any request is).
    private func reconciliationStatus(_ request: Request, _ exchange: AdminExchange) async throws -> Response {
        let me = try await forward(request, exchange, to: "/me")
        guard me.status == .ok else { return me }
        var response = AdminExchange.json(reconciliation.json)
        for cookie in me.headers[values: .setCookie] { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return response
    }

    // MARK: - The API

    /// `path` on KeyCatAPI with the session's access token, refreshed once when it has expired.
    private func forward(_ request: Request, _ exchange: AdminExchange, to path: String) async throws -> Response {
        let changes = request.method != .get && request.method != .head
        if changes, let refusal = exchange.csrfRefusal() { return refusal }
        var request = request
        let body = changes ? Array(buffer: try await request.collectBody(upTo: 2 << 20)) : []
        let target = path + (request.uri.query.map { "?" + $0 } ?? "")
        var apiRequest = exchange.apiRequest(APIMethod(request.method.rawValue), target, body: body,
                                             contentType: request.headers[.contentType])
        if let key = request.headers[HTTPField.Name("Idempotency-Key")!] { apiRequest.headers["Idempotency-Key"] = key }

        var renewed: AdminTokenPair?
        var access = exchange.cookie(AdminCookie.access)
        if access == nil, let refresh = exchange.cookie(AdminCookie.refresh) {
            renewed = await refresher.refresh(refresh, api: api, exchange: exchange)
            access = renewed?.accessToken
        }
        guard let access else { return exchange.signedOut() }
        apiRequest.headers["Authorization"] = "Bearer \(access)"
        var answer = await api.respond(to: apiRequest)
        if answer.status == 401, renewed == nil, let refresh = exchange.cookie(AdminCookie.refresh) {
            renewed = await refresher.refresh(refresh, api: api, exchange: exchange)
            guard let renewed else { return exchange.signedOut() }
            apiRequest.headers["Authorization"] = "Bearer \(renewed.accessToken)"
            answer = await api.respond(to: apiRequest)
        }
        if let renewed, renewed.role != "admin" {
            // No longer an operator (an operator changed the role): the session ends here.
            _ = await api.respond(to: exchange.apiRequest(.post, "/sessions/logout", json: ["refresh_token": renewed.refreshToken]))
            return exchange.signedOut()
        }
        var response = AdminExchange.response(answer)
        response.headers[.cacheControl] = "no-store"
        if let renewed { exchange.setSession(renewed, on: &response.headers) }
        if answer.status == 401 { exchange.clearSession(on: &response.headers) }
        return response
    }
}
