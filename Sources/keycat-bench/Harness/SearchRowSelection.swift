import Foundation

/// Which search rows a run times: `KEYCAT_BENCH_SEARCH_ROWS`, for profiling one of them. Unset
/// or empty, every row. Otherwise entries separated by `|` (row names hold commas); a row runs when its
/// name contains one of the entries, or, for an entry starting with `=`, is exactly the rest of
/// it (`=rare model code: Q737`), since a word like `rare` is also in `rarer: 은축`.
struct SearchRowSelection: Sendable {
    private let entries: [Substring]?

    init(_ value: String? = ProcessInfo.processInfo.environment["KEYCAT_BENCH_SEARCH_ROWS"]) {
        // Set but empty (`KEYCAT_BENCH_SEARCH_ROWS= scripts/bench`) is unset, as a shell means it.
        entries = value.map { text in text.split(separator: "|").filter { !$0.isEmpty } }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the row named `name` runs.
    func selects(_ name: String) -> Bool {
        guard let entries else { return true }
        return entries.contains { entry in
            entry.first == "=" ? name == entry.dropFirst() : name.contains(entry)
        }
    }
}
