import Foundation

/// JSON text written straight into a byte buffer, for the response bodies on the hot paths (a
/// product page, a product detail) where Foundation's `JSONEncoder` cost more than the rest of
/// the request together.
///
/// The writer only appends: the caller writes each object's keys in the order they should
/// appear, which for KeyCat's bodies is sorted (the order `JSONEncoder.keycat` produces), so the
/// bytes are the same as before. Strings are escaped as RFC 8259 §7 requires and as Foundation's
/// encoder does — `"`, `\`, `/` and every control character, `\b \t \n \f \r` in their short
/// form and the rest as `\u00XX` — and everything else, valid UTF-8 as every Swift `String` is,
/// is passed through. https://www.rfc-editor.org/rfc/rfc8259#section-7
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("id"); writer.write(7)
/// writer.key("title"); writer.write("Tofu65")
/// writer.endObject()
/// writer.bytes  // {"id":7,"title":"Tofu65"}
/// ```
struct JSONWriter {
    /// The JSON so far. (Written only by the writer's own methods.)
    var bytes: [UInt8]
    /// Whether the next value or key opens its container (no comma before it).
    private var atStart = true

    init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        atStart = true
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        atStart = false
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        atStart = true
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        atStart = false
    }

    /// A member's key. Keys are the API's own snake_case names, written as they are (no
    /// escaping): a key with a quote, a backslash or a control character is a programming error.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        atStart = true
    }

    /// The comma before every value or key but a container's first.
    mutating func separate() {
        if atStart {
            atStart = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }

    // MARK: Values

    mutating func writeNull() {
        separate()
        append("null")
    }

    mutating func write(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    /// An optional value: `null` when absent. (A member left out when nil is `if let` at the
    /// call site instead.)
    mutating func write(_ value: String?) {
        if let value { write(value) } else { writeNull() }
    }

    /// An integer in decimal, `-` for negatives, no leading zeros.
    mutating func write(_ value: some BinaryInteger) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        // 20 digits hold UInt64.max; written backwards into the tail of a fixed buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeMutableBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A number as Foundation's encoder writes it: the shortest text that reads back as the
    /// same `Double`, without a trailing `.0` (`4`, `4.5`, `1e-05`). JSON has no NaN or
    /// infinity; those are written as `null` (where `JSONEncoder` would fail the whole body).
    mutating func write(_ value: Double) {
        guard value.isFinite else { return writeNull() }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// A string, quoted and escaped (RFC 8259 §7).
    mutating func write(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text`'s UTF-8 as it is (no quotes, no escaping).
    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The UTF-8 of a string's contents with what must be escaped escaped: runs that need
    /// nothing are copied whole.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard Self.needsEscape(byte) else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            appendEscape(for: byte)
            runStart = index + 1
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            hex.withUTF8Buffer { digits in
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
    }
}
