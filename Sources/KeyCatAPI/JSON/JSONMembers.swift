import Foundation

/// One walk over a JSON text's member names, for the two checks a body gets beyond decoding:
///
/// - **a name given twice in one object** (RFC 8259 §4: names SHOULD be unique, and parsers
///   disagree on which value wins). Foundation's JSON decoder keeps the first; most JavaScript,
///   Python and Go parsers keep the last. A body read one way by a proxy or a gateway in front of
///   KeyCat and the other way here (`{"amount": 999999, "amount": 100}`) is refused instead;
/// - **the top-level object's names**, for a body that refuses members it does not read
///   (``JSONClosedObject``).
enum JSONMembers {
    /// What one walk found.
    struct Scan: Equatable {
        /// The first name that repeats within one object, compared after unescaping (`"a"` and
        /// `"\u0061"` are one name).
        var repeated: String?
        /// The names of the top-level object, unescaped, in the order given (empty when the text
        /// is not an object).
        var topLevel: [String] = []
    }

    /// Walks `bytes` once. Meant for text a JSON parser has accepted; on any other it never
    /// traps, and its answer means nothing. The walk stops at the first repeated name.
    static func scan(_ bytes: [UInt8]) -> Scan {
        var scan = Scan()
        // One entry per open container, kept apart so a set is only ever changed in place (a copy
        // per name would make a body of many names quadratic): whether it is an object, and the
        // names it has shown so far.
        var isObject: [Bool] = []
        var names: [Set<String>] = []
        var expectingName = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                isObject.append(bytes[index] == UInt8(ascii: "{"))
                names.append([])
                expectingName = isObject[isObject.count - 1]
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = isObject.popLast()
                _ = names.popLast()
                expectingName = false
            case UInt8(ascii: ","):
                expectingName = isObject.last ?? false
            case UInt8(ascii: ":"):
                expectingName = false
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return scan }
                if expectingName, !names.isEmpty {
                    let name = Self.name(Array(bytes[start...index]))
                    guard names[names.count - 1].insert(name).inserted else {
                        scan.repeated = name
                        return scan
                    }
                    if names.count == 1 { scan.topLevel.append(name) }
                    expectingName = false
                }
            default:
                break
            }
            index += 1
        }
        return scan
    }

    /// A quoted name's text: its bytes as they are when they hold no escape, else decoded.
    private static func name(_ quoted: [UInt8]) -> String {
        guard quoted.contains(UInt8(ascii: "\\")) else { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: quoted, as: UTF8.self)
    }
}
