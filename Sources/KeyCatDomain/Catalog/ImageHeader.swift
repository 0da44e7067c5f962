/// What an image's header declares: its format and its size in pixels, read from the structure
/// each format defines, not from the first bytes alone.
///
/// A file passes only when the header a decoder would read first is whole and sane:
/// - PNG: the signature, then an `IHDR` chunk of 13 bytes first (PNG §11.2.2) with a bit depth
///   and colour type the standard allows;
/// - JPEG: `SOI`, then marker segments up to a start-of-frame (`SOF0`–`SOF15`, not `DHT`, `JPG`
///   or `DAC`) before any start-of-scan (ITU T.81 §B.2), each segment inside the file;
/// - GIF: `GIF87a`/`GIF89a` and the logical screen descriptor (GIF89a §18);
/// - WebP: `RIFF` with a size that fits the file, `WEBP`, and a `VP8 ` (key frame start code),
///   `VP8L` (signature `0x2F`) or `VP8X` chunk giving the canvas (RIFF container spec).
///
/// Both sides must be 1 to ``maximumSide`` pixels.
public struct ImageHeader: Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        (self.format, self.width, self.height) = (format, width, height)
    }

    /// The longest side accepted, in pixels: WebP's own limit, and far beyond any product photo.
    public static let maximumSide = 16_383

    /// The header of `bytes`, or nil when they are not a well-formed image of a known format.
    public init?(_ bytes: [UInt8]) {
        let reader = ByteReader(bytes)
        let parsed: (ImageFormat, Int, Int)?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            parsed = Self.png(reader)
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            parsed = Self.jpeg(reader)
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            parsed = Self.gif(reader)
        } else if bytes.starts(with: Array("RIFF".utf8)) {
            parsed = Self.webp(reader)
        } else {
            parsed = nil
        }
        guard let (format, width, height) = parsed,
              (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height)
        else { return nil }
        (self.format, self.width, self.height) = (format, width, height)
    }

    /// The bit depths PNG allows for each colour type (PNG §11.2.2, table 11.1).
    private static let pngBitDepths: [UInt8: Set<UInt8>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]

    private static func png(_ bytes: ByteReader) -> (ImageFormat, Int, Int)? {
        // Length 13, "IHDR", width, height, bit depth, colour type, compression, filter, interlace, CRC.
        guard bytes.bigEndian(8, 4) == 13, bytes.ascii(12, 4) == "IHDR", bytes.count >= 33,
              let width = bytes.bigEndian(16, 4), let height = bytes.bigEndian(20, 4),
              let depth = bytes[24], let colour = bytes[25]
        else { return nil }
        guard pngBitDepths[colour]?.contains(depth) == true, bytes[26] == 0, bytes[27] == 0, (bytes[28] ?? 2) <= 1 else { return nil }
        return (.png, width, height)
    }

    private static func jpeg(_ bytes: ByteReader) -> (ImageFormat, Int, Int)? {
        var offset = 2
        while let prefix = bytes[offset], prefix == 0xFF, let marker = bytes[offset + 1] {
            offset += 2
            switch marker {
            case 0xFF:
                offset -= 1  // fill byte: the next 0xFF starts the marker
            case 0x01, 0xD0...0xD7:
                continue  // no length
            case 0xD8, 0xD9, 0xDA:
                return nil  // a second SOI, the end, or a scan before any frame header
            default:
                guard let length = bytes.bigEndian(offset, 2), length >= 2, offset + length <= bytes.count else { return nil }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    // Precision, height, width, components.
                    guard length >= 8, let height = bytes.bigEndian(offset + 3, 2), let width = bytes.bigEndian(offset + 5, 2)
                    else { return nil }
                    return (.jpeg, width, height)
                }
                offset += length
            }
        }
        return nil
    }

    private static func gif(_ bytes: ByteReader) -> (ImageFormat, Int, Int)? {
        guard bytes.count >= 13, let width = bytes.littleEndian(6, 2), let height = bytes.littleEndian(8, 2) else { return nil }
        return (.gif, width, height)
    }

    private static func webp(_ bytes: ByteReader) -> (ImageFormat, Int, Int)? {
        guard let riffSize = bytes.littleEndian(4, 4), riffSize + 8 <= bytes.count, bytes.ascii(8, 4) == "WEBP",
              let chunk = bytes.ascii(12, 4), let chunkSize = bytes.littleEndian(16, 4), 20 + chunkSize <= bytes.count
        else { return nil }
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes, bit 0 clear for a key frame), start code 9D 01 2A, 14-bit sides.
            guard chunkSize >= 10, let tag = bytes[20], tag & 1 == 0,
                  bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A,
                  let width = bytes.littleEndian(26, 2), let height = bytes.littleEndian(28, 2)
            else { return nil }
            return (.webp, width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            // Signature 0x2F, then width − 1 and height − 1 in 14 bits each.
            guard chunkSize >= 5, bytes[20] == 0x2F, let bits = bytes.littleEndian(21, 4) else { return nil }
            return (.webp, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Flags and reserved (4 bytes), then canvas width − 1 and height − 1 in 24 bits each.
            guard chunkSize >= 10, let width = bytes.littleEndian(24, 3), let height = bytes.littleEndian(27, 3) else { return nil }
            return (.webp, width + 1, height + 1)
        default:
            return nil
        }
    }
}

/// Bounds-checked reads from a byte array: every read past the end is nil, never a trap.
private struct ByteReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    subscript(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    func bigEndian(_ offset: Int, _ width: Int) -> Int? {
        guard offset >= 0, width <= 4, offset + width <= bytes.count else { return nil }
        return bytes[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(_ offset: Int, _ width: Int) -> Int? {
        guard offset >= 0, width <= 4, offset + width <= bytes.count else { return nil }
        return bytes[offset..<offset + width].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    func ascii(_ offset: Int, _ width: Int) -> String? {
        guard offset >= 0, offset + width <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + width], as: UTF8.self)
    }
}
