// Product images are files from sellers: the format and size are read from the header only.
// Contract: a header is JPEG, PNG, GIF or WebP with sides of 1 to `maximumSide` pixels, and only
// bytes that start with that format's signature have one; the image store accepts bytes exactly
// when they have a header (under the size limit). A GIF header written for some sides reads
// back those sides.
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain

private let store = InMemoryImageStore()
private let signatures: [ImageFormat: [[UInt8]]] = [
    .jpeg: [[0xFF, 0xD8, 0xFF]],
    .png: [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]],
    .gif: [Array("GIF87a".utf8), Array("GIF89a".utf8)],
    .webp: [Array("RIFF".utf8)],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func imageFormatFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let header = ImageHeader(bytes)
    FuzzContract.expect(ImageRules.format(of: bytes) == header?.format, "the format is the header's")
    if let header {
        let sides = 1...ImageHeader.maximumSide
        FuzzContract.expect(sides.contains(header.width) && sides.contains(header.height), "sides within the limit")
        FuzzContract.expect(signatures[header.format, default: []].contains { bytes.starts(with: $0) },
                            "only bytes with the format's signature have its header")
    }
    do {
        let image = try store.inspect(bytes)
        FuzzContract.expect(image.format == header?.format, "the store keeps the header's format")
        FuzzContract.expect(image.sha256.count == 64, "an image is named by its SHA-256")
    } catch {
        FuzzContract.expect(header == nil && error.code == .validation, "only unreadable headers are refused, got \(error)")
    }

    // A GIF logical screen descriptor for the input's last four bytes as sides reads them back.
    var tail = FuzzTail(bytes)
    let width = Int(tail.byte()) << 8 | Int(tail.byte())
    let height = Int(tail.byte()) << 8 | Int(tail.byte())
    let gif = Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0, 0, 0]
    let sides = 1...ImageHeader.maximumSide
    let expected = sides.contains(width) && sides.contains(height) ? ImageHeader(format: .gif, width: width, height: height) : nil
    FuzzContract.expect(ImageHeader(gif) == expected, "a GIF header reads back its sides")
    return 0
}
