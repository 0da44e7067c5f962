/// Comma-separated values as RFC 4180 writes them: CRLF line ends, and a field that holds a
/// comma, a quote or a line break is quoted with its quotes doubled.
///
/// Text that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) gets a leading `'`, so a product title or a refund reason typed by a user
/// cannot run as a formula in the accountant's spreadsheet (OWASP's CSV injection advice).
/// Numbers are written as they are.
struct CSVWriter {
    private(set) var text = ""

    init(header: [String]) { append(header.map(Field.text)) }

    enum Field {
        case text(String)
        case number(Int64)
        case empty
    }

    mutating func append(_ fields: [Field]) {
        text += fields.map(Self.encode).joined(separator: ",") + "\r\n"
    }

    private static func encode(_ field: Field) -> String {
        switch field {
        case .empty: return ""
        case .number(let value): return String(value)
        case .text(var value):
            if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { value = "'" + value }
            guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
            return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }
}
