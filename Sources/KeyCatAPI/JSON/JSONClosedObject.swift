import Foundation

/// A body whose object names every member it reads: another member is a 400, not ignored.
///
/// A change (`PATCH`) that names a member KeyCat does not know, `{"prise": 89000}` or
/// `{"stok": 0}`, would otherwise answer 200 with nothing changed, and the client would take the
/// old price for the new one. So the change bodies refuse what they do not read, naming it;
/// bodies that create or act keep ignoring unknown members, so clients may send what a newer
/// version reads. Only the top-level object's members are checked.
protocol JSONClosedObject {
    /// The member names the body reads.
    static var members: Set<String> { get }
}

extension JSONClosedObject {
    /// The first of a top-level object's `names` (``JSONMembers/Scan/topLevel``), in code point
    /// order so the answer is the same however they were ordered, that ``members`` does not
    /// hold; nil when there is none.
    static func unknownMember(among names: [String]) -> String? {
        names.filter { !members.contains($0) }.min()
    }

    /// ``unknownMember(among:)`` of `bytes`' top-level object; nil when the text is not an object.
    static func unknownMember(in bytes: [UInt8]) -> String? {
        unknownMember(among: JSONMembers.scan(bytes).topLevel)
    }
}

extension JSONClosedObject where Self: Decodable {
    /// The members of a body whose `CodingKeys` list them all.
    static func members<Keys: CodingKey & CaseIterable>(of _: Keys.Type) -> Set<String> {
        Set(Keys.allCases.map(\.stringValue))
    }
}
