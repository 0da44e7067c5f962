import Testing
@testable import keycat_admin

/// What an operator's terminal shows of text buyers and sellers wrote.
@Suite("Text tables")
struct TextTableTests {
    @Test("a cell's control characters and bidirectional overrides are shown as their codes, not acted on", arguments: [
        ("축이 두 개 불량", "축이 두 개 불량"),
        ("\u{1B}[1A\u{1B}[2Kapproved", "\\u{1B}[1A\\u{1B}[2Kapproved"),
        ("line\nbreak\rreturn\ttab", "line\\u{A}break\\u{D}return\\u{9}tab"),
        ("\u{7F}\u{9B}31m", "\\u{7F}\\u{9B}31m"),
        ("\u{202E}gnp.exe", "\\u{202E}gnp.exe"),
        ("👩‍💻 키캡", "👩‍💻 키캡"),
    ])
    func printable(_ cell: String, _ shown: String) {
        #expect(TextTable.printable(cell) == shown)
    }

    @Test("a row holding an escape sequence stays one aligned line")
    func rowsStayRows() {
        var table = TextTable(["ID", "REASON"])
        table.append(["1", "\u{1B}[1A\u{1B}[2K\nforged row"])
        table.append(["22", "불량"])
        let lines = table.rendered().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[4].isEmpty)
        #expect(!table.rendered().unicodeScalars.contains("\u{1B}"))
        #expect(lines[2].hasPrefix("1   ") && lines[3].hasPrefix("22  "))
    }
}
