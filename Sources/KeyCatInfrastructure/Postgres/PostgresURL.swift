/// A `postgres://` URL's password, found wherever libpq would take it from: the user
/// information (`user:password@`, read up to the last `@` before the query, so a password holding
/// a raw `@` or `/` is still all of it) or a `password=` parameter of the query.
package enum PostgresURL {
    /// `url` with its password shown as `***`, for messages, logs and the audit log.
    package static func masked(_ url: String) -> String {
        var masked = url
        if let range = userPassword(in: url) { masked.replaceSubrange(range, with: "***") }
        return masked.replacingOccurrences(of: #"([?&]password=)[^&]*"#, with: "$1***", options: .regularExpression)
    }

    /// `url` without its password, and the password (percent-decoded) when it had one: the
    /// tools take the password from their environment, never from their command line.
    package static func separatingPassword(_ url: String) -> (url: String, password: String?) {
        var url = url
        var password: String?
        if let range = userPassword(in: url) {
            password = String(url[range])
            url.removeSubrange(url.index(before: range.lowerBound)..<range.upperBound)  // the ':' too
        }
        if let question = url.firstIndex(of: "?") {
            let parameters = url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
            let given = parameters.first { $0.hasPrefix("password=") }
            password = password ?? given.map { String($0.dropFirst("password=".count)) }
            let kept = parameters.filter { !$0.hasPrefix("password=") }
            url = String(url[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return (url, password.map { $0.removingPercentEncoding ?? $0 })
    }

    /// Where the user information's password is: after the first `:` of the text between
    /// `://` and the last `@` before the query.
    private static func userPassword(in url: String) -> Range<String.Index>? {
        guard let scheme = url.range(of: "://") else { return nil }
        let query = url[scheme.upperBound...].firstIndex(of: "?") ?? url.endIndex
        guard let at = url[scheme.upperBound..<query].lastIndex(of: "@"),
              let colon = url[scheme.upperBound..<at].firstIndex(of: ":") else { return nil }
        return url.index(after: colon)..<at
    }
}
