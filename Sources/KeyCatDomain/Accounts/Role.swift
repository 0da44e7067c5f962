/// What a user may do. Everyone starts as a buyer; a seller application approved by an operator
/// makes a seller; admins are created by operators.
public enum Role: String, Sendable, Hashable, CaseIterable, Codable {
    case buyer
    case seller
    case admin
}
