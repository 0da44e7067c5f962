import Testing
@testable import keycat_admin

/// RFC 4180 quoting, and formulas defused.
@Suite("CSV writer")
struct CSVWriterTests {
    @Test("fields are quoted only when they must be, quotes doubled, lines end in CRLF", arguments: [
        ("plain", "plain"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\""),
        ("+82", "'+82"),
        ("-5", "'-5"),
        ("@sum", "'@sum"),
        ("키캣, 스위치", "\"키캣, 스위치\""),
    ])
    func quoting(value: String, encoded: String) {
        var csv = CSVWriter(header: ["h"])
        csv.append([.text(value)])
        #expect(csv.text == "h\r\n\(encoded)\r\n")
    }

    @Test("numbers, even negative ones, are written as numbers")
    func numbers() {
        var csv = CSVWriter(header: ["a", "b", "c"])
        csv.append([.number(-5), .empty, .number(84_800)])
        #expect(csv.text == "a,b,c\r\n-5,,84800\r\n")
    }
}
