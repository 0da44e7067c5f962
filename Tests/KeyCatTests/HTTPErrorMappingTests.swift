import Foundation
import Testing
@testable import KeyCat

@Suite("Domain errors → HTTP (architecture §5)")
struct HTTPErrorMappingTests {
    /// The contract, one row per code: the standard status. A code missing here fails
    /// `everyCodeHasARow`.
    static let table: [(KeyCatError.Code, Int)] = [
        (.validation, 400), (.invalidCursor, 400),
        (.invalidCredentials, 401), (.invalidToken, 401),
        (.paymentDeclined, 402),
        (.forbidden, 403),
        (.duplicate, 409), (.illegalTransition, 409), (.versionConflict, 409), (.outOfStock, 409), (.reservationLimit, 409), (.limitReached, 409),
        (.alreadyShipped, 409), (.idempotencyKeyReused, 409), (.requestInProgress, 409), (.alreadyPaid, 409),
        (.paymentNotPaid, 409), (.paymentAlreadyCancelled, 409),
        (.cancellableAmountInconsistent, 409), (.cancelAmountExceedsCancellable, 409),
        (.notFound, 404), (.paymentNotFound, 404),
        (.refreshTokenExpired, 400),
        (.accessTokenExpired, 401),
        (.paymentAmountForged, 422),
        (.rateLimited, 429),
        (.notOwner, 403),
        (.internalError, 500), (.storage, 500), (.gatewayInvalidRequest, 500),
        (.gatewayUnavailable, 502), (.gatewayAuthenticationFailed, 502), (.gatewayForbidden, 502),
        (.invalidGatewayResponse, 502),
        (.gatewayTimeout, 504),
    ]

    /// Where the KeyCat app's profile differs from the standard one; every other code is the same.
    static let appProfile: [KeyCatError.Code: Int] = [
        .notFound: 410, .paymentNotFound: 410, .refreshTokenExpired: 418, .accessTokenExpired: 419, .notOwner: 445,
    ]

    @Test("each code maps to its standard status", arguments: table)
    func status(code: KeyCatError.Code, status: Int) {
        #expect(KeyCatError(code, "x").httpStatus == status)
        #expect(KeyCatError(code, "x").httpStatus(in: .standard) == status)
    }

    @Test("the KeyCat app's profile answers 410, 418, 419 and 445 where it always did, and the rest as standard", arguments: table)
    func appStatus(code: KeyCatError.Code, status: Int) {
        #expect(KeyCatError(code, "x").httpStatus(in: .keyCatApp) == (Self.appProfile[code] ?? status))
    }

    @Test("a refused token names invalid_token in its challenge (RFC 6750 §3); a missing one gets the bare scheme")
    func challenges() {
        let expired = HTTPErrorResponse(KeyCatError(.accessTokenExpired, "expired"))
        #expect(expired.status == 401)
        #expect(expired.headers["WWW-Authenticate"] == #"Bearer error="invalid_token", error_description="the access token expired""#)
        let invalid = HTTPErrorResponse(KeyCatError(.invalidToken, "bad signature"))
        #expect(invalid.headers["WWW-Authenticate"]?.hasPrefix(#"Bearer error="invalid_token""#) == true)
        let missing = HTTPErrorResponse(KeyCatError(.invalidToken, "none", context: ["token": "missing"]))
        #expect(missing.headers["WWW-Authenticate"] == "Bearer")
        let app = HTTPErrorResponse(KeyCatError(.accessTokenExpired, "expired"), profile: .keyCatApp)
        #expect(app.status == 419 && app.headers["WWW-Authenticate"] == nil)
    }

    @Test("a refused refresh token is RFC 6749 §5.2's invalid_grant, uncached, and keeps its code")
    func invalidGrant() throws {
        let response = HTTPErrorResponse(KeyCatError(.refreshTokenExpired, "log in again"))
        #expect(response.status == 400 && response.headers["Cache-Control"] == "no-store")
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: String]
        #expect(object == ["code": "refresh_token_expired", "message": "log in again", "error": "invalid_grant",
                           "error_description": "log in again"])
        let app = HTTPErrorResponse(KeyCatError(.refreshTokenExpired, "log in again"), profile: .keyCatApp)
        let appObject = try JSONSerialization.jsonObject(with: app.body) as? [String: String]
        #expect(app.status == 418 && appObject == ["code": "refresh_token_expired", "message": "log in again"])
    }

    @Test("the README's and docs/architecture.md's status tables name every code once, with its statuses",
          arguments: ["README.md", "docs/architecture.md"])
    func documentedTables(_ file: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        var documented: [String: (standard: String, app: String)] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 5 else { continue }
            // Every backticked word of the first cell that is a code (not `Retry-After`).
            let names = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            for name in names where KeyCatError.Code(rawValue: name) != nil {
                #expect(documented[name] == nil, "\(file) names `\(name)` twice")
                documented[name] = (cells[2], cells[3])
            }
        }
        for code in KeyCatError.Code.allCases {
            let row = documented[code.rawValue]
            #expect(row != nil, "\(file)'s status table lacks `\(code.rawValue)`")
            guard let row else { continue }
            let error = KeyCatError(code, "x")
            #expect(row.standard.hasPrefix("\(error.httpStatus)"), "\(file): `\(code.rawValue)` is \(error.httpStatus), not \(row.standard)")
            #expect(row.app == "\(error.httpStatus(in: .keyCatApp))", "\(file): `\(code.rawValue)` in the app profile")
        }
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

@Suite("5xx bodies and errors that are not KeyCat's")
struct HTTPServerErrorBodyTests {
    @Test("a storage error's body names no file, SQLite code or message of the database")
    func storageRevealsNothing() throws {
        let error = KeyCatError(.storage, "/var/lib/keycat/keycat.db: disk I/O error (SQLITE_IOERR_WRITE)",
                                context: ["path": "/var/lib/keycat/keycat.db", "sqlite_code": "778"])
        let response = HTTPErrorResponse(error)
        #expect(response.status == 500)
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: String]
        #expect(object?.keys.sorted() == ["code", "message"])
        #expect(object?["code"] == "storage")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains("/var/lib") && !text.contains("778") && !text.contains("SQLITE"))
    }

    @Test("a refund left pending keeps what the client acts on, and nothing else")
    func pendingRefundKeepsItsIDs() throws {
        let error = KeyCatError(.gatewayTimeout, "the PG at https://pg.internal:8443 did not answer",
                                context: ["outcome": "unknown", "order_id": "7", "refund_id": "3", "amount": "1000", "url": "https://pg.internal"])
        let object = try JSONSerialization.jsonObject(with: error.httpBody) as? [String: String]
        #expect(object?["outcome"] == "unknown" && object?["order_id"] == "7" && object?["refund_id"] == "3")
        #expect(object?["url"] == nil)
        #expect(object?["message"]?.contains("pg.internal") == false)
    }

    @Test("a server's own DecodingError is a 400 naming the field")
    func decodingError() throws {
        struct Body: Decodable { var quantity: Int }
        do {
            _ = try JSONDecoder().decode(Body.self, from: Data(#"{"quantity": "two"}"#.utf8))
            Issue.record("decoding should fail")
        } catch {
            let response = HTTPErrorResponse(error)
            #expect(response.status == 400)
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: String]
            #expect(object?["code"] == "validation" && object?["field"] == "quantity")
        }
    }

    @Test("a cancelled request is 499, never 500")
    func cancellation() {
        let response = HTTPErrorResponse(CancellationError())
        #expect(response.status == 499)
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"cancelled\""))
    }

    @Test("both webhook paths answer a payment the PG cannot find with 200, a bad signature with 400")
    func webhookStatuses() {
        #expect(WebhookHTTPHandler.status(for: KeyCatError(.paymentNotFound, "x")) == 200)
        #expect(WebhookHTTPHandler.status(for: KeyCatError(.invalidGatewayResponse, "x")) == 200)
        #expect(WebhookHTTPHandler.status(for: KeyCatError.validation("webhook", "x")) == 400)
        #expect(WebhookHTTPHandler.status(for: KeyCatError(.gatewayUnavailable, "x")) == 503)
    }
}
