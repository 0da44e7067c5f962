import Foundation
import KeyCat

/// KeyCat's REST API as one function: a route table over the use cases and
/// ``respond(to:)``, which any server framework calls with the request as plain values.
///
/// ```swift
/// let api = KeyCatAPI(keycat)
/// let response = await api.respond(to: APIRequest(method: "GET", target: "/products?limit=5"))
/// ```
///
/// The contract (`openapi.yaml`): bearer access tokens, standard statuses (404 for a missing
/// thing, 401 with `WWW-Authenticate: Bearer error="invalid_token"` to refresh, 400
/// `invalid_grant` to log in again, 403 for someone else's), every error body carrying a stable
/// `code`; lists are `{"items": [...], "next_cursor": …}` with `next`/`limit`; snake_case JSON.
/// An unknown path is 404, a known path with another method 405 with `Allow`, a bad body or
/// query 400 naming the field (a query parameter the route does not declare, too), a body over
/// the route's limit 413, a body that is not JSON where JSON is
/// expected 415. Bad input never answers 500. A server whose app was built against the KeyCat
/// app's old statuses (410, 418, 419, 445) opts into ``HTTPStatusProfile/keyCatApp``.
///
/// A server should call ``admit(_:)`` with the head first: the route, the token and the
/// announced body are judged before any body byte is read, and the body is then read only up
/// to the route's own limit (``APIAdmission/bodyLimit``).
public struct KeyCatAPI: Sendable {
    public let keycat: KeyCat
    /// The statuses errors are answered with. Default ``HTTPStatusProfile/standard``.
    public let statusProfile: HTTPStatusProfile
    /// The route table by the number of segments in each path: a path is only tried against
    /// the routes it could match.
    let routesBySegmentCount: [Int: [Route]]
    /// The catalog reads' answers, kept while the store has not changed (``CatalogCache``).
    let catalogCache = CatalogCache()
    /// Where a line goes for each answer of 500 or above: the route and the whole error, which
    /// the answer's body does not carry (a client learns only that the database or the gateway
    /// failed, never why).
    let serverErrors: (any LogSink)?

    /// - Parameters:
    ///   - statusProfile: the statuses errors are answered with.
    ///   - serverErrors: where each 5xx answer's cause is written, one line per answer (for
    ///     a server, its logger at error level); nil writes none.
    public init(_ keycat: KeyCat, statusProfile: HTTPStatusProfile = .standard, serverErrors: (any LogSink)? = nil) {
        self.keycat = keycat
        self.statusProfile = statusProfile
        self.serverErrors = serverErrors
        routesBySegmentCount = Dictionary(grouping: Self.routeTable) { $0.path.segments.count }
    }

    /// Every route, grouped by resource. Two routes that one request could match are a
    /// programming error, caught here when the table is first built (``Route/clashes(in:)``).
    static let routeTable: [Route] = {
        let table = AccountRoutes.routes + SellerRoutes.routes + ProductRoutes.routes + SearchRoutes.routes + ReviewRoutes.routes
            + BookmarkRoutes.routes + FollowRoutes.routes + CartRoutes.routes + CheckoutRoutes.routes
            + OrderRoutes.routes + FulfilmentRoutes.routes + ReceiptRoutes.routes + WebhookRoutes.routes
            + AdminRoutes.routes + SearchOperatorRoutes.routes
        let clashes = Route.clashes(in: table)
        precondition(clashes.isEmpty, "routes that one request could match: \(clashes)")
        return table
    }()

    /// The route table as data (method, path, access, body, query, status).
    public static var routes: [RouteDescription] { routeTable.map(\.description) }

    /// Answers one request. Never throws: every error becomes its status and JSON body.
    ///
    /// The same as ``admit(_:)`` on the request's head, then ``respond(to:admitted:)``.
    public func respond(to request: APIRequest) async -> APIResponse {
        await respond(to: request, admitted: admit(request))
    }

    /// Judges a request by its head alone (method, target, headers; the body is not looked at),
    /// so a server can refuse it before reading a byte of the body, and read at most the matched
    /// route's limit otherwise.
    ///
    /// In order: an unknown path is 404 and a known path with another method 405; a route for
    /// signed-in users without a valid access token is 401 (419 for an expired or revoked one)
    /// and a role that may not call it 403; a `Content-Length` over the route's limit is 413; a
    /// body announced (`Content-Length` above 0 or `Transfer-Encoding`) with a media type the
    /// route does not take is 415; a query parameter the route does not declare, one given
    /// twice, or one whose percent-encoding is not UTF-8, is 400 naming it.
    public func admit(_ head: APIRequest) async -> APIAdmission {
        let admission = await judge(head)
        guard let refusal = admission.refusal else { return admission }
        return APIAdmission(refusal: Self.finished(refusal, method: head.method))
    }

    /// ``admit(_:)``'s judgement, before its refusal is ``finished(_:method:)``.
    private func judge(_ head: APIRequest) async -> APIAdmission {
        let parts = head.path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map(Substring.init)
        // Only the canonical spelling of a path names a route: `//users`, `/users/`, `/./users`
        // and `/users/../orders` name nothing, so a proxy, a cache key or a log that reads paths
        // literally never sees one resource under two names.
        guard head.path.hasPrefix("/"), head.path == "/" || !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else {
            return APIAdmission(refusal: .problem(404, "route_not_found", "no route for \(head.path)"))
        }
        // Each route's path is tried in place, and only the one that matches is copied out: at
        // most one route per method matches a path (``Route/clashes(in:)``).
        let candidates = routesBySegmentCount[parts.count] ?? []
        var matched: (route: Route, parameters: [String: String])?
        // Without a match, the loop has seen every route: these are all the path's methods.
        var otherMethods: Set<String> = []
        for index in candidates.indices {
            guard let parameters = candidates[index].path.match(parts) else { continue }
            // HEAD is GET without the body (RFC 9110 §9.3.2): every GET route answers it.
            guard candidates[index].method == head.method || (head.method == .head && candidates[index].method == .get) else {
                otherMethods.insert(candidates[index].method.rawValue)
                continue
            }
            matched = (candidates[index], parameters)
            break
        }
        guard let (route, parameters) = matched else {
            guard !otherMethods.isEmpty else {
                return APIAdmission(refusal: .problem(404, "route_not_found", "no route for \(head.path)"))
            }
            var response = APIResponse.problem(405, "method_not_allowed", "\(head.method) is not allowed on \(head.path)")
            if otherMethods.contains(APIMethod.get.rawValue) { otherMethods.insert(APIMethod.head.rawValue) }
            response.headers["Allow"] = otherMethods.sorted().joined(separator: ", ")
            return APIAdmission(refusal: response)
        }
        let caller: Principal?
        do {
            caller = try await authenticate(head, for: route.access)
        } catch {
            return APIAdmission(refusal: response(for: error, on: route.description))
        }
        if let refusal = Self.checkHead(of: head, for: route.body) { return APIAdmission(refusal: refusal) }
        do {
            try Self.checkQuery(of: head, for: route.description)
        } catch {
            return APIAdmission(refusal: response(for: error, on: route.description))
        }
        return APIAdmission(route: route, parameters: parameters, caller: caller)
    }

    /// Answers a request ``admit(_:)`` judged by its head, now with its body (read up to
    /// ``APIAdmission/bodyLimit``). Never throws: every error becomes its status and JSON body.
    public func respond(to request: APIRequest, admitted admission: APIAdmission) async -> APIResponse {
        if let refusal = admission.refusal { return refusal }
        guard let route = admission.route else {
            return Self.finished(.problem(404, "route_not_found", "no route for \(request.path)"), method: request.method)
        }
        if let refusal = Self.checkBody(of: request, for: route.body) { return Self.finished(refusal, method: request.method) }
        let response: APIResponse
        do {
            let context = RequestContext(request: request, keycat: keycat, parameters: admission.parameters,
                                         caller: admission.caller, route: route.description, cache: catalogCache)
            if route.waitsOnStorage {
                response = try await keycat.onStorageThreads { try await route.handler(context) }
            } else {
                response = try await route.handler(context)
            }
        } catch {
            response = self.response(for: error, on: route.description)
        }
        return Self.finished(response, method: request.method)
    }

    /// What every answer gets last. One that says nothing of caching is not stored anywhere: it
    /// is a caller's own (an order, a profile, a cart), a token pair (RFC 6749 §5.1), a refusal,
    /// or the outcome of a change; only the catalog's reads, the same for everyone, and its
    /// images say otherwise. An answer to HEAD keeps the GET's headers, its length among them,
    /// and drops the body.
    static func finished(_ response: APIResponse, method: APIMethod) -> APIResponse {
        var response = response
        if response.headers["Cache-Control"] == nil { response.headers["Cache-Control"] = "no-store" }
        if method == .head {
            // A 304 or 204 carries no length of its own (RFC 9110 §8.6): only the GET's would do.
            if response.headers["Content-Length"] == nil, response.status != 304, response.status != 204, response.status >= 200 {
                response.headers["Content-Length"] = String(response.body.count)
            }
            response.body = []
        }
        return response
    }

    /// The answer for an error a handler or the authentication threw, in this API's status
    /// profile (with RFC 6750's challenge on a 401); a 5xx answer's cause goes to
    /// ``serverErrors``.
    func response(for error: any Error, on route: RouteDescription) -> APIResponse {
        let response = APIResponse.error(error, profile: statusProfile)
        if response.status >= 500, let serverErrors, serverErrors.isEnabled {
            serverErrors.write("\(route) answered \(response.status): \(error)")
        }
        return response
    }

    /// 413 for a `Content-Length` over the route's limit, 415 for an announced body of a media
    /// type the route does not take. A route that takes no body ignores one.
    static func checkHead(of head: APIRequest, for body: RouteBody) -> APIResponse? {
        guard body != .none else { return nil }
        let length = head.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let length, length > body.limit { return tooLarge(body) }
        guard (length ?? 0) > 0 || head.headers["Transfer-Encoding"] != nil else { return nil }
        return checkMediaType(of: head, for: body)
    }

    /// 413 for a body over the route's limit, 415 for a JSON route sent something else.
    static func checkBody(of request: APIRequest, for body: RouteBody) -> APIResponse? {
        guard body != .none, !request.body.isEmpty else { return nil }
        guard request.body.count <= body.limit else { return tooLarge(body) }
        return checkMediaType(of: request, for: body)
    }

    /// 400 `validation` naming a query parameter the route does not declare, or one given more
    /// than once: a route reads only what it declares (``RouteDescription/query``, as
    /// openapi.yaml lists it), so anything else is a client's mistake (`?limt=5` would otherwise
    /// be a default page), and would be a way to spell one request many ways. A parameter whose
    /// percent-encoding is not UTF-8 (``APIRequest/undecodableQuery``) is refused too: searching
    /// for its escapes as text would answer a question nobody asked.
    static func checkQuery(of head: APIRequest, for route: RouteDescription) throws(KeyCatError) {
        guard !head.query.isEmpty else { return }
        var seen: Set<String> = []
        for (name, _) in head.query {
            guard !name.isEmpty else { throw .validation("query", "a query parameter needs a name") }
            guard route.query.contains(name) else {
                let allowed = route.query.isEmpty ? "it takes none" : "it takes \(route.query.joined(separator: ", "))"
                throw .validation(name, "\(route) has no query parameter \(name): \(allowed)")
            }
            guard seen.insert(name).inserted else { throw .validation(name, "\(name) is given more than once") }
            guard !head.undecodableQuery.contains(name) else {
                throw .validation(name, "\(name) is not valid percent-encoded UTF-8")
            }
        }
    }

    static func tooLarge(_ body: RouteBody) -> APIResponse {
        .problem(413, "payload_too_large", "the body is over this route's limit of \(body.limit) bytes",
                 extra: ["limit": String(body.limit)])
    }

    static func checkMediaType(of request: APIRequest, for body: RouteBody) -> APIResponse? {
        switch body {
        case .json where !isJSON(request.headers["Content-Type"]):
            return .problem(415, "unsupported_media_type", "the body must be application/json")
        case .image where !RouteBody.imageTypes.contains(mediaType(request.headers["Content-Type"])):
            return .problem(415, "unsupported_media_type", "the body must be one of \(RouteBody.imageTypes.joined(separator: ", "))")
        default:
            return nil
        }
    }

    /// `application/json`, any parameters (`; charset=utf-8`), or a `+json` type.
    static func isJSON(_ contentType: String?) -> Bool {
        let media = mediaType(contentType)
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// The media type of a `Content-Type` without its parameters, lowercased ("" when absent).
    static func mediaType(_ contentType: String?) -> String {
        contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    private func authenticate(_ request: APIRequest, for access: RouteAccess) async throws(KeyCatError) -> Principal? {
        if access == .anyone { return nil }
        guard let header = request.headers["Authorization"],
              header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw KeyCatError(.invalidToken, "an access token is required: Authorization: Bearer <token>",
                              context: ["token": "missing"])
        }
        let principal = try await keycat.accounts.authenticate(accessToken: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        if case let .roles(roles) = access, !roles.contains(principal.role) {
            throw KeyCatError(.forbidden, "this route is for \(roles.map(\.rawValue).sorted().joined(separator: " or ")) only")
        }
        return principal
    }
}

extension APIResponse {
    /// An answer of the API layer itself (no route, wrong method, body too large…), shaped like
    /// a domain error's body: `{"code": "...", "message": "..."}`.
    static func problem(_ status: Int, _ code: String, _ message: String, extra: [String: String] = [:]) -> APIResponse {
        var object = extra
        object["code"] = code
        object["message"] = message
        // Encoding a [String: String] cannot fail.
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return APIResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body))
    }
}
