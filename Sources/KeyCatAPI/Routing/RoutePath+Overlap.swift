/// Route clashes, found when the table is built: two routes of one method whose patterns some
/// path matches both would leave the second unreachable (the first that matches wins), so the
/// table refuses them instead of serving one silently.
extension RoutePath {
    /// Whether some request path matches both `self` and `other`.
    func overlaps(_ other: RoutePath) -> Bool {
        guard segments.count == other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { mine, theirs in
            switch (mine, theirs) {
            case let (.literal(a), .literal(b)): a == b
            // Every id is also a name (digits are name characters).
            case (.id, .id), (.name, .name), (.id, .name), (.name, .id): true
            case let (.literal(text), .id), let (.id, .literal(text)): RoutePath("/{id}").match([Substring(text)]) != nil
            case let (.literal(text), .name), let (.name, .literal(text)): RoutePath("/{x_name}").match([Substring(text)]) != nil
            }
        }
    }
}

extension Route {
    /// Every pair of routes in `table` with one method and overlapping paths.
    static func clashes(in table: [Route]) -> [(RouteDescription, RouteDescription)] {
        var found: [(RouteDescription, RouteDescription)] = []
        for (index, route) in table.enumerated() {
            for other in table[(index + 1)...] where other.method == route.method && other.path.overlaps(route.path) {
                found.append((route.description, other.description))
            }
        }
        return found
    }
}
