// Catalog and product JSON files are written by people (`products import`, `products add
// --file`, `seed`). Contract: a file decodes or throws a validation error naming what is wrong;
// a decoded product becomes a listing draft or a validation error, never a trap.
import Foundation
@testable import KeyCat
@testable import KeyCatDomain

/// 2026-01-01T00:00:00Z.
private let now = Date(timeIntervalSince1970: 1_767_225_600)

private func checkDraft(_ product: ProductFile) {
    do {
        _ = try product.draft(at: now)
    } catch {
        FuzzContract.expect(error.code == .validation, "a bad product is a validation error, got \(error.code)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func catalogFileFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let data = Data(fuzzBytes(data, size))
    do {
        let catalog = try CatalogFile.decode(data)
        catalog.products.forEach(checkDraft)
    } catch {
        FuzzContract.expect(error.code == .validation, "a bad catalog is a validation error, got \(error.code)")
        FuzzContract.expect(error.context["field"]?.isEmpty == false, "a bad catalog names the field")
    }
    do {
        checkDraft(try ProductFile.decode(data))
    } catch {
        FuzzContract.expect(error.code == .validation, "a bad product file is a validation error, got \(error.code)")
    }
    return 0
}
