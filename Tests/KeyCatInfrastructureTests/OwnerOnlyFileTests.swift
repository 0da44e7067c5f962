import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// Tests run as root, so they check mode bits, not access.
@Suite("Owner-only files, streamed SHA-256 and permission warnings")
struct OwnerOnlyFileTests {
    @Test("SHA-256 fed in pieces equals the one-shot digest and the FIPS 180-4 vector")
    func streamedDigest() throws {
        let digester = SHA256.Digester()
        digester.update(Array("a".utf8))
        digester.update(Array("bc".utf8))
        let digest = digester.finish()
        #expect(SHA256.hex(digest) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(digest == SHA256.hash("abc"))
    }

    @Test("files and folders are created 0600 and 0700 under umask 022; a copy returns its checksum")
    func modes() throws {
        try withTemporaryDirectory { directory in
            let previous = umask(0o022)
            defer { umask(previous) }
            let file = directory.appendingPathComponent("secret").path
            try OwnerOnlyFile.write(Array(repeating: UInt8(7), count: 200_000), to: file)
            #expect(FilePermissions.mode(of: file) == 0o600)
            let copy = directory.appendingPathComponent("copy").path
            let digest = try OwnerOnlyFile.copy(from: file, to: copy)
            #expect(digest == (try SHA256.hash(fileAt: file)))
            #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: file))
            #expect(FilePermissions.mode(of: copy) == 0o600)
            let folder = directory.appendingPathComponent("folder").path
            try OwnerOnlyFile.createDirectory(folder)
            #expect(FilePermissions.mode(of: folder) == 0o700)
            #expect(throws: OwnerOnlyFile.Failure.exists(folder)) { try OwnerOnlyFile.createDirectory(folder) }
            try OwnerOnlyFile.createDirectory(folder, exclusive: false)
        }
    }

    @Test("an exclusive create refuses an existing file; a non-exclusive one leaves it and its mode alone")
    func existing() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("shared").path
            try Data("group may read".utf8).write(to: URL(fileURLWithPath: file))
            #expect(chmod(file, 0o640) == 0)
            #expect(throws: OwnerOnlyFile.Failure.exists(file)) { try OwnerOnlyFile.create(file) }
            try OwnerOnlyFile.create(file, exclusive: false)
            #expect(FilePermissions.mode(of: file) == 0o640)
            #expect(FileManager.default.contents(atPath: file) == Data("group may read".utf8))
        }
    }

    @Test("exposures name files and folders open to group or others, and the files inside a folder")
    func exposures() throws {
        try withTemporaryDirectory { directory in
            let open = directory.appendingPathComponent("open.db").path
            let closed = directory.appendingPathComponent("closed.db").path
            let folder = directory.appendingPathComponent("images").path
            try OwnerOnlyFile.create(open)
            try OwnerOnlyFile.create(closed)
            try OwnerOnlyFile.createDirectory(folder)
            try OwnerOnlyFile.create(folder + "/a.png")
            #expect(FilePermissions.exposures(of: [open, closed, folder, directory.appendingPathComponent("none").path]).isEmpty)
            #expect(chmod(open, 0o604) == 0)
            #expect(chmod(folder, 0o750) == 0)
            #expect(chmod(folder + "/a.png", 0o660) == 0)
            let found = FilePermissions.exposures(of: [open, closed, folder])
            #expect(found.map(\.path) == [open, folder, folder + "/a.png"])
            #expect(found.map(\.description)[0] == "\(open) is open to group or others (mode 604); run: chmod 600 '\(open)'")
            #expect(found[1].description.hasSuffix("run: chmod 700 '\(folder)'"))
        }
    }
}
