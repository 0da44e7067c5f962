import Foundation

/// architecture §2's rules for account fields. Each returns the normalised value or throws a
/// validation error naming the field. Messages never repeat a password.
public enum AccountRules {
    public static let nickLength = 2...20
    public static let passwordLength = 8...64
    public static let maxEmailLength = 254
    public static let maxProfileImageLength = 500

    /// The nick a withdrawn account shows wherever its reviews, follows and parcels still name
    /// it: its own nick went with the rest of what identified the person.
    public static let withdrawnNick = "탈퇴한 회원"

    /// The email a withdrawn account keeps in place of its own: unique to the account, under
    /// the `.invalid` domain no mail reaches (RFC 2606), so nothing can sign in or be written to
    /// with it.
    public static func withdrawnEmail(_ id: UserID) -> String { "user-\(id.rawValue)@withdrawn.invalid" }

    /// Trims and case-folds an email and checks its shape: one `@`, a non-empty local part, a
    /// domain with a dot, no spaces or control characters (a NUL, which Postgres cannot store,
    /// among them), at most 254 characters.
    public static func email(_ raw: String) throws(KeyCatError) -> String {
        let email = try TextRules.text(raw, emailField).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= maxEmailLength, parts.count == 2, !parts[0].isEmpty,
              parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !email.contains(where: { $0.isWhitespace || $0.isNewline }), !hasControlCharacter(email) else {
            throw KeyCatError.validation("email", "email must look like name@example.com")
        }
        // No mail reaches `.invalid` (RFC 2606), and withdrawn accounts keep such an address
        // (``withdrawnEmail(_:)``): a live account with one would pass for a withdrawn one.
        guard !parts[1].hasSuffix(".invalid") else {
            throw KeyCatError.validation("email", "an address under .invalid receives no mail")
        }
        return email
    }

    /// Whether `text` holds a control character (Unicode category Cc: NUL, escape, DEL…), read
    /// from each scalar's own properties so the rule is the same on every platform.
    public static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// An email's text rules: 254 characters and 320 bytes (RFC 5321's limits on a path), no
    /// format characters.
    public static let emailField = TextRules.Field("email", characters: 0...maxEmailLength, maximumBytes: 320,
                                                   formatCharacters: .refused)
    /// A nick's text rules: 2–20 characters, at most 80 bytes, no control or format characters.
    public static let nickField = TextRules.Field("nick", characters: nickLength, refusesControlCharacters: true,
                                                  formatCharacters: .refused)
    /// A profile image's text rules: at most 500 characters and 2,000 bytes.
    public static let profileImageField = TextRules.Field("profile_image", characters: 1...maxProfileImageLength)

    /// Trims a nick, normalises it to NFC and checks it is 2–20 characters and at most 80 bytes,
    /// with no control or format characters and no long run of combining marks (``TextRules``).
    public static func nick(_ raw: String) throws(KeyCatError) -> String {
        // Control (Cc) and format (Cf) characters are refused by the field's rules, so
        // openapi.yaml can spell the rule exactly.
        try TextRules.text(raw, nickField)
    }

    /// What an operator types to find accounts by nick: 1–20 characters, no control or format
    /// characters.
    public static let nickSearchField = TextRules.Field("nick", characters: 1...nickLength.upperBound, refusesControlCharacters: true,
                                                        formatCharacters: .refused)

    /// A nick search term as the stores match it (``UserRepository/list(nickContaining:after:limit:)``):
    /// trimmed, normalised to NFC as nicks are stored, and its ASCII letters lowercased. A nick
    /// matches when it contains the term, Latin letters in either case (`KEY` finds `keycat`),
    /// every other character exactly: a Hangul term matches whole syllables (`민` finds `김민아`;
    /// the jamo `ㅁ` finds nothing), and `é` is not `e` or `É`.
    ///
    /// - Throws: `validation` naming `nick` for an empty or over-long term.
    public static func nickSearchTerm(_ raw: String) throws(KeyCatError) -> String {
        asciiLowercased(try TextRules.text(raw, nickSearchField))
    }

    /// `text` with A–Z lowercased and nothing else changed.
    public static func asciiLowercased(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar)
        }
        return String(scalars)
    }

    /// Checks a new password: 8–64 characters with at least one letter and one digit. The
    /// password is returned untouched (no trimming: spaces are part of it). Its length counts
    /// Unicode code points, as NIST SP 800-63B asks (and as JSON Schema's `minLength` does):
    /// a letter and its combining accent are two characters of a secret.
    public static func password(_ password: String) throws(KeyCatError) -> String {
        guard passwordLength.contains(password.unicodeScalars.count) else {
            throw KeyCatError.validation("password", "password must be 8 to 64 characters")
        }
        guard password.contains(where: \.isLetter), password.contains(where: \.isNumber) else {
            throw KeyCatError.validation("password", "password must contain a letter and a digit")
        }
        return password
    }

    /// Normalises a Korean phone number to its digits: 9–11 digits starting with 0, hyphens
    /// and spaces allowed in the input (`010-1234-5678` → `01012345678`).
    public static func phone(_ raw: String) throws(KeyCatError) -> String {
        let digits = raw.filter { $0 != "-" && $0 != " " }
        guard (9...11).contains(digits.count), digits.hasPrefix("0"),
              digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw KeyCatError.validation("phone", "phone must be a Korean number such as 010-1234-5678")
        }
        return digits
    }

    /// Checks a birthday lies between 1900-01-01 and `today`.
    public static func birthday(_ date: CalendarDate, today: CalendarDate) throws(KeyCatError) -> CalendarDate {
        guard date.year >= 1900, date <= today else {
            throw KeyCatError.validation("birthday", "birthday must be between 1900-01-01 and today")
        }
        return date
    }

    /// Whether `text` is `https://`, a host name (a letter or digit, then up to 98 letters,
    /// digits, dots and hyphens; no port, no user, no IP literal) and an optional path (`/` and up
    /// to 380 characters that are not white space) — what `openapi.yaml`'s pattern spells.
    ///
    /// An IPv6 literal (`[::1]`) has brackets and colons, which a host name has not. An IPv4
    /// literal is whatever a browser would read as one: the WHATWG URL standard's host parser
    /// takes a host whose last label (a trailing dot dropped) is a number — decimal digits, or
    /// `0x` and hex digits — as an IPv4 address, in every short form (`127.1`, `2130706433`,
    /// `0x7f000001`, `0177.0.0.1`), so such a host is refused (``endsInANumber(_:)``).
    static func isHTTPSImageURL(_ text: String) -> Bool {
        guard text.hasPrefix("https://") else { return false }
        let rest = text.utf8.dropFirst(8)
        let hostEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let host = rest[..<hostEnd], path = rest[hostEnd...]
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard let first = host.first, isAlphanumeric(first), host.count <= 99,
              host.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }),
              !endsInANumber(host) else { return false }
        return path.isEmpty || String(decoding: path, as: UTF8.self).count <= 381
    }

    /// The WHATWG URL standard's "ends in a number" check (§3.5, host parsing): whether the
    /// host's last label, once a trailing empty one is dropped, is all ASCII digits or `0x`/`0X`
    /// followed by hex digits — the hosts a browser parses as an IPv4 address.
    static func endsInANumber(_ host: Substring.UTF8View) -> Bool {
        var labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        if last.allSatisfy(isDigit) { return true }
        let bytes = Array(last)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X") else {
            return false
        }
        return bytes.dropFirst(2).allSatisfy { isDigit($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Checks a profile image: an `https://` URL of at most 500 characters, no spaces. Only
    /// https: a profile is shown to other users, and an `http:` image would leak their reading
    /// to the network and be refused as mixed content; a `javascript:` or `data:` URL is no
    /// image at all. KeyCat never fetches it: the app shows it.
    public static func profileImage(_ raw: String) throws(KeyCatError) -> String {
        let reference = try TextRules.text(raw, profileImageField)
        guard (1...maxProfileImageLength).contains(reference.count),
              !reference.contains(where: { $0.isWhitespace }) else {
            throw KeyCatError.validation("profile_image", "profile image must be an image reference of at most 500 characters")
        }
        guard isHTTPSImageURL(reference) else {
            throw KeyCatError.validation("profile_image", "profile image must be an https:// URL: a host name, then an optional path")
        }
        return reference
    }
}
