extension APIRequest {
    /// The most characters of a request's path an access log keeps (``loggable(_:)``).
    public static let maximumLoggedPath = 256

    /// A request target (path and query, as sent) as an access log may keep it: the path, and
    /// each query parameter by its name alone (`/users?email=mina@example.com&limit=5` is
    /// `/users?email=…&limit=…`). The values are what people typed — the email an operator looked
    /// up, a buyer's search, a cursor that encodes where they were — and a log is kept longer,
    /// copied further and read by more people than the tables it would copy them from. A path
    /// longer than ``maximumLoggedPath`` characters is cut there, marked with `…`: a stranger's
    /// request decides its length, and one line must not fill the log.
    public static func loggable(_ target: String) -> String {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts[0])
        if path.count > maximumLoggedPath { path = String(path.prefix(maximumLoggedPath)) + "…" }
        guard parts.count == 2, !parts[1].isEmpty else { return path }
        let names = parts[1].split(separator: "&").lazy.map { parameter in
            let name = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return String(name.prefix(64)) + (parameter.contains("=") ? "=…" : "")
        }
        // As many names as a path's length allows: a query of ten thousand `a&` stays one line.
        var query = "", length = 0
        for name in names {
            length += name.count + 1
            guard length <= maximumLoggedPath else { query += "&…"; break }
            query += (query.isEmpty ? "" : "&") + name
        }
        return path + "?" + query
    }
}
