import Foundation
import Testing
@testable import KeyCat

@Suite("Domain errors → HTTP (architecture §5)")
struct HTTPErrorMappingTests {
    /// The contract, one row per code. A code missing here fails `everyCodeHasARow`.
    static let table: [(KeyCatError.Code, Int)] = [
        (.validation, 400), (.invalidCursor, 400),
        (.invalidCredentials, 401), (.invalidToken, 401),
        (.paymentDeclined, 402),
        (.forbidden, 403),
        (.duplicate, 409), (.illegalTransition, 409), (.versionConflict, 409), (.outOfStock, 409),
        (.idempotencyKeyReused, 409), (.requestInProgress, 409), (.alreadyPaid, 409),
        (.paymentNotPaid, 409), (.paymentAlreadyCancelled, 409),
        (.cancellableAmountInconsistent, 409), (.cancelAmountExceedsCancellable, 409),
        (.notFound, 410), (.paymentNotFound, 410),
        (.refreshTokenExpired, 418),
        (.accessTokenExpired, 419),
        (.paymentAmountForged, 422),
        (.rateLimited, 429),
        (.notOwner, 445),
        (.internalError, 500), (.storage, 500), (.gatewayInvalidRequest, 500),
        (.gatewayUnavailable, 502), (.gatewayAuthenticationFailed, 502), (.gatewayForbidden, 502),
        (.invalidGatewayResponse, 502),
        (.gatewayTimeout, 504),
    ]

    @Test("each code maps to its status", arguments: table)
    func status(code: KeyCatError.Code, status: Int) {
        #expect(KeyCatError(code, "x").httpStatus == status)
    }

    @Test("every code has a row in the table, and codes are unique snake_case")
    func everyCodeHasARow() {
        let covered = Set(Self.table.map(\.0.rawValue))
        #expect(covered == Set(KeyCatError.Code.allCases.map(\.rawValue)))
        for code in KeyCatError.Code.allCases {
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" })
            #expect(KeyCatError.Code(rawValue: code.rawValue) == code)
        }
    }

    @Test("the body carries code, message and context fields")
    func body() throws {
        let error = KeyCatError(.outOfStock, "only 2 left", context: ["product_id": "7", "available": "2"])
        let object = try JSONSerialization.jsonObject(with: error.httpBody) as? [String: String]
        #expect(object == ["code": "out_of_stock", "message": "only 2 left", "product_id": "7", "available": "2"])
    }

    @Test("rate limiting sets Retry-After")
    func retryAfter() {
        let response = HTTPErrorResponse(KeyCatError(.rateLimited, "slow down", context: ["retry_after": "3"]))
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "3")
    }

    @Test("an error that is not KeyCat's is a 500 that reveals nothing")
    func unknownError() throws {
        struct Secret: Error { let token = "hunter2" }
        let response = HTTPErrorResponse(Secret())
        #expect(response.status == 500)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains("\"internal\""))
        #expect(!text.contains("hunter2"))
    }
}
