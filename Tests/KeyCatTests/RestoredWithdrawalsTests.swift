import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// A restore puts back an older copy of the database; the withdrawals made since are read from
/// the database it replaces and made again in the copy (`KeyCat.carryForward(_:by:)`).
@Suite("Withdrawals carried into a restored database", .serialized)
struct RestoredWithdrawalsTests {
    @Test("the people who withdrew since are withdrawn again, once; a seller with a parcel to send in the copy is named, not withdrawn",
          arguments: TestStore.allCases)
    func carried(_ store: TestStore) async throws {
        try await TestShop.with(store) { live in
            try await TestShop.with(store) { copy in
                // The same people in both, made in the same order: the copy is the live shop as it was.
                let (kim, lee) = (try await live.user(.buyer, "kim"), try await live.user(.seller, "lee"))
                #expect(try await copy.user(.buyer, "kim") == kim)
                #expect(try await copy.user(.seller, "lee") == lee)
                let board = try await copy.keycat.catalog.create(TestShop.draft("보드", price: 50_000) { $0.stock = 3 }, for: lee.userID, by: lee)
                let buyer = try await copy.user(.buyer)
                let placed = try await copy.checkout(board, by: buyer)
                _ = try await copy.keycat.checkout.confirm(placed.id, impUID: try copy.pay(placed).impUID, by: buyer)

                // Since the copy was taken, both withdrew from the live shop.
                try await live.keycat.accounts.withdraw(password: "keycat123", by: kim)
                try await live.keycat.accounts.withdraw(password: "keycat123", by: lee)
                let withdrawals = try await live.keycat.withdrawals()
                #expect(withdrawals.map(\.userID) == [kim.userID, lee.userID])
                await expectFailure(.forbidden) { try await copy.keycat.carryForward(withdrawals, by: buyer) }

                // An id the copy does not hold, and kim's id as another account's (made at another
                // time: another database's backup, or ids handed out again) are no one to withdraw.
                let gone = KeyCat.Withdrawal(userID: UserID(999_999), createdAt: .distantPast, at: Date(timeIntervalSince1970: 1_700_000_000))
                var stranger = withdrawals[0]
                stranger.createdAt = stranger.createdAt.addingTimeInterval(-1)
                let nobody = try await copy.keycat.carryForward([stranger, gone], by: copy.operatorConsole)
                #expect(nobody.carried.isEmpty && nobody.refused.isEmpty)
                let outcome = try await copy.keycat.carryForward(withdrawals + [gone], by: copy.operatorConsole)
                #expect(outcome.carried == [kim.userID])
                #expect(outcome.refused.map(\.userID) == [lee.userID])
                #expect(outcome.refused.first?.reason.contains("parcel") == true, "\(outcome.refused)")
                let erased = try await copy.keycat.accounts.profile(of: kim.userID, by: copy.operatorConsole)
                #expect(erased.withdrawnAt == withdrawals[0].at && erased.email != "kim@example.com")
                await #expect(try copy.keycat.accounts.profile(of: lee.userID, by: copy.operatorConsole).isActive)
                let audit = try await copy.keycat.auditLog.recent(limit: 50).filter { $0.action == "user.withdraw" }
                #expect(audit.map(\.target) == ["user:\(kim.userID)"] && audit.first?.detail.contains("carried") == true)
                let told = try await copy.keycat.eventLog.settled(after: .start).filter { $0.type == .userWithdrawn }
                #expect(told.map(\.aggregate.id) == [kim.userID.rawValue])

                // Asked again, nothing more is withdrawn.
                let again = try await copy.keycat.carryForward(withdrawals, by: copy.operatorConsole)
                #expect(again.carried.isEmpty && again.refused.map(\.userID) == [lee.userID])
                try await copy.expectHealthy()
            }
        }
    }
}
