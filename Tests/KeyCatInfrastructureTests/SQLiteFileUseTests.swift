import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// Whether a SQLite database is open somewhere, read from the locks its connections hold.
@Suite("SQLite file use")
struct SQLiteFileUseTests {
    @Test("a granted lock on byte 128 of the -shm file's device and inode counts; a waiter, another file or another byte does not",
          arguments: [
              ("1: POSIX  ADVISORY  READ 23721 fe:00:16242512 128 128", true),
              ("7: OFDLCK ADVISORY  WRITE -1 fe:00:16242512 0 EOF", true),
              ("1: POSIX  ADVISORY  READ 23721 fe:00:16242512 120 127", false),
              ("1: POSIX  ADVISORY  READ 23721 fe:00:16242513 128 128", false),
              ("1: POSIX  ADVISORY  READ 23721 fe:01:16242512 128 128", false),
              ("1: -> POSIX  ADVISORY  WRITE 23722 fe:00:16242512 128 128", false),
              ("2: FLOCK  ADVISORY  WRITE 23721 fe:00:16242512 0 EOF", false),
          ])
    func table(_ line: String, _ held: Bool) {
        let table = "9: POSIX  ADVISORY  READ 1 08:01:5 128 128\n" + line + "\n"
        #expect(SQLiteFileUse.holdsDeadManSwitch(table, device: 0xFE00, inode: 16_242_512) == held)
    }

    @Test("a database is open while a connection has read it, and not once every connection closed")
    func openAndClosed() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("shop.db").path
            #expect(!SQLiteFileUse.isOpen(path))
            let connection = try SQLiteConnection(path: path, configuration: SQLiteConfiguration())
            try connection.execute("CREATE TABLE t (x)")
            #expect(SQLiteFileUse.isOpen(path))
            connection.close()
            #expect(!SQLiteFileUse.isOpen(path))
        }
    }
}
