import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

@Suite("keycat-admin: users and sellers")
struct AdminAccountsTests {
    private func userCount(_ database: AdminDatabase) throws -> Int {
        let outcome = try database.run(["users", "list", "--db", database.argument, "--json", "--limit", "100"])
        let page = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        return (page?["items"] as? [Any])?.count ?? -1
    }

    @Test("users create reads the password from stdin; a duplicate email is exit 1 and changes nothing",
          arguments: TestStore.allCases)
    func createUsers(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let path = database.argument
            let created = try database.run(
                ["users", "create", "--db", path, "--email", "Kim@Example.com", "--nick", "김키캣", "--role", "seller", "--json"],
                input: "keycat2026\n")
            #expect(created.status == 0, "\(created.standardError)")
            let user = try JSONSerialization.jsonObject(with: Data(created.standardOutput.utf8)) as? [String: Any]
            #expect(user?["email"] as? String == "kim@example.com")
            #expect(user?["role"] as? String == "seller")
            #expect(!created.standardOutput.contains("keycat2026"))

            let duplicate = try database.run(
                ["users", "create", "--db", path, "--email", "KIM@example.com", "--nick", "또다른", "--json"], input: "keycat2026\n")
            #expect(duplicate.status == 1)
            #expect(duplicate.standardError.contains("\"code\":\"duplicate\""))
            #expect(try userCount(database) == 1)

            let noPassword = try database.run(["users", "create", "--db", path, "--email", "lee@example.com", "--nick", "이키캣"])
            #expect(noPassword.status == 1)
            let weak = try database.run(["users", "create", "--db", path, "--email", "lee@example.com", "--nick", "이키캣"], input: "short\n")
            #expect(weak.status == 1)
            #expect(try userCount(database) == 1)

            let shown = try database.run(["users", "show", "1", "--db", path])
            #expect(shown.status == 0 && shown.standardOutput.contains("kim@example.com"))
            let unknown = try database.run(["users", "show", "42", "--db", path])
            #expect(unknown.status == 1)
            #expect(try database.run(["users", "create", "--db", path, "--email", "x@example.com", "--nick", "xx", "--role", "root"], input: "keycat2026\n").status == 2)
        }
    }

    @Test("the registry loads all or nothing; approving decides once; approving a rejected application fails",
          arguments: TestStore.allCases)
    func sellerFlow(_ store: TestStore) async throws {
        try await withAdminDatabase(store) { database in
            let (path, directory) = (database.argument, database.directory)
            let bad = directory.appendingPathComponent("bad.csv")
            try "220-81-62517,01\n123-45-67890,01\n".write(to: bad, atomically: true, encoding: .utf8)
            let refused = try database.run(["sellers", "registry", bad.path, "--db", path])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("line 2"))
            let good = directory.appendingPathComponent("good.csv")
            try "# number,b_stt_cd\n220-81-62517,01\n1208147521,01\n".write(to: good, atomically: true, encoding: .utf8)
            #expect(try database.run(["sellers", "registry", good.path, "--db", path]).status == 0)

            // Two buyers apply through the library, as a server would.
            var configuration = database.configuration
            configuration.passwordIterations = 1_000
            let keycat = try await KeyCat.open(configuration)
            var applicants: [User] = []
            for name in ["park", "choi"] {
                applicants.append(try await keycat.accounts.signUp(
                    SignUpForm(email: "\(name)@example.com", password: "keycat2026", nick: name)))
            }
            let first = try await keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "220-81-62517", representativeName: "박대표",
                                      openingDate: try CalendarDate(year: 2020, month: 1, day: 2)),
                by: applicants[0].principal)
            let second = try await keycat.sellers.apply(
                SellerApplicationForm(businessNumber: "1208147521", representativeName: "최대표",
                                      openingDate: try CalendarDate(year: 2021, month: 3, day: 4)),
                by: applicants[1].principal)
            keycat.close()

            let pending = try database.run(["sellers", "list", "--db", path, "--status", "pending", "--json"])
            #expect(pending.standardOutput.contains("\"status\":\"pending\""))
            #expect(try database.run(["sellers", "approve", "\(first.id.rawValue)", "--db", path]).status == 0)
            #expect(try database.run(["sellers", "reject", "\(second.id.rawValue)", "--db", path, "--reason", "서류 불일치"]).status == 0)
            let again = try database.run(["sellers", "approve", "\(second.id.rawValue)", "--db", path, "--json"])
            #expect(again.status == 1)
            #expect(again.standardError.contains("illegal_transition"))
            #expect(try database.run(["sellers", "approve", "999", "--db", path]).status == 1)
            let roles = try database.run(["users", "list", "--db", path, "--json"]).standardOutput
            #expect(roles.contains("\"email\":\"park@example.com\",\"nick\":\"park\",\"role\":\"seller\""))
            #expect(roles.contains("\"email\":\"choi@example.com\",\"nick\":\"choi\",\"role\":\"buyer\""))
            // By part of a nick, Latin letters in either case.
            let found = try database.run(["users", "list", "--db", path, "--nick", "PAR", "--json"]).standardOutput
            #expect(found.contains("\"nick\":\"park\"") && !found.contains("\"nick\":\"choi\""), "\(found)")
            #expect(try database.run(["users", "list", "--db", path, "--nick", " ", "--json"]).status == 1)
            #expect(try database.run(["sellers", "reject", "1", "--db", path]).status == 2)
        }
    }
}
