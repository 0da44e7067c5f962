import Foundation

/// `application/x-www-form-urlencoded`, the format of form bodies and query strings, read by hand:
/// Foundation's `URLComponents` traps on a query holding characters a URL may not (a hostile
/// request must get an answer, not stop the process).
package enum FormEncoding {
    /// The fields of `text` in order: pairs split on `&`, names from values on the first `=`, `+`
    /// read as a space, percent-escapes decoded (an invalid escape is kept as written). Empty
    /// names are skipped.
    package static func fields(_ text: some StringProtocol) -> [(name: String, value: String)] {
        String(text).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            guard !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The fields as a dictionary; the last wins when a name repeats.
    package static func dictionary(_ text: some StringProtocol) -> [String: String] {
        var result: [String: String] = [:]
        for field in fields(text) { result[field.name] = field.value }
        return result
    }

    private static func decode(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
