import Testing
@testable import KeyCatDomain

@Suite("Principal authorization")
struct PrincipalTests {
    @Test("a role outside the allowed ones is forbidden", arguments: [
        (Role.buyer, [Role.admin], false), (.seller, [.admin], false), (.admin, [.admin], true),
        (.buyer, [.buyer, .seller], true), (.admin, [.buyer], false),
    ])
    func roles(role: Role, allowed: [Role], passes: Bool) {
        let principal = Principal(userID: UserID(1), role: role)
        let result = Result { () throws(KeyCatError) in
            switch allowed.count {
            case 1: try principal.require(allowed[0], to: "act")
            default: try principal.require(allowed[0], allowed[1], to: "act")
            }
        }
        switch result {
        case .success: #expect(passes)
        case .failure(let error): #expect(!passes && error.code == .forbidden)
        }
    }

    @Test("only the owner or an admin passes the ownership check")
    func ownership() throws {
        try Principal(userID: UserID(7), role: .buyer).requireOwnerOrAdmin(UserID(7), of: "profile")
        try Principal(userID: UserID(1), role: .admin).requireOwnerOrAdmin(UserID(7), of: "profile")
        #expect(throws: KeyCatError(.notOwner, "this profile belongs to someone else", context: ["entity": "profile"])) {
            try Principal(userID: UserID(8), role: .seller).requireOwnerOrAdmin(UserID(7), of: "profile")
        }
    }

    @Test("an object whose existence must not leak is not found to anyone but its owner or an admin")
    func hiddenOwnership() throws {
        try Principal(userID: UserID(7), role: .buyer).requireOwnerOrAdmin(UserID(7), hiding: "order", OrderID(3))
        try Principal(userID: UserID(1), role: .admin).requireOwnerOrAdmin(UserID(7), hiding: "order", OrderID(3))
        #expect(throws: KeyCatError.notFound("order", OrderID(3))) {
            try Principal(userID: UserID(8), role: .buyer).requireOwnerOrAdmin(UserID(7), hiding: "order", OrderID(3))
        }
    }

    @Test("the audit log names users by role and id, and the console by operator name")
    func auditActors() {
        #expect(Principal(userID: UserID(3), role: .admin).auditActor == "admin:3")
        #expect(Principal.operatorConsole("root").auditActor == "cli:root")
        #expect(Principal.operatorConsole("root").role == .admin)
    }
}
