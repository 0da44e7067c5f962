/// An aligned plain-text table for human output. Cells hold what buyers and sellers wrote
/// (reasons, names, titles), so each is shown ``printable(_:)``: a control character cannot move
/// the operator's cursor, erase a row or fake one.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    init(_ headers: [String]) { self.headers = headers }

    mutating func append(_ row: [String]) { rows.append(row.map(Self.printable)) }

    /// `text` with every control character (C0, DEL, C1: escapes, carriage returns, line feeds)
    /// and every bidirectional override written as its code, such as `\u{1B}`: what a terminal
    /// would act on is shown instead.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActive) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isActive(scalar) { result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    private static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    func rendered() -> String {
        var widths = headers.map(Self.displayWidth)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], Self.displayWidth(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == cells.count - 1
                    ? cell : cell + String(repeating: " ", count: max(0, widths[column] - Self.displayWidth(cell)))
            }.joined(separator: "  ")
        }
        var lines = [line(headers), line(widths.map { String(repeating: "-", count: $0) })]
        lines += rows.map(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The columns `text` takes in a terminal: East Asian wide characters (Hangul, CJK, full-width
    /// forms) and emoji take two, combining marks none (after Unicode's East Asian Width, UAX #11).
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: width
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                width + 2
            default: width + 1
            }
        }
    }
}
