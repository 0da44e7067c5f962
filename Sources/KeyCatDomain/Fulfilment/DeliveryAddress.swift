import Foundation

/// Identifies an entry of a user's address book.
public struct AddressID: EntityID {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
}

/// Where a parcel goes, as a Korean courier's label needs it: who receives it, a phone number
/// the driver can call, the 5-digit postcode (국가기초구역번호), the road-name address
/// (도로명주소), the detail line (building, floor, unit) and the buyer's request to the driver.
///
/// Build one with ``validated(recipient:phone:postcode:roadAddress:detail:request:)``: every
/// value a store keeps has passed it, so the phone is in its hyphenated form and the texts are
/// trimmed and NFC.
public struct DeliveryAddress: Sendable, Hashable, Codable {
    public var recipient: String
    /// Hyphenated, e.g. `010-1234-5678`, `02-123-4567`, `1588-1234`.
    public var phone: String
    public var postcode: String
    public var roadAddress: String
    /// Building, floor and unit; may be empty.
    public var detail: String
    /// The buyer's note to the driver ("문 앞에 놓아 주세요"); may be empty.
    public var request: String

    /// An address already checked (read back from a store).
    public init(recipient: String, phone: String, postcode: String, roadAddress: String, detail: String, request: String) {
        self.recipient = recipient
        self.phone = phone
        self.postcode = postcode
        self.roadAddress = roadAddress
        self.detail = detail
        self.request = request
    }

    /// An address from what a client sent, each field checked by ``AddressRules``.
    ///
    /// - Throws: `validation` naming the first field that breaks its rule.
    public static func validated(recipient: String, phone: String, postcode: String, roadAddress: String,
                                 detail: String = "", request: String = "") throws(KeyCatError) -> DeliveryAddress {
        DeliveryAddress(
            recipient: try TextRules.text(recipient, AddressRules.recipientField),
            phone: try AddressRules.phone(phone),
            postcode: try AddressRules.postcode(postcode),
            roadAddress: try TextRules.text(roadAddress, AddressRules.roadAddressField),
            detail: try TextRules.text(detail, AddressRules.detailField),
            request: try TextRules.text(request, AddressRules.requestField))
    }

    /// What a log line may say of it: the recipient's first character, the phone's last four
    /// digits and the postcode's first two (the district), nothing that finds the door.
    public var redacted: String {
        "\(recipient.prefix(1))** \(String(repeating: "*", count: 4))-\(phone.suffix(4)) \(postcode.prefix(2))***"
    }
}

/// The rules of an address's fields, shared with `openapi.yaml` (checked by the contract tests).
public enum AddressRules {
    /// A recipient's name: 1–30 characters. No address field takes control or format characters.
    public static let recipientField = TextRules.Field("recipient", characters: 1...30, refusesControlCharacters: true,
                                                       formatCharacters: .refused)
    /// The road-name address: 1–200 characters.
    public static let roadAddressField = TextRules.Field("road_address", characters: 1...200, refusesControlCharacters: true,
                                                         formatCharacters: .refused)
    /// The detail line: at most 100 characters.
    public static let detailField = TextRules.Field("detail", characters: 0...100, refusesControlCharacters: true,
                                                    formatCharacters: .refused)
    /// The request to the driver: at most 100 characters.
    public static let requestField = TextRules.Field("request", characters: 0...100, refusesControlCharacters: true,
                                                     formatCharacters: .refused)
    /// How many addresses one user may keep.
    public static let maximumPerUser = 20

    /// Korean phone numbers, with or without hyphens: mobile (010, 011, 016–019), Seoul (02),
    /// the other area codes (031–064), internet telephony (070) and the 8-digit representative
    /// numbers (15xx–19xx). `openapi.yaml`'s pattern is this one.
    public static let phonePattern =
        "^(01[016-9]-?[0-9]{3,4}-?[0-9]{4}|02-?[0-9]{3,4}-?[0-9]{4}|0[3-6][1-5]-?[0-9]{3,4}-?[0-9]{4}|070-?[0-9]{4}-?[0-9]{4}|1[5-9][0-9]{2}-?[0-9]{4})$"
    /// A postcode: five digits, 01000–63999 (the 2015 국가기초구역번호 all start 0–6).
    public static let postcodePattern = "^[0-6][0-9]{4}$"

    private static let phoneExpression = try! NSRegularExpression(pattern: phonePattern)

    /// `raw` as a hyphenated phone number.
    ///
    /// - Throws: `validation` (`phone`) unless it is one of ``phonePattern``'s numbers.
    public static func phone(_ raw: String) throws(KeyCatError) -> String {
        let range = NSRange(raw.startIndex..., in: raw)
        guard raw.utf8.count <= 20, raw.allSatisfy(\.isASCII),
              phoneExpression.firstMatch(in: raw, range: range) != nil else {
            throw KeyCatError.validation("phone", "phone must be a Korean phone number such as 010-1234-5678")
        }
        let digits = String(raw.filter(\.isNumber))
        let tail = digits.index(digits.endIndex, offsetBy: -4)
        if digits.count == 8 { return digits[..<tail] + "-" + digits[tail...] }  // 1588-1234
        let head = digits.index(digits.startIndex, offsetBy: digits.hasPrefix("02") ? 2 : 3)
        return digits[..<head] + "-" + digits[head..<tail] + "-" + digits[tail...]
    }

    /// `raw` as a postcode.
    ///
    /// - Throws: `validation` (`postcode`) unless it is five digits starting 0–6.
    public static func postcode(_ raw: String) throws(KeyCatError) -> String {
        let bytes = Array(raw.utf8)
        guard bytes.count == 5, bytes.allSatisfy({ (0x30...0x39).contains($0) }), bytes[0] <= 0x36 else {
            throw KeyCatError.validation("postcode", "postcode must be five digits, such as 06236")
        }
        return raw
    }
}

/// One entry of a user's address book.
public struct SavedAddress: Sendable, Hashable, Identifiable {
    public var id: AddressID
    public var userID: UserID
    public var address: DeliveryAddress
    /// The address checkout uses when none is named. A user has at most one.
    public var isDefault: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: AddressID, userID: UserID, address: DeliveryAddress, isDefault: Bool, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.userID = userID
        self.address = address
        self.isDefault = isDefault
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a `PATCH` of an address changes: each field given is checked as on creation.
public struct AddressChanges: Sendable, Hashable {
    public var recipient: String?
    public var phone: String?
    public var postcode: String?
    public var roadAddress: String?
    public var detail: String?
    public var request: String?
    /// `true` makes it the default (the previous default stops being one); `false` only clears it.
    public var isDefault: Bool?

    public init(recipient: String? = nil, phone: String? = nil, postcode: String? = nil, roadAddress: String? = nil,
                detail: String? = nil, request: String? = nil, isDefault: Bool? = nil) {
        self.recipient = recipient
        self.phone = phone
        self.postcode = postcode
        self.roadAddress = roadAddress
        self.detail = detail
        self.request = request
        self.isDefault = isDefault
    }

    /// `address` with these changes, checked.
    func applied(to address: DeliveryAddress) throws(KeyCatError) -> DeliveryAddress {
        try DeliveryAddress.validated(
            recipient: recipient ?? address.recipient, phone: phone ?? address.phone, postcode: postcode ?? address.postcode,
            roadAddress: roadAddress ?? address.roadAddress, detail: detail ?? address.detail, request: request ?? address.request)
    }
}
