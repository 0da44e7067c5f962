import Foundation

/// Reads one secret line, a password or a webhook's signing secret, from standard input.
///
/// From a terminal it prompts on standard error and reads what the operator types without
/// echo, as `passwd` does, so the secret is neither shown nor left in the scrollback. The
/// terminal is read a key at a time, with the keys a line editor gives handled here: Enter ends
/// the secret, Backspace takes back a character, Ctrl-U the whole line, and Ctrl-C or Ctrl-D
/// (on an empty line) ends the prompt with nothing read. Reading the keys rather than letting
/// Ctrl-C raise a signal means the terminal is always restored: a process killed at the prompt
/// would leave the operator's shell without echo. Piped in
/// (`printf '%s\n' "$PASSWORD" | keycat-admin …`), the line is read as it comes, with no prompt.
/// Secrets are never taken as arguments, which any user of the machine can read in `ps`.
enum SecretInput {
    /// The line without its ending; nil at the end of input, or when the operator pressed
    /// Ctrl-C or Ctrl-D.
    static func read(prompt: String, from input: Int32 = STDIN_FILENO, promptingOn output: Int32 = STDERR_FILENO) -> String? {
        var saved = termios()
        guard isatty(input) == 1, tcgetattr(input, &saved) == 0 else {
            return input == STDIN_FILENO ? readLine(strippingNewline: true) : line(from: input)
        }
        var keys = saved
        keys.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &keys.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        write(prompt, to: output)
        _ = tcsetattr(input, TCSAFLUSH, &keys)
        defer {
            _ = tcsetattr(input, TCSANOW, &saved)
            write("\n", to: output)
        }
        return typed(on: input)
    }

    /// What the operator types on `terminal`, read a key at a time, up to Enter.
    private static func typed(on terminal: Int32) -> String? {
        var bytes: [UInt8] = []
        while let byte = self.byte(from: terminal) {
            switch byte {
            case 0x0A, 0x0D: return String(decoding: bytes, as: UTF8.self)
            case 0x03: return nil
            case 0x04 where bytes.isEmpty: return nil
            case 0x7F, 0x08:
                // A character, not a byte: its UTF-8 continuation bytes go with it.
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            case 0x15: bytes.removeAll()
            default: bytes.append(byte)
            }
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// One line read a byte at a time from `descriptor` (nothing read past it), without its
    /// ending; nil at the end of input before any byte.
    private static func line(from descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var ended = false
        while let byte = byte(from: descriptor) {
            if byte == 0x0A { ended = true; break }
            bytes.append(byte)
        }
        if bytes.isEmpty, !ended { return nil }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func byte(from descriptor: Int32) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = Foundation.read(descriptor, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = Foundation.write(descriptor, bytes, bytes.count)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes.removeFirst(written)
        }
    }
}
