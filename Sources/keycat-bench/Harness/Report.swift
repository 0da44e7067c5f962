import Foundation

/// Prints the comparisons as an aligned table or JSON.
enum Report {
    static func table(_ rows: [Comparison]) -> String {
        let headers = ["operation", "ops", "keycat median", "keycat p99", "raw median", "raw p99", "ratio", "target", ""]
        var lines = [headers]
        for row in rows {
            lines.append([
                row.name, String(row.operations), format(row.library.median), format(row.library.p99),
                format(row.baseline.median), format(row.baseline.p99), String(format: "%.2f", row.ratio),
                row.targetText, row.meetsTarget ? "ok" : "MISSED",
            ])
        }
        var widths = headers.map { _ in 0 }
        for line in lines { for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return lines.map { line in
            line.enumerated().map { index, cell in
                index == 0 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func json(_ rows: [Comparison], info: [String: String]) -> String {
        let objects: [[String: Any]] = rows.map { row in
            [
                "operation": row.name, "operations": row.operations,
                "keycat_median_seconds": row.library.median, "keycat_p99_seconds": row.library.p99,
                "raw_median_seconds": row.baseline.median, "raw_p99_seconds": row.baseline.p99,
                "ratio": row.ratio, "target": row.targetText, "meets_target": row.meetsTarget,
            ]
        }
        let data = try? JSONSerialization.data(withJSONObject: ["info": info, "rows": objects], options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    /// `12.3 µs`, `4.56 ms`, `1.23 s`.
    static func format(_ seconds: Double) -> String {
        switch seconds {
        case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
        case ..<1: String(format: "%.2f ms", seconds * 1e3)
        default: String(format: "%.2f s", seconds)
        }
    }
}
