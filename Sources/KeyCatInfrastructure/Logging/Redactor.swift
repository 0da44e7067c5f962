import Foundation

/// Blanks out secrets and personal data before anything is logged: credentials, tokens,
/// signatures, card numbers, buyers' words and contact fields, in JSON bodies, headers and free
/// text.
///
/// Redaction is by key (a JSON field or header whose name says it holds a secret) and by shape
/// (a Luhn-valid run of 13–19 digits, possibly grouped by spaces or dashes, is taken for a card
/// number).
public enum Redactor {
    /// The replacement text.
    public static let mask = "[REDACTED]"

    /// Field and header names (lower-cased) whose values are never logged. (Until 2026-12-01 only
    /// secrets: a buyer's cancel reason went into every PG request's log line as written.)
    public static let sensitiveKeys: Set<String> = [
        "authorization", "access_token", "token", "imp_key", "imp_secret", "secret", "api_key",
        "api_secret", "password", "card_number", "cardnumber", "cvc", "cvv", "webhook-signature",
        "idempotency-key",
        // Personal data: a buyer's own words (a cancel's reason, which buyers fill with phone
        // numbers) and the buyer fields of the PG's payment objects. Logs are shipped and kept
        // longer than the shop keeps the person's data.
        "reason", "cancel_reason", "buyer_name", "buyer_email", "buyer_tel", "buyer_addr", "buyer_postcode",
        "email", "phone", "tel",
    ]

    /// `headers` with every sensitive value masked.
    public static func headers(_ headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, entry in
            result[entry.key] = sensitiveKeys.contains(entry.key.lowercased()) ? mask : text(entry.value)
        }
    }

    /// A body as loggable text: JSON with sensitive fields masked, else the text with card-like
    /// digit runs masked. Non-UTF-8 bodies are summarised by size.
    public static func body(_ body: Data) -> String {
        if body.isEmpty { return "" }
        if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
           let masked = try? JSONSerialization.data(withJSONObject: redactJSON(object), options: [.sortedKeys, .fragmentsAllowed]) {
            return text(String(decoding: masked, as: UTF8.self))
        }
        guard let string = String(data: body, encoding: .utf8) else { return "<\(body.count) bytes>" }
        return text(string)
    }

    /// `string` with card-like digit runs masked: 13–19 digits (spaces or dashes between them
    /// allowed) that pass the Luhn check every card number passes, so order numbers and
    /// millisecond timestamps mostly survive.
    public static func text(_ string: String) -> String {
        // A hand-written scan (a Regex costs tens of microseconds per line): at each digit,
        // take up to 19 digits, single spaces or dashes allowed between them; a run of 13 or
        // more is a candidate and is masked when it passes Luhn.
        let bytes = Array(string.utf8)
        var digitCount = 0
        for byte in bytes where isDigit(byte) { digitCount += 1 }
        guard digitCount >= 13 else { return string }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard isDigit(bytes[index]) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            var digits: [UInt8] = [bytes[index]]
            var end = index + 1  // one past the last digit taken
            var cursor = end
            while digits.count < 19, cursor < bytes.count {
                if isDigit(bytes[cursor]) {
                    digits.append(bytes[cursor])
                    cursor += 1
                    end = cursor
                } else if (bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "-")),
                          cursor + 1 < bytes.count, isDigit(bytes[cursor + 1]) {
                    cursor += 1
                } else {
                    break
                }
            }
            if digits.count >= 13, isLuhnValid(String(decoding: digits, as: UTF8.self)) {
                output += Array(mask.utf8)
            } else {
                output += bytes[index..<end]
            }
            index = end
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The Luhn (mod 10) check of ISO/IEC 7812 card numbers.
    static func isLuhnValid(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard var digit = character.wholeNumberValue else { return false }
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }

    private static func redactJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, element) in object {
                result[key] = sensitiveKeys.contains(key.lowercased()) ? mask : redactJSON(element)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(redactJSON) }
        return value
    }
}
