import Foundation
import KeyCat

/// Reviews: a product's, an author's, one; write (buyers who paid); delete (author or admin).
enum ReviewRoutes {
    static let routes: [Route] = [
        Route(.get, "/products/{id}/reviews", .anyone, query: pageQuery) { context in
            let page = try await context.keycat.reviews.reviews(of: context.id(), limit: context.limit(), cursor: context.cursor())
            return .json(PageBody(page, ReviewBody.init))
        },
        Route(.post, "/products/{id}/reviews", .signedIn, body: .jsonDefault, status: 201) { context in
            let body = try context.json(ReviewFormBody.self)
            let review = try await context.keycat.reviews.write(
                ReviewForm(rating: body.rating, content: body.content), of: context.id(), by: context.principal())
            return .json(ReviewBody(review), status: 201).located(at: "/reviews/\(review.id)")
        },
        Route(.get, "/users/{id}/reviews", .anyone, query: pageQuery) { context in
            let page = try await context.keycat.reviews.reviews(by: context.id(), limit: context.limit(), cursor: context.cursor())
            return .json(PageBody(page, ReviewBody.init))
        },
        Route(.get, "/reviews/{id}", .anyone) { context in
            await .json(ReviewBody(try context.keycat.reviews.review(context.id())))
        },
        Route(.delete, "/reviews/{id}", .signedIn, status: 204) { context in
            try await context.keycat.reviews.delete(context.id(), by: context.principal())
            return .noContent
        },
    ]
}

struct ReviewFormBody: Decodable, Sendable {
    var rating: Int
    var content: String
}
