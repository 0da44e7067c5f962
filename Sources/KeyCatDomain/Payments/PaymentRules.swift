/// The rules of what a client or the PG's webhook names a payment with, shared with
/// `openapi.yaml` (checked by the contract tests).
public enum PaymentRules {
    /// The pattern of an `imp_uid`, as `openapi.yaml` spells it.
    public static let impUIDPattern = "^imp_[0-9A-Za-z]{1,32}$"
    /// How many characters may follow `imp_`.
    public static let impUIDSuffixLength = 1...32

    /// Checks a PG payment id (PortOne v1's `imp_uid`): `imp_` and 1–32 ASCII letters or
    /// digits. PortOne issues `imp_` and twelve digits (`imp_123456789012`), as the simulator
    /// does; the bound leaves room for longer ones while keeping whatever a client or an
    /// unverified body sends out of the PG's URL path (`/payments/{imp_uid}`) and out of logs:
    /// no `/`, `%`, `?`, space or unbounded length ever reaches the gateway.
    ///
    /// - Parameter field: the name the validation error carries.
    /// - Throws: `validation` naming `field`.
    public static func impUID(_ raw: String, field: String = "imp_uid") throws(KeyCatError) -> String {
        guard isImpUID(raw) else {
            throw KeyCatError.validation(field, "\(field) must be imp_ and 1 to 32 letters or digits, such as imp_123456789012")
        }
        return raw
    }

    /// Whether `text` is a well-formed `imp_uid` (``impUID(_:field:)``).
    public static func isImpUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 4, bytes.starts(with: Array("imp_".utf8)), impUIDSuffixLength.contains(bytes.count - 4) else { return false }
        return bytes.dropFirst(4).allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        }
    }
}
