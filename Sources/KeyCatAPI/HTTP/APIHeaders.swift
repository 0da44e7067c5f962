/// HTTP header fields whose names compare case-insensitively (RFC 9110 §5.1), in the order they
/// were added. A name may repeat; ``subscript(_:)`` reads the first.
///
/// Named like its siblings ``APIRequest`` and ``APIResponse`` rather than `HTTPHeaders`, so a
/// server that imports KeyCatAPI beside NIOHTTP1 (Vapor) or HTTPTypes (Hummingbird) names each
/// framework's headers and these without qualifying either.
public struct APIHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    /// One field: the name as it was written, and its value.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        for (name, value) in fields { add(name, value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of `name`, whatever its case; setting replaces every field of that name
    /// (nil removes them).
    public subscript(_ name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            guard let newValue else {
                fields.removeAll { Self.same($0.name, name) }
                return
            }
            guard let index = fields.firstIndex(where: { Self.same($0.name, name) }) else {
                fields.append(Field(name: name, value: newValue))
                return
            }
            // The first keeps its place; later fields of the name go.
            var kept = Array(fields[...index])
            kept[index].value = newValue
            kept += fields[(index + 1)...].filter { !Self.same($0.name, name) }
            fields = kept
        }
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// The fields as a dictionary of lowercase names (a repeated name keeps its first value).
    /// Only ASCII letters are lowered, as look-ups fold them.
    public var lowercased: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            let name = String(decoding: field.name.utf8.map(Self.folded), as: UTF8.self)
            if result[name] == nil { result[name] = field.value }
        }
        return result
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Equal when the fields are, in order, with names compared as ``subscript(_:)`` compares
    /// them: a Unicode case mapping that lowers another letter to an ASCII one (the Kelvin sign
    /// to `k`) would make two headers equal whose look-ups differ.
    public static func == (lhs: APIHeaders, rhs: APIHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { same($0.name, $1.name) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.count)
        for field in fields {
            hasher.combine(field.name.utf8.count)
            for byte in field.name.utf8 { hasher.combine(Self.folded(byte)) }
            hasher.combine(field.value)
        }
    }

    /// Whether two names are one: byte for byte with ASCII letters folded. Field names are
    /// tokens (RFC 9110 §5.1), ASCII only, so no other folding applies; this runs for every
    /// field of every header look-up, and allocates nothing.
    private static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8) { folded($0) == folded($1) }
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
