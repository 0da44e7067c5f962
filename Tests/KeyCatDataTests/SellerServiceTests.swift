import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

@Suite("Seller applications")
struct SellerServiceTests {
    static let registry = [
        BusinessRegistryEntry(number: try! BusinessRegistrationNumber("220-81-62517"), status: .active),
        BusinessRegistryEntry(number: try! BusinessRegistrationNumber("124-81-00998"), status: .suspended),
        BusinessRegistryEntry(number: try! BusinessRegistrationNumber("120-81-47521"), status: .closed),
        BusinessRegistryEntry(number: try! BusinessRegistrationNumber("105-87-71311"), status: .active),
        BusinessRegistryEntry(number: try! BusinessRegistrationNumber("314-81-10008"), status: .active,
                              representativeName: "홍길동", openingDate: try! CalendarDate(year: 2019, month: 5, day: 10)),
    ]
    static let opened = try! CalendarDate(year: 2020, month: 3, day: 2)
    static func form(_ number: String, name: String = "김대표", opened: CalendarDate = opened) -> SellerApplicationForm {
        SellerApplicationForm(businessNumber: number, representativeName: name, openingDate: opened)
    }

    @Test("an active business waits for an operator; approval makes the applicant a seller", arguments: Backend.allCases)
    func approve(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let buyer = try await harness.signUp()
            let application = try await harness.sellers.apply(Self.form("2208162517"), by: buyer.principal)
            #expect(application.status == .pending)
            #expect(application.registryStatus == .active)
            #expect(application.businessNumber.formatted == "220-81-62517")
            let console = Principal.operatorConsole("root")
            let approved = try await harness.sellers.approve(application.id, by: console)
            #expect(approved.status == .approved)
            #expect(approved.decidedBy == "cli:root")
            await #expect(try harness.users.find(buyer.id)?.role == .seller)
            await #expect(try harness.sellers.application(application.id, by: buyer.principal) == approved)
            // The new role reaches the access token at the next refresh.
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            await #expect(try harness.accounts.authenticate(accessToken: pair.accessToken).role == .seller)
        }
    }

    @Test("an applicant who withdrew or is suspended is not approved: the number would be held from the business for good",
          arguments: Backend.allCases)
    func inactiveApplicant(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let console = Principal.operatorConsole("root")
            let suspended = try await harness.signUp()
            let held = try await harness.sellers.apply(Self.form("220-81-62517"), by: suspended.principal)
            _ = try await harness.accounts.suspend(suspended.id, by: console)
            #expect(await keycatError { try await harness.sellers.approve(held.id, by: console) }?.code == .illegalTransition)
            await #expect(try harness.sellers.application(held.id, by: console).status == .pending)
            _ = try await harness.accounts.reinstate(suspended.id, by: console)
            #expect(try await harness.sellers.approve(held.id, by: console).status == .approved)

            let leaving = try await harness.signUp("lee@example.com", nick: "lee")
            let orphan = try await harness.sellers.apply(Self.form("105-87-71311"), by: leaving.principal)
            try await harness.accounts.withdraw(password: "keycat2026", by: leaving.principal)
            // The withdrawal closed it: no operator could approve it, and it would wait in the
            // queue for ever.
            let closed = try await harness.sellers.application(orphan.id, by: console)
            #expect(closed.status == .rejected && closed.reason == SellerDecision.applicantWithdrew, "\(closed)")
            #expect(closed.decidedBy == leaving.principal.auditActor && closed.decidedAt != nil)
            #expect(try await !harness.sellers.listApplications(status: .pending, by: console).items.contains { $0.id == orphan.id })
            #expect(await keycatError { try await harness.sellers.approve(orphan.id, by: console) }?.code == .illegalTransition)
            await #expect(try harness.users.find(leaving.id)?.role == .buyer)
            // The number is free for the business's real account.
            let owner = try await harness.signUp("park@example.com", nick: "park")
            let real = try await harness.sellers.apply(Self.form("105-87-71311"), by: owner.principal)
            #expect(try await harness.sellers.approve(real.id, by: console).status == .approved)
        }
    }

    @Test("a registry that keeps the representative and the opening date refuses an application that does not give both",
          arguments: Backend.allCases)
    func ownerConfirmed(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let registered = try CalendarDate(year: 2019, month: 5, day: 10)
            // Someone who read the number off the shop's page, with a name and date of their own.
            let stranger = try await harness.signUp()
            for form in [Self.form("314-81-10008"), Self.form("314-81-10008", name: "홍길동"),
                         Self.form("314-81-10008", name: "김대표", opened: registered)] {
                let refused = try await harness.sellers.apply(form, by: stranger.principal)
                #expect(refused.status == .rejected && refused.reason == BusinessRegistryEntry.unconfirmedReason, "\(refused)")
                #expect(refused.decidedBy == SellerService.registryActor && refused.registryStatus == .active)
            }
            // The owner, with the name spelt with a space.
            let owner = try await harness.signUp("hong@example.com", nick: "hong")
            let application = try await harness.sellers.apply(Self.form("314-81-10008", name: "홍 길동", opened: registered), by: owner.principal)
            #expect(application.status == .pending)
            // A registry entry without them (the others above) cannot tell, and leaves it to the operator.
            #expect(try await harness.sellers.apply(Self.form("220-81-62517"), by: stranger.principal).status == .pending)
        }
    }

    @Test("approval asks the registry again: names loaded or a closure since the application stop it, and change nothing",
          arguments: Backend.allCases)
    func registryAskedAgainAtApproval(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let console = Principal.operatorConsole("root")
            // Filed while the registry knew only the numbers' statuses: the operator's to decide.
            let stranger = try await harness.signUp()
            let borrowed = try await harness.sellers.apply(Self.form("220-81-62517"), by: stranger.principal)
            let owner = try await harness.signUp("hong@example.com", nick: "hong")
            let real = try await harness.sellers.apply(Self.form("220-81-62517", name: "홍길동"), by: owner.principal)
            let closing = try await harness.signUp("lee@example.com", nick: "lee")
            let closed = try await harness.sellers.apply(Self.form("105-87-71311"), by: closing.principal)
            #expect([borrowed, real, closed].allSatisfy { $0.status == .pending })
            // Then the operator loads the names and opening dates, and one business closes.
            let number = try BusinessRegistrationNumber("220-81-62517")
            harness.registry.load([
                BusinessRegistryEntry(number: number, status: .active, representativeName: "홍길동", openingDate: Self.opened),
                BusinessRegistryEntry(number: try BusinessRegistrationNumber("105-87-71311"), status: .closed),
            ])
            let refused = await keycatError { try await harness.sellers.approve(borrowed.id, by: console) }
            #expect(refused?.code == .illegalTransition && refused?.context["reason"] == BusinessRegistryEntry.unconfirmedReason,
                    "\(String(describing: refused))")
            let shut = await keycatError { try await harness.sellers.approve(closed.id, by: console) }
            #expect(shut?.code == .illegalTransition && shut?.context["reason"] == BusinessStatus.closed.rejectionReason)
            for (application, user) in [(borrowed, stranger), (closed, closing)] {
                await #expect(try harness.sellers.application(application.id, by: console).status == .pending)
                await #expect(try harness.users.find(user.id)?.role == .buyer)
            }
            // The business's own representative is approved, and the operator rejects the others.
            #expect(try await harness.sellers.approve(real.id, by: console).status == .approved)
            #expect(try await harness.sellers.reject(closed.id, reason: "폐업", by: console).status == .rejected)
        }
    }

    @Test("a user files five applications a day at most, the ones the registry refuses at once included", arguments: Backend.allCases)
    func dailyLimit(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let buyer = try await harness.signUp()
            for _ in 0..<SellerApplication.dailyLimit {
                #expect(try await harness.sellers.apply(Self.form("211-87-11113"), by: buyer.principal).status == .rejected)
                harness.clock.advance(by: 60)
            }
            let asked = harness.registry.asked
            let refused = await keycatError { try await harness.sellers.apply(Self.form("220-81-62517"), by: buyer.principal) }
            #expect(refused?.code == .rateLimited && refused?.context["retry_after"] == String(24 * 3600 - 5 * 60), "\(String(describing: refused))")
            // Refused before the registry, a tax-service API a server may plug in, is asked.
            #expect(harness.registry.asked == asked)
            let console = Principal.operatorConsole("root")
            #expect(try await harness.sellers.listApplications(status: nil, by: console).items.count == SellerApplication.dailyLimit)
            // Another user is not held back, and a day after the first the buyer may file again.
            let other = try await harness.signUp("lee@example.com", nick: "lee")
            #expect(try await harness.sellers.apply(Self.form("220-81-62517"), by: other.principal).status == .pending)
            harness.clock.advance(by: 24 * 3600 - 4 * 60)
            #expect(try await harness.sellers.apply(Self.form("105-87-71311"), by: buyer.principal).status == .pending)
        }
    }

    @Test("an applicant waiting for a decision who applies again is refused before the registry is asked, however often",
          arguments: Backend.allCases)
    func pendingApplicantAppliesAgain(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let buyer = try await harness.signUp()
            #expect(try await harness.sellers.apply(Self.form("220-81-62517"), by: buyer.principal).status == .pending)
            let asked = harness.registry.asked
            for number in ["105-87-71311", "211-87-11113", "220-81-62517"] {
                let refused = await keycatError { try await harness.sellers.apply(Self.form(number), by: buyer.principal) }
                #expect(refused?.code == .duplicate && refused?.context["field"] == "business_number", "\(String(describing: refused))")
            }
            #expect(harness.registry.asked == asked)
            #expect(try await harness.sellers.myApplications(by: buyer.principal).count == 1)
        }
    }

    @Test("a business that is not active is rejected at once with the registry's reason", arguments: Backend.allCases, [
        ("124-81-00998", BusinessStatus.suspended), ("120-81-47521", .closed), ("211-87-11113", .unregistered),
    ])
    func notActive(_ backend: Backend, _ business: (String, BusinessStatus)) async throws {
        let (number, status) = business
        try await withAccounts(backend, registry: Self.registry) { harness in
            let buyer = try await harness.signUp()
            let application = try await harness.sellers.apply(Self.form(number), by: buyer.principal)
            #expect(application.status == .rejected)
            #expect(application.registryStatus == status)
            #expect(application.reason == status.rejectionReason)
            #expect(application.decidedBy == SellerService.registryActor)
            await #expect(try harness.users.find(buyer.id)?.role == .buyer)
            // Rejected already: an operator cannot approve it.
            let error = await keycatError { try await harness.sellers.approve(application.id, by: .operatorConsole("root")) }
            #expect(error?.code == .illegalTransition)
        }
    }

    @Test("rejection keeps the reason and the applicant may apply again", arguments: Backend.allCases)
    func reject(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let buyer = try await harness.signUp()
            let first = try await harness.sellers.apply(Self.form("220-81-62517"), by: buyer.principal)
            let rejected = try await harness.sellers.reject(first.id, reason: "  사업장 주소 불일치 ", by: .operatorConsole("root"))
            #expect(rejected.status == .rejected)
            #expect(rejected.reason == "사업장 주소 불일치")
            await #expect(try harness.users.find(buyer.id)?.role == .buyer)
            let second = try await harness.sellers.apply(Self.form("220-81-62517"), by: buyer.principal)
            #expect(second.status == .pending)
            await #expect(try harness.sellers.myApplications(by: buyer.principal).map(\.id) == [second.id, first.id])
            let other = try await harness.signUp("lee@example.com", nick: "lee")
            await #expect(try harness.sellers.myApplications(by: other.principal).isEmpty)
        }
    }

    @Test("decisions on decided applications are illegal transitions and change nothing", arguments: Backend.allCases)
    func decidedTwice(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let console = Principal.operatorConsole("root")
            let buyer = try await harness.signUp()
            let application = try await harness.sellers.apply(Self.form("220-81-62517"), by: buyer.principal)
            let rejected = try await harness.sellers.reject(application.id, reason: "no", by: console)
            #expect(await keycatError { try await harness.sellers.approve(application.id, by: console) }?.code == .illegalTransition)
            #expect(await keycatError { try await harness.sellers.reject(application.id, reason: "again", by: console) }?.code
                == .illegalTransition)
            await #expect(try harness.sellers.application(application.id, by: console) == rejected)
            await #expect(try harness.users.find(buyer.id)?.role == .buyer)
            #expect(await keycatError { try await harness.sellers.approve(SellerApplicationID(404), by: console) }?.code == .notFound)
        }
    }

    @Test("applying breaks no rule silently", arguments: Backend.allCases, [
        (form("220-81-62518"), KeyCatError.Code.validation, "business_number"),
        (form("22081625"), .validation, "business_number"),
        (form("220-81-62517", name: "  "), .validation, "representative_name"),
        (form("220-81-62517", name: String(repeating: "김", count: 51)), .validation, "representative_name"),
        (form("220-81-62517", opened: try! CalendarDate(year: 2030, month: 1, day: 1)), .validation, "opening_date"),
    ])
    func applyValidation(_ backend: Backend, _ broken: (SellerApplicationForm, KeyCatError.Code, String)) async throws {
        let (form, code, field) = broken
        try await withAccounts(backend, registry: Self.registry) { harness in
            let buyer = try await harness.signUp()
            let error = await keycatError { try await harness.sellers.apply(form, by: buyer.principal) }
            #expect(error?.code == code)
            #expect(error?.context["field"] == field)
            let all = try await harness.sellers.listApplications(by: .operatorConsole("root"))
            #expect(all.items.isEmpty)
        }
    }

    @Test("one pending application per user; a pending one does not hold its number, an approved one does",
          arguments: Backend.allCases)
    func duplicates(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let kim = try await harness.signUp()
            let lee = try await harness.signUp("lee@example.com", nick: "lee")
            let park = try await harness.signUp("park@example.com", nick: "park")
            let squatter = try await harness.sellers.apply(Self.form("220-81-62517"), by: kim.principal)
            let again = await keycatError { try await harness.sellers.apply(Self.form("105-87-71311"), by: kim.principal) }
            #expect(again?.code == .duplicate)
            // The number's real owner applies beside the first application; the operator decides.
            let owner = try await harness.sellers.apply(Self.form("220-81-62517"), by: lee.principal)
            #expect(owner.status == .pending && squatter.status == .pending)
            let approved = try await harness.sellers.approve(owner.id, by: .operatorConsole("root"))
            #expect(approved.status == .approved)
            let lost = try await harness.sellers.application(squatter.id, by: .operatorConsole("root"))
            #expect(lost.status == .rejected && lost.reason == SellerDecision.competitorApproved)
            // Once approved, the number is taken.
            let late = await keycatError { try await harness.sellers.apply(Self.form("220-81-62517"), by: park.principal) }
            #expect(late?.code == .duplicate)
            #expect(await keycatError { try await harness.sellers.approve(squatter.id, by: .operatorConsole("root")) }?.code == .illegalTransition)
        }
    }

    @Test("only buyers apply, only admins decide or list, only owners read", arguments: Backend.allCases)
    func authorization(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let kim = try await harness.signUp()
            let lee = try await harness.signUp("lee@example.com", nick: "lee")
            let application = try await harness.sellers.apply(Self.form("220-81-62517"), by: kim.principal)
            let seller = Principal(userID: lee.id, role: .seller)
            #expect(await keycatError { try await harness.sellers.apply(Self.form("105-87-71311"), by: seller) }?.code
                == .forbidden)
            #expect(await keycatError { try await harness.sellers.approve(application.id, by: kim.principal) }?.code == .forbidden)
            #expect(await keycatError { try await harness.sellers.reject(application.id, reason: "x", by: seller) }?.code == .forbidden)
            #expect(await keycatError { try await harness.sellers.listApplications(by: kim.principal) }?.code == .forbidden)
            #expect(await keycatError { try await harness.sellers.application(application.id, by: lee.principal) }?.code == .notOwner)
            #expect(await keycatError { try await harness.sellers.reject(application.id, reason: " ", by: .operatorConsole("root")) }?
                .context["field"] == "reason")
        }
    }

    @Test("operators list applications by status, page by page", arguments: Backend.allCases)
    func list(backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let console = Principal.operatorConsole("root")
            for (index, number) in ["220-81-62517", "124-81-00998", "105-87-71311", "120-81-47521"].enumerated() {
                let user = try await harness.signUp("user\(index)@example.com", nick: "user\(index)")
                _ = try await harness.sellers.apply(Self.form(number), by: user.principal)
            }
            await #expect(try harness.sellers.listApplications(status: .pending, by: console).items.count == 2)
            await #expect(try harness.sellers.listApplications(status: .rejected, by: console).items.count == 2)
            let first = try await harness.sellers.listApplications(limit: PageLimit(3), by: console)
            #expect(first.items.count == 3)
            let cursor = try #require(first.nextCursor)
            let second = try await harness.sellers.listApplications(limit: PageLimit(3), cursor: cursor, by: console)
            #expect(second.items.map(\.id) == [SellerApplicationID(4)])
            #expect(second.nextCursor == nil)
            // A cursor is bound to its filter.
            #expect(await keycatError { try await harness.sellers.listApplications(status: .pending, cursor: cursor, by: console) }?.code
                == .invalidCursor)
        }
    }

    @Test("approval, its role change and its audit entry commit together", arguments: Backend.stored)
    func auditInSameTransaction(_ backend: Backend) async throws {
        try await withAccounts(backend, registry: Self.registry) { harness in
            let entries = {
                try await harness.query("SELECT action, actor, target FROM audit_log ORDER BY id DESC") {
                    [$0.string(0), $0.string(1), $0.string(2)]
                } ?? []
            }
            let buyer = try await harness.signUp()
            let application = try await harness.sellers.apply(Self.form("220-81-62517"), by: buyer.principal)
            _ = try await harness.sellers.approve(application.id, by: .operatorConsole("root"))
            #expect(try await entries() == [["seller.approve", "cli:root", "seller_application:\(application.id)"]])
            await #expect(try harness.users.find(buyer.id)?.role == .seller)
            // A refused decision writes no audit entry.
            _ = await keycatError { try await harness.sellers.reject(application.id, reason: "late", by: .operatorConsole("root")) }
            #expect(try await entries().count == 1)
        }
    }
}
