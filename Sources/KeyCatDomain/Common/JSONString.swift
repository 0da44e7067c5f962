/// JSON string literals written by hand, for the JSON KeyCat writes as text without an encoder:
/// events' `data` (``EventValue``) and `keycat-admin`'s `--json` output.
package enum JSONString {
    /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\uXXXX`
    /// (RFC 8259 §7), everything else as it is.
    package static func append(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
