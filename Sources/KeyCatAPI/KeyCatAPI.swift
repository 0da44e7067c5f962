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
/// An unknown path is 404, a known path with another method 405 with `Allow`, a bad body 400
/// naming the field, a body over the route's limit 413, a body that is not JSON where JSON is
/// expected 415. Bad input never answers 500. A server whose app was built against the KeyCat
/// app's old statuses (410, 418, 419, 445) opts into ``HTTPStatusProfile/keyCatApp``.
public struct KeyCatAPI: Sendable {
    public let keycat: KeyCat
    /// The statuses errors are answered with. Default ``HTTPStatusProfile/standard``.
    public let statusProfile: HTTPStatusProfile
    /// The route table by the number of segments in each path: a path is only tried against
    /// the routes it could match.
    let routesBySegmentCount: [Int: [Route]]
    /// The catalog reads' answers, kept while the store has not changed (``CatalogCache``).
    let catalogCache = CatalogCache()

    public init(_ keycat: KeyCat, statusProfile: HTTPStatusProfile = .standard) {
        self.keycat = keycat
        self.statusProfile = statusProfile
        routesBySegmentCount = Dictionary(grouping: Self.routeTable) { $0.path.segments.count }
    }

    /// Every route, grouped by resource. Two routes that one request could match are a
    /// programming error, caught here when the table is first built (``Route/clashes(in:)``).
    static let routeTable: [Route] = {
        let table = AccountRoutes.routes + SellerRoutes.routes + ProductRoutes.routes + ReviewRoutes.routes
            + BookmarkRoutes.routes + FollowRoutes.routes + CartRoutes.routes + CheckoutRoutes.routes
            + OrderRoutes.routes + WebhookRoutes.routes
        let clashes = Route.clashes(in: table)
        precondition(clashes.isEmpty, "routes that one request could match: \(clashes)")
        return table
    }()

    /// The route table as data (method, path, access, body, query, status).
    public static var routes: [RouteDescription] { routeTable.map(\.description) }

    /// Answers one request. Never throws: every error becomes its status and JSON body.
    public func respond(to request: APIRequest) async -> APIResponse {
        let parts = request.path.split(separator: "/")
        // Each route's path is tried in place; only the routes that match are copied out.
        let candidates = routesBySegmentCount[parts.count] ?? []
        var matches: [(Route, [String: String])] = []
        for index in candidates.indices {
            if let parameters = candidates[index].path.match(parts) { matches.append((candidates[index], parameters)) }
        }
        guard !matches.isEmpty else {
            return .problem(404, "route_not_found", "no route for \(request.path)")
        }
        guard let (route, parameters) = matches.first(where: { $0.0.method == request.method }) else {
            var response = APIResponse.problem(405, "method_not_allowed", "\(request.method) is not allowed on \(request.path)")
            response.headers["Allow"] = Set(matches.map(\.0.method)).sorted().joined(separator: ", ")
            return response
        }
        if let refusal = Self.checkBody(of: request, for: route.body) { return refusal }
        do {
            let caller = try authenticate(request, for: route.access)
            let context = RequestContext(request: request, keycat: keycat, parameters: parameters, caller: caller,
                                         route: route.description, cache: catalogCache)
            return try await route.handler(context)
        } catch {
            return APIResponse.error(error, profile: statusProfile)
        }
    }

    /// 413 for a body over the route's limit, 415 for a JSON route sent something else.
    static func checkBody(of request: APIRequest, for body: RouteBody) -> APIResponse? {
        guard body != .none, !request.body.isEmpty else { return nil }
        guard request.body.count <= body.limit else {
            return .problem(413, "payload_too_large", "the body is over this route's limit of \(body.limit) bytes",
                            extra: ["limit": String(body.limit)])
        }
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

    private func authenticate(_ request: APIRequest, for access: RouteAccess) throws(KeyCatError) -> Principal? {
        if access == .anyone { return nil }
        guard let header = request.headers["Authorization"],
              header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw KeyCatError(.invalidToken, "an access token is required: Authorization: Bearer <token>",
                              context: ["token": "missing"])
        }
        let principal = try keycat.accounts.authenticate(accessToken: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
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
