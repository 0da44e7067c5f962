import Foundation
import Testing
@testable import keycat_admin

/// Secrets typed at a terminal: read without echo, the terminal restored, over a real
/// pseudo-terminal.
@Suite("Secret input", .serialized)
struct SecretInputTests {
    /// Runs `body`, which blocks reading the terminal, on a thread of its own: on the
    /// cooperative pool it would hold one of its few threads while the test types.
    private static func onThread(_ body: @escaping @Sendable () -> String?) -> Task<String?, Never> {
        Task {
            await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: body()) }.start()
            }
        }
    }

    /// A pseudo-terminal: the operator's side (`controller`) and the program's (`terminal`).
    private struct Terminal {
        let controller: Int32
        let terminal: Int32

        /// glibc's `openpty(3)`, which Swift's Glibc module does not declare.
        private typealias OpenPTY = @convention(c) (
            UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<CChar>?, UnsafeRawPointer?, UnsafeRawPointer?
        ) -> Int32

        init() throws {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openpty") else { throw POSIXError(.ENOSYS) }
            var (controller, terminal): (Int32, Int32) = (-1, -1)
            guard unsafeBitCast(symbol, to: OpenPTY.self)(&controller, &terminal, nil, nil, nil) == 0 else {
                throw POSIXError(.ENODEV)
            }
            (self.controller, self.terminal) = (controller, terminal)
        }

        func close() {
            _ = Foundation.close(terminal)
            _ = Foundation.close(controller)
        }

        var localFlags: tcflag_t {
            var settings = termios()
            _ = tcgetattr(terminal, &settings)
            return settings.c_lflag
        }

        /// Types `text` once the program has turned echo off (typed before, the terminal would
        /// echo it whatever the program does next).
        func type(_ text: String) async throws {
            for _ in 0..<500 where localFlags & tcflag_t(ECHO) != 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(localFlags & tcflag_t(ECHO) == 0)
            let bytes = Array(text.utf8)
            #expect(write(controller, bytes, bytes.count) == bytes.count)
        }

        /// What the terminal showed the operator so far.
        func screen() -> String {
            _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
            var shown: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                guard count > 0 else { break }
                shown += buffer[..<count]
            }
            return String(decoding: shown, as: UTF8.self)
        }
    }

    @Test("a password typed at a terminal is read without echo, after a prompt, and echo comes back")
    func noEcho() async throws {
        let terminal = try Terminal()
        defer { terminal.close() }
        let before = terminal.localFlags
        let descriptor = terminal.terminal
        let reading = Self.onThread { SecretInput.read(prompt: "Password: ", from: descriptor, promptingOn: descriptor) }
        try await terminal.type("hunter2 비밀번호\n")
        #expect(await reading.value == "hunter2 비밀번호")
        let screen = terminal.screen()
        #expect(screen.hasPrefix("Password: "), "\(screen)")
        #expect(!screen.contains("hunter2"), "\(screen)")
        #expect(terminal.localFlags == before)
        #expect(before & tcflag_t(ECHO | ISIG) == tcflag_t(ECHO | ISIG))
    }

    @Test("Ctrl-C at the prompt reads nothing and restores the terminal")
    func interrupted() async throws {
        let terminal = try Terminal()
        defer { terminal.close() }
        let before = terminal.localFlags
        let descriptor = terminal.terminal
        let reading = Self.onThread { SecretInput.read(prompt: "Password: ", from: descriptor, promptingOn: descriptor) }
        try await terminal.type("hunt\u{03}")
        #expect(await reading.value == nil)
        #expect(terminal.localFlags == before)
    }

    @Test("Backspace takes back a character (a Hangul syllable whole), Ctrl-U the line, and Ctrl-D on an empty line reads nothing")
    func editing() async throws {
        let terminal = try Terminal()
        defer { terminal.close() }
        let descriptor = terminal.terminal
        let reading = Self.onThread { SecretInput.read(prompt: "Password: ", from: descriptor, promptingOn: descriptor) }
        try await terminal.type("wrong\u{15}키캣X\u{7F}\u{7F}s3\r")
        #expect(await reading.value == "키s3")
        let ended = Self.onThread { SecretInput.read(prompt: "Password: ", from: descriptor, promptingOn: descriptor) }
        try await terminal.type("\u{04}")
        #expect(await ended.value == nil)
    }

    @Test("piped in, the line is read as it comes, with no prompt")
    func piped() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { _ = close(ends[0]) }
        let bytes = Array("s3cret\r\n\nnext".utf8)
        #expect(write(ends[1], bytes, bytes.count) == bytes.count)
        _ = close(ends[1])
        #expect(SecretInput.read(prompt: "Password: ", from: ends[0], promptingOn: -1) == "s3cret")
        #expect(SecretInput.read(prompt: "Password: ", from: ends[0], promptingOn: -1) == "")
        #expect(SecretInput.read(prompt: "Password: ", from: ends[0], promptingOn: -1) == "next")
        #expect(SecretInput.read(prompt: "Password: ", from: ends[0], promptingOn: -1) == nil)
    }
}
