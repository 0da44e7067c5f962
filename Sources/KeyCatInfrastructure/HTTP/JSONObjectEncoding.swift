import Foundation

/// Objects of the kind `JSONSerialization` reads (`[String: Any]` of strings, numbers, booleans,
/// `NSNull`, arrays and objects) as compact JSON, keys in code-point order: the same bytes for the
/// same object every time, for bodies that are signed, logged or compared.
///
/// It exists for speed. `JSONSerialization`'s `.sortedKeys` on Linux orders keys with ICU
/// collation; for the PG simulator's payment object (some forty keys) that made encoding the
/// answer cost a fifth of all the CPU a checkout load used (`keycat-bench concurrency`, perf).
package enum JSONObjectEncoding {
    /// A value no JSON text can hold: a NaN or infinite number, or a type that is not JSON's.
    package struct Unencodable: Error, CustomStringConvertible {
        package let description: String
    }

    /// `object` as JSON text in UTF-8.
    package static func data(_ object: [String: Any]) throws(Unencodable) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        try write(object, to: &bytes)
        return Data(bytes)
    }

    private static func write(_ value: Any, to bytes: inout [UInt8]) throws(Unencodable) {
        switch value {
        case let text as String:
            writeString(text, to: &bytes)
        case let object as [String: Any]:
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in object.keys.sorted(by: precedesInCodePoints).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try write(object[key]!, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case let array as [Any]:
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case is NSNull:
            bytes += Array("null".utf8)
        default:
            try writeScalar(value, to: &bytes)
        }
    }

    private static func writeScalar(_ value: Any, to bytes: inout [UInt8]) throws(Unencodable) {
        // Exact types, so that a number never passes for a boolean or the reverse.
        switch type(of: value) {
        case is Bool.Type: bytes += Array(((value as! Bool) ? "true" : "false").utf8)
        case is Int.Type: bytes += Array((value as! Int).description.utf8)
        case is Int64.Type: bytes += Array((value as! Int64).description.utf8)
        case is Int32.Type: bytes += Array((value as! Int32).description.utf8)
        case is UInt.Type: bytes += Array((value as! UInt).description.utf8)
        case is Double.Type: try writeDouble(value as! Double, to: &bytes)
        case is NSNumber.Type:
            // What JSONSerialization reads: its type code says boolean, floating point or integer.
            let number = value as! NSNumber
            switch String(cString: number.objCType) {
            case "c", "B": bytes += Array((number.boolValue ? "true" : "false").utf8)
            case "d", "f": try writeDouble(number.doubleValue, to: &bytes)
            default: bytes += Array(number.int64Value.description.utf8)
            }
        default:
            throw Unencodable(description: "\(type(of: value)) is not a JSON value")
        }
    }

    private static func writeDouble(_ double: Double, to bytes: inout [UInt8]) throws(Unencodable) {
        guard double.isFinite else { throw Unencodable(description: "\(double) is not a JSON number") }
        if double == double.rounded(), abs(double) < 1e15 {
            bytes += Array(Int64(double).description.utf8)
        } else {
            bytes += Array(double.description.utf8)
        }
    }

    private static func writeString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Code-point order (the order of the keys' UTF-8 bytes), independent of locale.
    private static func precedesInCodePoints(_ first: String, _ second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }
}
