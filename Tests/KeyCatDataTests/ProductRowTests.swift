import Testing
@testable import KeyCatData

@Suite("Product rows")
struct ProductRowTests {
    @Test("the column count a join's extra columns start at is the number of columns the row lists")
    func columnCount() {
        #expect(ProductRow.columnCount == ProductRow.columns.split(separator: ",").count)
    }
}
