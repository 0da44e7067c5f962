// Search text comes from `q=`, `tag=`, listings' titles and descriptions: any text at all.
// Contract: a query is accepted (1–100 characters, 1–10 words) or refused with a validation
// error on `q`; every term the analyser gives has a weight of 1–15; a listing whose title is the
// query matches the query's plan (unless it asks for initials, which match through the
// vocabulary only); tags are accepted within their rules or refused on `tags`.
import Foundation
@testable import KeyCatDomain

@_cdecl("LLVMFuzzerTestOneInput")
public func searchQueryFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
    let terms = SearchAnalyzer.terms(title: text, content: text, tags: [], spec: KeyboardSpec())
    FuzzContract.expect(terms.values.allSatisfy { (1...15).contains($0) }, "every term weighs 1–15")
    do throws(KeyCatError) {
        let query = try SearchQuery(text)
        FuzzContract.expect(query.text.count <= SearchQuery.maximumLength, "an accepted query is at most 100 characters")
        FuzzContract.expect((1...SearchQuery.maximumWords).contains(query.words.count), "an accepted query has 1–10 words")
        let plan = SearchPlan(query)
        if query.initialsWords.isEmpty && !query.words.contains(where: { $0.script == .jamo }) {
            let own = SearchAnalyzer.terms(title: query.text, content: "", tags: [], spec: KeyboardSpec())
            FuzzContract.expect(plan.textScore(terms: own, title: query.text) != nil, "a title that is the query matches it")
        }
    } catch {
        FuzzContract.expect(error.code == .validation && error.context["field"] == "q", "a refused query is a validation error on q")
    }
    do throws(KeyCatError) {
        let tags = try ProductTags.validated(text.split(separator: ",").map(String.init))
        FuzzContract.expect(tags.count <= ProductTags.maximumCount, "at most 10 tags")
        for tag in tags {
            FuzzContract.expect(ProductTags.length.contains(tag.count) && !tag.hasPrefix("#"), "a tag is 1–20 characters, without #")
            FuzzContract.expect((try? ProductTags.filterValue(tag)) == SearchAnalyzer.normalize(tag), "a kept tag filters as itself")
        }
    } catch {
        FuzzContract.expect(error.code == .validation && error.context["field"] == "tags", "a refused tag is a validation error on tags")
    }
    return 0
}
