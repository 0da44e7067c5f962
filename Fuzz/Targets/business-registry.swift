// The business registry file is an operator's CSV (`sellers registry F.csv`).
// Contract: a file decodes to entries or throws a validation error naming the line; entries
// written back as `number,code[,name,date]` lines decode to the same entries.
import Foundation
@testable import KeyCat
@testable import KeyCatDomain

@_cdecl("LLVMFuzzerTestOneInput")
public func businessRegistryFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    do {
        let file = try BusinessRegistryFile.decode(Data(bytes))
        // Write the entries back, each number in the other spelling it accepts, and read again.
        let text = file.entries.enumerated().map { index, entry in
            let owner = entry.representativeName == nil && entry.openingDate == nil
                ? "" : "," + (entry.representativeName ?? "") + "," + (entry.openingDate?.description ?? "")
            return (index.isMultiple(of: 2) ? entry.number.formatted : entry.number.digits) + "," + entry.status.taxServiceCode + owner
        }.joined(separator: "\n")
        FuzzContract.expect((try? BusinessRegistryFile.decode(Data(text.utf8))) == file, "write then read is the identity")
    } catch {
        FuzzContract.expect(error.code == .validation, "a bad registry file is a validation error, got \(error.code)")
        FuzzContract.expect(error.message.hasPrefix("line "), "a bad registry file names the line")
    }
    // Each line's number on its own: ten digits with a right check digit, or a validation error.
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
        do {
            let number = try BusinessRegistrationNumber(String(line))
            FuzzContract.expect(number.digits.count == 10, "a number has ten digits")
            FuzzContract.expect((try? BusinessRegistrationNumber(number.formatted)) == number, "formatted reads back")
        } catch {
            FuzzContract.expect(error.code == .validation, "a bad number is a validation error")
        }
    }
    return 0
}
