/// The Korean parcel carriers a shipment may go with, each with the tracking numbers it issues.
///
/// Codes are the identifiers the public tracking services use (`kr.cjlogistics`…); a carrier is
/// also found by its Korean name or a short alias (`CJ대한통운`, `cj`), so operators can type
/// what they know. Tracking numbers are checked for their carrier's length, digits only once
/// hyphens and spaces are taken out: a typo is caught when the parcel leaves, not when the
/// buyer cannot find it.
public struct Carrier: Sendable, Hashable, CustomStringConvertible {
    /// The tracking-service code, e.g. `kr.cjlogistics`.
    public let code: String
    /// The name buyers know, e.g. `CJ대한통운`.
    public let name: String
    /// How many digits its tracking numbers have.
    public let trackingDigits: Set<Int>
    let aliases: [String]

    public var description: String { name }

    /// Every carrier KeyCat knows, in the order a seller's menu lists them.
    public static let all: [Carrier] = [
        Carrier(code: "kr.cjlogistics", name: "CJ대한통운", trackingDigits: [10, 12], aliases: ["cj", "cj대한통운", "대한통운"]),
        Carrier(code: "kr.hanjin", name: "한진택배", trackingDigits: [10, 12], aliases: ["hanjin", "한진"]),
        Carrier(code: "kr.lotte", name: "롯데택배", trackingDigits: [12], aliases: ["lotte", "롯데", "롯데글로벌로지스"]),
        Carrier(code: "kr.epost", name: "우체국택배", trackingDigits: [13], aliases: ["epost", "우체국", "koreapost"]),
        Carrier(code: "kr.logen", name: "로젠택배", trackingDigits: [11], aliases: ["logen", "로젠"]),
        Carrier(code: "kr.kdexp", name: "경동택배", trackingDigits: Set(9...16), aliases: ["kdexp", "경동"]),
        Carrier(code: "kr.daesin", name: "대신택배", trackingDigits: [13], aliases: ["daesin", "대신"]),
        Carrier(code: "kr.cupost", name: "CU 편의점택배", trackingDigits: [10, 11, 12], aliases: ["cupost", "cu"]),
        Carrier(code: "kr.cvsnet", name: "GS Postbox 택배", trackingDigits: [10, 11, 12], aliases: ["cvsnet", "gs", "gspostbox"]),
    ]

    /// The carrier `text` names (its code, name or an alias, case and spaces ignored).
    ///
    /// - Throws: `validation` (`carrier`) naming the known codes.
    public static func named(_ text: String) throws(KeyCatError) -> Carrier {
        let key = text.lowercased().filter { !$0.isWhitespace }
        if let carrier = all.first(where: { [$0.code, $0.name.lowercased().filter { !$0.isWhitespace }].contains(key) || $0.aliases.contains(key) }) {
            return carrier
        }
        throw KeyCatError(.validation, "carrier must be one of \(all.map(\.code).joined(separator: ", "))",
                          context: ["field": "carrier"])
    }

    /// `raw` as this carrier's tracking number: its digits, hyphens and spaces taken out.
    ///
    /// - Throws: `validation` (`tracking_number`) when it is not all digits or not of a length
    ///   this carrier issues.
    public func trackingNumber(_ raw: String) throws(KeyCatError) -> String {
        let digits = raw.filter { $0 != "-" && $0 != " " }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), trackingDigits.contains(digits.utf8.count) else {
            let lengths = trackingDigits.sorted().map(String.init).joined(separator: " or ")
            throw KeyCatError(.validation, "a \(name) tracking number is \(lengths) digits",
                              context: ["field": "tracking_number", "carrier": code])
        }
        return digits
    }
}
