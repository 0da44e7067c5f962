// Product images are files from sellers: the format is recognised by content only.
// Contract: bytes are JPEG, PNG, GIF or WebP exactly when they start with that format's
// signature, and the image store accepts them exactly then (under the size limit).
import Foundation
@testable import KeyCatData
@testable import KeyCatDomain

private let store = InMemoryImageStore()
private let signatures: [(ImageFormat, [UInt8])] = [
    (.jpeg, [0xFF, 0xD8, 0xFF]),
    (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    (.gif, Array("GIF87a".utf8)), (.gif, Array("GIF89a".utf8)),
]

private func expectedFormat(_ bytes: [UInt8]) -> ImageFormat? {
    if let match = signatures.first(where: { bytes.starts(with: $0.1) }) { return match.0 }
    if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
    return nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func imageFormatFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let format = ImageRules.format(of: bytes)
    FuzzContract.expect(format == expectedFormat(bytes), "the format is the signature's")
    do {
        let image = try store.inspect(bytes)
        FuzzContract.expect(image.format == format, "the store keeps the sniffed format")
        FuzzContract.expect(image.sha256.count == 64, "an image is named by its SHA-256")
    } catch {
        FuzzContract.expect(format == nil && error.code == .validation, "only unknown formats are refused, got \(error)")
    }
    return 0
}
