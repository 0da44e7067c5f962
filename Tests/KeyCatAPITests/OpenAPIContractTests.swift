import Foundation
import KeyCat
import KeyCatAPI
import Testing

/// openapi.yaml and the route table must agree: the same operations, parameters, bodies, body
/// limits, success statuses and access, and every `$ref` resolves.
@Suite("openapi.yaml agrees with the route table")
struct OpenAPIContractTests {
    static let document: YAML = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        do {
            return try YAML.parse(String(contentsOf: url, encoding: .utf8))
        } catch {
            Issue.record("openapi.yaml does not parse: \(error)")
            return .map([])
        }
    }()

    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    /// Every operation in the document, as "METHOD path".
    static var operations: [String: YAML] {
        var result: [String: YAML] = [:]
        for (path, item) in document["paths"]?.pairs ?? [] {
            for (method, operation) in item.pairs where methods.contains(method) {
                result["\(method.uppercased()) \(path)"] = operation
            }
        }
        return result
    }

    @Test("it is OpenAPI 3.1 and declares bearer authentication")
    func header() {
        #expect(Self.document["openapi"]?.string?.hasPrefix("3.1") == true)
        #expect(Self.document["components"]?["securitySchemes"]?["bearer"]?["scheme"]?.string == "bearer")
    }

    @Test("every route is documented and every documented operation is a route")
    func sameOperations() {
        let routes = Set(KeyCatAPI.routes.map(\.description))
        let documented = Set(Self.operations.keys)
        #expect(routes.subtracting(documented).sorted() == [], "routes missing from openapi.yaml")
        #expect(documented.subtracting(routes).sorted() == [], "operations in openapi.yaml without a route")
        #expect(routes.count == KeyCatAPI.routes.count, "a route is declared twice")
    }

    @Test("each route's parameters, body, limit, status and access match", arguments: KeyCatAPI.routes)
    func route(_ route: RouteDescription) throws {
        let operation = try #require(Self.operations[route.description], "\(route) is not documented")
        let parameters = operation["parameters"]?.list.map(Self.resolve) ?? []
        func names(in location: String) -> Set<String> {
            Set(parameters.filter { $0["in"]?.string == location }.compactMap { $0["name"]?.string })
        }
        let pathNames = Set(route.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
        #expect(names(in: "path") == pathNames)
        #expect(names(in: "query") == Set(route.query))
        for parameter in parameters where parameter["in"]?.string == "path" {
            #expect(parameter["required"]?.string == "true", "\(route): path parameters are required")
        }

        let documentedLimit = operation["x-keycat-body-limit"]?.string.flatMap(Int.init)
        switch route.body {
        case .none:
            #expect(operation["requestBody"] == nil, "\(route) takes no body")
            #expect(documentedLimit == nil)
        case .json, .raw:
            #expect(operation["requestBody"]?["content"]?["application/json"] != nil, "\(route) documents its JSON body")
            #expect(documentedLimit == route.body.limit, "\(route): the body limit")
        case .image:
            let types = operation["requestBody"]?["content"]?.pairs.map(\.key).sorted()
            #expect(types == RouteBody.imageTypes, "\(route) documents the image types it takes")
            #expect(documentedLimit == route.body.limit, "\(route): the body limit")
        }

        let statuses = operation["responses"]?.pairs.map(\.key) ?? []
        let success = statuses.compactMap(Int.init).filter { (200..<300).contains($0) }
        #expect(success == [route.status], "\(route): the success status")

        let access = operation["x-keycat-access"]?.string
        switch route.access {
        case .anyone:
            #expect(access == "anyone")
            #expect(operation["security"] == .list([]), "\(route) needs no token")
        case .signedIn:
            #expect(access == "signed-in")
        case let .roles(roles):
            #expect(access == roles.map(\.rawValue).sorted().joined(separator: ","))
        }
        if route.access != .anyone {
            #expect(operation["security"] == nil, "\(route) uses the document's bearer security")
            #expect(statuses.contains("401"), "\(route) documents 401")
            #expect(!statuses.contains("419"), "\(route) documents the default profile, which has no 419")
        }
        // Any route answers a query parameter it does not declare with 400 (KeyCatAPI.checkQuery).
        #expect(statuses.contains("400"), "\(route) documents 400 for a query parameter it does not declare")
        if route.body != .none, route.path != "/webhooks/pg" {
            for status in ["400", "413", "415"] { #expect(statuses.contains(status), "\(route) documents \(status)") }
        }
        if !pathNames.isEmpty {
            #expect(!statuses.contains("410"), "\(route) documents the default profile, which has no 410")
            #expect(operation["responses"]?["404"]?["$ref"]?.string == "#/components/responses/NotFound",
                    "\(route) documents 404 for a path naming nothing")
        }
    }

    @Test("every $ref points at something the document defines")
    func referencesResolve() {
        var broken: [String] = []
        func walk(_ value: YAML) {
            switch value {
            case .scalar: break
            case let .list(items): items.forEach(walk)
            case let .map(pairs):
                for (key, inner) in pairs {
                    if key == "$ref", let target = inner.string, Self.lookUp(target) == nil { broken.append(target) }
                    walk(inner)
                }
            }
        }
        walk(Self.document)
        #expect(broken == [])
    }

    @Test("every error status a route can answer has a documented error body")
    func errorBodies() {
        let error = Self.document["components"]?["schemas"]?["Error"]
        #expect(error?["required"]?.list.compactMap(\.string) == ["code", "message"])
        for (name, response) in Self.document["components"]?["responses"]?.pairs ?? [] {
            #expect(response["content"]?["application/json"]?["schema"]?["$ref"]?.string == "#/components/schemas/Error", "\(name)")
        }
    }

    /// A parameter, following its `$ref`.
    static func resolve(_ value: YAML) -> YAML {
        value["$ref"]?.string.flatMap(lookUp) ?? value
    }

    /// `#/components/...` in the document.
    static func lookUp(_ reference: String) -> YAML? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: YAML? = document
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node
    }
}

extension RouteDescription: CustomTestStringConvertible {
    public var testDescription: String { description }
}
