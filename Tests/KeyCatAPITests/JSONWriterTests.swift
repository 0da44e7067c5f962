import Foundation
import KeyCat
@testable import KeyCatAPI
import Testing

/// The writer's pieces against RFC 8259 and against Foundation's `JSONEncoder.keycat`, which the
/// API answered with before: every value must come out as the same bytes.
struct JSONWriterTests {
    /// What `JSONEncoder.keycat` writes for `value`, as text.
    static func foundation(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.keycat.encode(value), as: UTF8.self)
    }

    static func written(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static let sampleStrings: [String] = [
        "", "plain ascii", "quote \" and backslash \\", "a/b/c and </script>",
        "\u{0}\u{1}\u{7}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{E}\u{1B}\u{1F}", "DEL \u{7F} is not a control character in JSON",
        "한글 키보드 (Korean)", "café naïve", "emoji 😀⌨️ and flags 🇰🇷, family 👨‍👩‍👧", "U+2028 \u{2028} U+2029 \u{2029}",
        "combining e\u{301}", "BOM \u{FEFF}", "private use \u{E000} and max \u{10FFFF}", "tab\tnew\nline\r\n",
        String(repeating: "long run without escapes ", count: 200) + "\"",
    ]

    @Test("strings are escaped byte for byte as JSONEncoder escapes them", arguments: sampleStrings)
    func strings(_ text: String) throws {
        let expected = try Self.foundation([text]).dropFirst().dropLast()
        #expect(Self.written { $0.write(text) } == expected)
    }

    @Test("a written string parses back to the same string", arguments: sampleStrings)
    func stringsRoundTrip(_ text: String) throws {
        let json = Self.written { $0.beginArray(); $0.write(text); $0.endArray() }
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
        #expect(parsed == [text])
    }

    @Test("a character that needs escaping is found at every offset of the eight-byte scan")
    func everyOffset() throws {
        for special in ["\"", "\\", "/", "\n", "\u{1}", "\u{1F}", "\u{7F}", " ", "~", "é", "😀", "한"] {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 19 - offset)
                let expected = try Self.foundation([text]).dropFirst().dropLast()
                #expect(Self.written { $0.write(text) } == expected, "\(special.debugDescription) at \(offset)")
            }
        }
    }

    @Test("control characters use the short escapes where JSON has one and \\u00XX otherwise")
    func controlCharacters() {
        #expect(Self.written { $0.write("\u{8}\u{9}\u{A}\u{C}\u{D}") } == #""\b\t\n\f\r""#)
        #expect(Self.written { $0.write("\u{0}\u{1F}\u{B}") } == #""\u0000\u001f\u000b""#)
        #expect(Self.written { $0.write("\"\\/") } == #""\"\\\/""#)
    }

    static let sampleIntegers: [Int64] = [0, 1, -1, 9, 10, 99, 100, 12_345, -98_765, 1 << 53, Int64.max, Int64.min]

    @Test("integers are written in plain decimal", arguments: sampleIntegers)
    func integers(_ value: Int64) throws {
        let expected = try Self.foundation([value]).dropFirst().dropLast()
        #expect(Self.written { $0.write(value) } == String(value))
        #expect(Self.written { $0.write(value) } == expected)
    }

    static let sampleDoubles: [Double] = [0, -0.0, 1, 4, 4.5, 1.0 / 3, 2.0 / 3, 0.1, 1e-5, 1e16, 5e20, 123_456_789_012, -2.25, .pi]

    @Test("doubles are written as JSONEncoder writes them", arguments: sampleDoubles)
    func doubles(_ value: Double) throws {
        let expected = try Self.foundation([value]).dropFirst().dropLast()
        #expect(Self.written { $0.write(value) } == expected)
    }

    @Test("NaN and infinity, which JSON cannot hold, are written as null")
    func nonFinite() {
        #expect(Self.written { $0.beginArray(); $0.write(Double.nan); $0.write(Double.infinity); $0.endArray() } == "[null,null]")
    }

    static let sampleTimes: [Double] = [
        0, 0.999, -0.5, -1, 86_399, 86_400, 951_782_400 /* 2000-02-29 */, 1_790_000_000.9999, 1_763_913_600,
        4_107_542_399 /* 2100-02-28T23:59:59 */, 4_107_542_400, -2_208_988_800 /* 1900 */,
        -11_644_473_600 /* 1601-01-01 */, -11_644_473_601, -12_219_292_800 /* 1582-10-15 */,
        -62_135_596_800 /* 0001-01-01 */, 253_402_300_799 /* 9999-12-31T23:59:59 */,
        253_402_300_800 /* 10000-01-01 */, -62_135_596_801,
    ]

    @Test("times are ISO 8601 in UTC to the second, as JSONEncoder's .iso8601 writes them", arguments: sampleTimes)
    func times(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let expected = try Self.foundation([date]).dropFirst().dropLast()
        #expect(Self.written { $0.write(date) } == expected)
    }

    @Test("every day of four centuries has the calendar date Foundation gives it")
    func everyDay() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // 1900-01-01 to 2299-12-31: the leap rules of 100 and 400 years included.
        for day in Int64(-25_567)...Int64(120_502) {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let civil = JSONWriter.civilDate(daysSince1970: day)
            guard civil == (parts.year!, parts.month!, parts.day!) else {
                Issue.record("day \(day): \(civil) but Foundation says \(parts)")
                return
            }
        }
    }

    @Test("commas go between members and elements, never before the first or after the last")
    func structure() throws {
        let json = Self.written { writer in
            writer.beginObject()
            writer.key("a"); writer.beginArray(); writer.endArray()
            writer.key("b"); writer.beginObject(); writer.endObject()
            writer.key("c"); writer.beginArray()
            writer.write(1); writer.beginObject(); writer.key("d"); writer.writeNull(); writer.endObject(); writer.write(true)
            writer.beginArray(); writer.write(false); writer.endArray()
            writer.endArray()
            writer.key("e"); writer.write(nil as String?)
            writer.endObject()
        }
        #expect(json == #"{"a":[],"b":{},"c":[1,{"d":null},true,[false]],"e":null}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [String: Any])
    }
}
