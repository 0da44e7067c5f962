import Foundation

/// What every fuzz target checks beyond "no crash": a broken promise stops the run like a crash
/// does, so libFuzzer keeps the input that broke it.
enum FuzzContract {
    /// Stops with `message` unless `condition` holds.
    static func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() { fatalError("contract broken: \(message())") }
    }
}

/// Reads values off the back of a fuzz input, so the front stays the decoder's own input and a
/// hand-written corpus file reads as what it is (a token, a JSON file, a command line).
struct FuzzTail {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    /// The last eight bytes as a number (missing bytes count as zero).
    mutating func int64() -> Int64 {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Int64(bitPattern: bits)
    }

    /// The last byte, or zero once the input is used up.
    mutating func byte() -> UInt8 { bytes.popLast() ?? 0 }
}

/// The bytes of one libFuzzer call.
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
