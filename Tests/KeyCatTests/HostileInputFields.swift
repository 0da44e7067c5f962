import Foundation
import KeyCat
import Testing

extension HostileField {
    static let password = "keycat2026"

    /// Every text field a client sends, each through the use case that takes it.
    static let all: [HostileField] = accounts + catalog + sellers + orders + audit

    /// The audit log's filters: read, never stored, so a NUL must still be bad input on Postgres.
    static let audit: [HostileField] = [
        auditFilter("audit filter: actor") { AuditFilter(actor: $0) },
        auditFilter("audit filter: action") { AuditFilter(action: $0) },
        auditFilter("audit filter: target") { AuditFilter(target: $0) },
    ]

    static func auditFilter(_ name: String, _ filter: @escaping @Sendable (String) -> AuditFilter) -> HostileField {
        HostileField(name: name) { shop, _ in
            HostileField.Probe { text in
                let page = try await shop.keycat.audit.list(filter(text), by: shop.shop.operatorConsole)
                #expect(page.items.isEmpty)
                return nil
            }
        }
    }

    static let accounts: [HostileField] = [
        HostileField(name: "sign-up email", shape: { "\($0)@example.com" }) { shop, _ in
            HostileField.Probe { text in
                let user = try await shop.keycat.accounts.signUp(SignUpForm(email: text, password: password, nick: "kim"))
                return try await shop.keycat.accounts.profile(of: user.id, by: shop.shop.operatorConsole).email
            }
        },
        HostileField(name: "sign-up nick") { shop, index in
            HostileField.Probe { text in
                let user = try await shop.keycat.accounts.signUp(SignUpForm(email: "nick\(index)@example.com", password: password, nick: text))
                return try await shop.keycat.accounts.profile(of: user.id, by: shop.shop.operatorConsole).nick
            }
        },
        HostileField(name: "sign-up password", shape: { "\($0)Pass1234" }) { shop, index in
            HostileField.Probe { text in
                let email = "password\(index)@example.com"
                _ = try await shop.keycat.accounts.signUp(SignUpForm(email: email, password: text, nick: "kim"))
                _ = try await shop.keycat.accounts.logIn(email: email, password: text)
                return nil
            }
        },
        HostileField(name: "sign-up phone") { shop, index in
            HostileField.Probe { text in
                let user = try await shop.keycat.accounts.signUp(
                    SignUpForm(email: "phone\(index)@example.com", password: password, nick: "kim", phone: text))
                return try await shop.keycat.accounts.profile(of: user.id, by: shop.shop.operatorConsole).phone
            }
        },
        HostileField(name: "log-in email", shape: { "\($0)@example.com" }) { shop, _ in
            HostileField.Probe { text in
                _ = try await shop.keycat.accounts.logIn(email: text, password: password, client: "203.0.113.7")
                return nil
            }
        },
        profile("profile nick", { ProfileUpdate(nick: $0) }, { $0.nick }),
        profile("profile phone", { ProfileUpdate(phone: .set($0)) }, { $0.phone }),
        profile("profile image", { ProfileUpdate(profileImage: .set($0)) }, { $0.profileImage }),
    ]

    /// A profile field, changed by its own user.
    static func profile(_ name: String, _ update: @escaping @Sendable (String) -> ProfileUpdate,
                        _ field: @escaping @Sendable (User) -> String?) -> HostileField {
        HostileField(name: name) { shop, _ in
            let user = try await shop.user(.buyer)
            let profile = { try await shop.keycat.accounts.profile(of: user.userID, by: user) }
            return HostileField.Probe(send: { text in
                await field(try shop.keycat.accounts.updateProfile(update(text), by: user))
            }, state: { "\(try await profile())" })
        }
    }

    static let catalog: [HostileField] = [
        HostileField(name: "listing title") { shop, _ in
            let seller = try await shop.user(.seller)
            return HostileField.Probe { text in
                let product = try await shop.keycat.catalog.create(TestShop.draft(text), for: seller.userID, by: seller)
                return try await shop.keycat.catalog.product(product.id).title
            }
        },
        HostileField(name: "listing content") { shop, _ in
            let seller = try await shop.user(.seller)
            return HostileField.Probe { text in
                let product = try await shop.keycat.catalog.create(TestShop.draft { $0.content = text }, for: seller.userID, by: seller)
                return try await shop.keycat.catalog.product(product.id).content
            }
        },
        edit("listing title, edited", { $0.title = $1 }, { $0.title }),
        edit("listing content, edited", { $0.content = $1 }, { $0.content }),
        HostileField(name: "stock adjustment reason") { shop, _ in
            let product = try await shop.product()
            let seller = Principal(userID: product.sellerID, role: .seller)
            return HostileField.Probe(send: { text in
                _ = try await shop.keycat.catalog.adjustStock(product.id, by: StockAdjustment(change: 1, reason: text), by: seller)
                return try await shop.keycat.catalog.stockHistory(product.id, by: seller).items.last?.reason
            }, state: { "\(try await shop.keycat.catalog.product(product.id))" })
        },
        HostileField(name: "review", shape: { "\($0) 타건감이 아주 좋습니다" }) { shop, _ in
            let product = try await shop.product()
            let buyer = try await shop.buyer(of: product)
            return HostileField.Probe { text in
                let review = try await shop.keycat.reviews.write(ReviewForm(rating: 4, content: text), of: product.id, by: buyer)
                return try await shop.keycat.reviews.review(review.id).content
            }
        },
    ]

    /// A listing field, edited by its seller.
    static func edit(_ name: String, _ change: @escaping @Sendable (inout ProductChanges, String) -> Void,
                     _ field: @escaping @Sendable (Product) -> String) -> HostileField {
        HostileField(name: name) { shop, _ in
            let product = try await shop.product()
            let seller = Principal(userID: product.sellerID, role: .seller)
            return HostileField.Probe(send: { text in
                var changes = ProductChanges(expectedVersion: product.version)
                change(&changes, text)
                _ = try await shop.keycat.catalog.update(product.id, changes, by: seller)
                return await field(try shop.keycat.catalog.product(product.id))
            }, state: { "\(try await shop.keycat.catalog.product(product.id))" })
        }
    }

    static let sellers: [HostileField] = [
        application("seller application: representative", { SellerApplicationForm(businessNumber: "2208162517",
                                                                                    representativeName: $0, openingDate: $1) }),
        application("seller application: business number", { SellerApplicationForm(businessNumber: $0,
                                                                                     representativeName: "김키캣", openingDate: $1) }),
        HostileField(name: "seller rejection reason") { shop, index in
            let console = shop.shop.operatorConsole
            let applicant = try await shop.user(.buyer)
            let number = validNumbers[index]
            try await shop.keycat.loadBusinessRegistry([BusinessRegistryEntry(number: number, status: .active)], by: console)
            let application = try await shop.keycat.sellers.apply(
                SellerApplicationForm(businessNumber: number.digits, representativeName: "김키캣",
                                      openingDate: try CalendarDate(iso8601: "2021-04-01")), by: applicant)
            return HostileField.Probe(send: { text in
                _ = try await shop.keycat.sellers.reject(application.id, reason: text, by: console)
                return try await shop.keycat.sellers.application(application.id, by: console).reason
            }, state: { "\(try await shop.keycat.sellers.application(application.id, by: console))" })
        },
    ]

    /// Business numbers whose checksum holds, one per value: each pending application needs its own.
    static let validNumbers: [BusinessRegistrationNumber] = (0..<100).compactMap {
        try? BusinessRegistrationNumber("22081625" + String(format: "%02d", $0))
    }

    /// A seller application with the hostile text in one field.
    static func application(_ name: String, _ form: @escaping @Sendable (String, CalendarDate) -> SellerApplicationForm)
        -> HostileField
    {
        HostileField(name: name) { shop, _ in
            let applicant = try await shop.user(.buyer)
            return HostileField.Probe { text in
                let application = try await shop.keycat.sellers.apply(
                    form(text, try CalendarDate(iso8601: "2021-04-01")), by: applicant)
                let stored = try await shop.keycat.sellers.application(application.id, by: shop.shop.operatorConsole)
                return name.hasSuffix("representative") ? stored.representativeName : nil
            }
        }
    }
}
