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
struct JSONWriter: ~Copyable {
    /// The bytes written, in a buffer the writer owns and grows by doubling: one capacity check
    /// per value rather than one per byte.
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// Whether the next value or key opens its container (no comma before it).
    private var atStart = true

    /// - Parameter capacity: the bytes to make room for at first (a product page is ~11 KB).
    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The JSON written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    // MARK: Bytes

    /// Makes room for `extra` more bytes, which ``put(_:)-(UInt8)`` may then write unchecked.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: extra) }
    }

    private mutating func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: start, count: count)
        start.deallocate()
        start = grown
        capacity = newCapacity
    }

    /// One byte, in room made by ``reserve(_:)``.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    /// Bytes, in room made by ``reserve(_:)``.
    @inline(__always)
    mutating func put(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        (start + count).update(from: base, count: buffer.count)
        count += buffer.count
    }

    /// Bytes, making room for them.
    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        reserve(buffer.count)
        put(buffer)
    }

    /// Appends `text`'s UTF-8 as it is (no quotes, no escaping).
    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    // MARK: Structure

    mutating func beginObject() {
        reserve(2)
        separate()
        put(UInt8(ascii: "{"))
        atStart = true
    }

    mutating func endObject() {
        reserve(1)
        put(UInt8(ascii: "}"))
        atStart = false
    }

    mutating func beginArray() {
        reserve(2)
        separate()
        put(UInt8(ascii: "["))
        atStart = true
    }

    mutating func endArray() {
        reserve(1)
        put(UInt8(ascii: "]"))
        atStart = false
    }

    /// A member's key. Keys are the API's own snake_case names, written as they are (no
    /// escaping): a key with a quote, a backslash or a control character is a programming error.
    mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            reserve(name.count + 4)
            separate()
            put(UInt8(ascii: "\""))
            put(name)
            put(UInt8(ascii: "\""))
            put(UInt8(ascii: ":"))
        }
        atStart = true
    }

    /// The comma before every value or key but a container's first, in room made by
    /// ``reserve(_:)`` (one byte).
    @inline(__always)
    mutating func separate() {
        if atStart {
            atStart = false
        } else {
            put(UInt8(ascii: ","))
        }
    }

    // MARK: Values

    mutating func writeNull() {
        reserve(1)
        separate()
        append("null")
    }

    mutating func write(_ value: Bool) {
        reserve(1)
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
        var magnitude = UInt64(value.magnitude)
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20, magnitude >= scale {
            digits += 1
            scale &*= 10
        }
        reserve(digits + 2)
        separate()
        if value < 0 { put(UInt8(ascii: "-")) }
        // Written backwards, from the last digit.
        var index = count + digits
        count = index
        repeat {
            index -= 1
            start[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// A number as Foundation's encoder writes it: the shortest text that reads back as the
    /// same `Double`, without a trailing `.0` (`4`, `4.5`, `1e-05`). JSON has no NaN or
    /// infinity; those are written as `null` (where `JSONEncoder` would fail the whole body).
    mutating func write(_ value: Double) {
        guard value.isFinite else { return writeNull() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        reserve(1)
        separate()
        text.withUTF8 { append($0) }
    }

    /// A string, quoted and escaped (RFC 8259 §7).
    mutating func write(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            reserve(utf8.count + 3)
            separate()
            put(UInt8(ascii: "\""))
            appendEscaped(utf8)
            reserve(1)
            put(UInt8(ascii: "\""))
        }
    }

    /// The UTF-8 of a string's contents with what must be escaped escaped: runs that need
    /// nothing are copied whole, and found eight bytes at a time.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        let end = utf8.count
        var runStart = 0
        var index = 0
        while index < end {
            while index + 8 <= end,
                  !Self.anyNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
            }
            guard index < end else { break }
            let byte = base[index]
            if Self.needsEscape(byte) {
                append(UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                appendEscape(for: byte)
                runStart = index + 1
            }
            index += 1
        }
        append(UnsafeBufferPointer(start: base + runStart, count: end - runStart))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }

    /// Whether any of eight bytes needs escaping: the "has less than" and "has zero byte" tests
    /// of Sean Anderson's Bit Twiddling Hacks, exact as a yes or no (a byte ≥ 0x80, part of a
    /// multi-byte character, never counts).
    /// https://graphics.stanford.edu/~seander/bithacks.html#HasLessInWord
    @inline(__always)
    private static func anyNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
            || hasZeroByte(word ^ (ones &* 0x2F))
    }

    private mutating func appendEscape(for byte: UInt8) {
        reserve(6)
        put(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): put(byte)
        case 0x08: put(UInt8(ascii: "b"))
        case 0x09: put(UInt8(ascii: "t"))
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0C: put(UInt8(ascii: "f"))
        case 0x0D: put(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            put(UInt8(ascii: "u"))
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "0"))
            hex.withUTF8Buffer { digits in
                put(digits[Int(byte >> 4)])
                put(digits[Int(byte & 0x0F)])
            }
        }
    }
}
