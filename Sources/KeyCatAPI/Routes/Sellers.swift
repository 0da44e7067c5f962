import Foundation
import KeyCat

/// Seller applications: a buyer applies; operators list, approve and reject.
enum SellerRoutes {
    static let routes: [Route] = [
        Route(.post, "/seller-applications", .signedIn, body: .jsonDefault, status: 201) { context in
            let form = try context.json(SellerApplicationFormBody.self).form
            let application = try await context.keycat.sellers.apply(form, by: context.principal())
            return .json(SellerApplicationBody(application), status: 201).located(at: "/seller-applications/\(application.id)")
        },
        Route(.get, "/seller-applications", .admin, query: pageQuery + ["status"]) { context in
            let page = try await context.keycat.sellers.listApplications(
                status: context.choice("status"), limit: context.limit(), cursor: context.cursor(), by: context.principal())
            return .json(PageBody(page, SellerApplicationBody.init))
        },
        Route(.get, "/seller-applications/mine", .signedIn) { context in
            let applications = try await context.keycat.sellers.myApplications(by: context.principal())
            return .json(PageBody(items: applications.map(SellerApplicationBody.init), nextCursor: nil))
        },
        Route(.get, "/seller-applications/{id}", .signedIn) { context in
            await .json(SellerApplicationBody(try context.keycat.sellers.application(context.id(), by: context.principal())))
        },
        Route(.post, "/seller-applications/{id}/approve", .admin) { context in
            await .json(SellerApplicationBody(try context.keycat.sellers.approve(context.id(), by: context.principal())))
        },
        Route(.post, "/seller-applications/{id}/reject", .admin, body: .jsonDefault) { context in
            let reason = try context.json(ReasonBody.self).reason
            return await .json(SellerApplicationBody(try context.keycat.sellers.reject(context.id(), reason: reason, by: context.principal())))
        },
    ]
}

struct SellerApplicationFormBody: Decodable, Sendable {
    var businessNumber: String
    var representativeName: String
    var openingDate: CalendarDate

    enum CodingKeys: String, CodingKey {
        case businessNumber = "business_number", representativeName = "representative_name", openingDate = "opening_date"
    }

    var form: SellerApplicationForm {
        SellerApplicationForm(businessNumber: businessNumber, representativeName: representativeName, openingDate: openingDate)
    }
}

/// `{"reason": "..."}`: a rejection or a cancellation.
struct ReasonBody: Decodable, Sendable {
    var reason: String
}
