import Foundation
import Testing
import KeyCat

/// The files operators and sellers hand KeyCat: catalog and product JSON, the business registry
/// CSV. Inputs here include the ones fuzzing (`scripts/fuzz`) found mishandled.
@Suite("Catalog, product and registry files")
struct InputFileTests {
    @Test("a JSON file that is not an object is refused naming the file", arguments: ["3", "[]", "null", "\"catalog\""])
    func notAnObject(text: String) {
        let namesTheFile: (any Error) -> Bool = { error in
            let error = error as? KeyCatError
            return error?.code == .validation && error?.context["field"] == "file"
        }
        #expect(performing: { try CatalogFile.decode(Data(text.utf8)) }, throws: namesTheFile)
        #expect(performing: { try ProductFile.decode(Data(text.utf8)) }, throws: namesTheFile)
    }

    @Test("a missing or mistyped key is named by its path")
    func keyPaths() {
        let missing = #"{"sellers":[],"products":[{"kind":"secondhand"}]}"#
        #expect(throws: KeyCatError.validation("products[0].category", "products[0].category is missing")) {
            try CatalogFile.decode(Data(missing.utf8))
        }
        #expect(throws: KeyCatError.validation("sellers", "sellers is null")) {
            try CatalogFile.decode(Data(#"{"sellers":null,"products":[]}"#.utf8))
        }
        #expect(throws: KeyCatError.validation("file", "the file is not valid JSON")) {
            try CatalogFile.decode(Data("{".utf8))
        }
    }

    @Test("a registry file reads numbers in either spelling, skipping comments and blank lines")
    func registry() throws {
        let text = "# number,b_stt_cd\n220-81-62517,01\r\n\n1248100998 , 02\n101-81-00001,99\n"
        let file = try BusinessRegistryFile.decode(Data(text.utf8))
        #expect(file.entries.map(\.number.digits) == ["2208162517", "1248100998", "1018100001"])
        #expect(file.entries.map(\.status) == [.active, .suspended, .unregistered])
    }

    @Test("a registry line may give the representative and the opening date, either spelling of the date, either empty")
    func registryOwners() throws {
        let text = "220-81-62517,01,김대표,2020-03-02\n3148110008,01,Hong Gildong,20190510\n2098110007,01,,\n6088110000,01\n"
        let file = try BusinessRegistryFile.decode(Data(text.utf8))
        #expect(file.entries.map(\.representativeName) == ["김대표", "Hong Gildong", nil, nil])
        #expect(file.entries.map(\.openingDate) == [try CalendarDate(year: 2020, month: 3, day: 2),
                                                     try CalendarDate(year: 2019, month: 5, day: 10), nil, nil])
    }

    @Test("an empty status code is an unregistered number, as the tax service writes it")
    func registryEmptyCode() throws {
        // Found by fuzzing: an unregistered entry written back as `number,` was refused.
        let file = try BusinessRegistryFile.decode(Data("2208162517,\n220-81-62517, \n".utf8))
        #expect(file.entries.map(\.status) == [.unregistered, .unregistered])
    }

    @Test("a bad registry line is refused naming the line", arguments: [
        ("220-81-62517,01\n220-81-62518,01\n", "line 2: "),
        ("220-81-62517,01,03\n", "line 1 must be"),
        ("220-81-62517,01,김대표,2020-13-02\n", "line 1: "),
        ("220-81-62517,01,김대표,2020030\n", "line 1: "),
        (",01\n", "line 1: "),
        ("220-81-62517\n", "line 1 must be"),
    ])
    func registryErrors(text: String, prefix: String) {
        #expect {
            try BusinessRegistryFile.decode(Data(text.utf8))
        } throws: { error in
            let error = error as? KeyCatError
            return error?.code == .validation && error?.message.hasPrefix(prefix) == true
        }
    }
}
