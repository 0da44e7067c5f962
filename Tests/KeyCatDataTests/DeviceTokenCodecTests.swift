import Foundation
import KeyCatDomain
import Testing
@testable import KeyCatData

@Suite("Device tokens")
struct DeviceTokenCodecTests {
    let codec = HMACDeviceTokenCodec(key: HMACDeviceTokenCodec.derivedKey(from: [UInt8](repeating: 7, count: 32)))
    let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test("a token names one device, for the email it was issued for, until it expires")
    func roundTrip() throws {
        let expiry = now.addingTimeInterval(3_600)
        let first = try codec.issue(for: "kim@example.com", account: UserID(7), accountVersion: 3, expiresAt: expiry)
        let second = try codec.issue(for: "kim@example.com", account: UserID(7), accountVersion: 3, expiresAt: expiry)
        #expect(first.expiresAt == expiry && first.token.count == 98)
        let device = try #require(codec.device(of: first.token, for: "kim@example.com", at: now))
        #expect(device.accountVersion == 3 && device.account == UserID(7))
        #expect(codec.device(of: second.token, for: "kim@example.com", at: now) != device)
        #expect(codec.device(of: first.token, for: "kim@example.com", at: expiry.addingTimeInterval(-1)) == device)
        #expect(codec.device(of: first.token, for: "kim@example.com", at: expiry) == nil)
        #expect(codec.device(of: first.token, for: "lee@example.com", at: now) == nil)
        #expect(!first.description.contains(first.token))
    }

    @Test("a changed byte, another key, or something else altogether is no token")
    func forgeries() throws {
        let token = try codec.issue(for: "kim@example.com", account: UserID(7), accountVersion: 3, expiresAt: now.addingTimeInterval(3_600)).token
        var bytes = Array(token.utf8)
        for index in [0, 2, 12, 20, 30, 86] {
            var changed = bytes
            changed[index] = changed[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(codec.device(of: String(decoding: changed, as: UTF8.self), for: "kim@example.com", at: now) == nil, "\(index)")
        }
        bytes.removeLast()
        #expect(codec.device(of: String(decoding: bytes, as: UTF8.self), for: "kim@example.com", at: now) == nil)
        let other = HMACDeviceTokenCodec(key: [UInt8](repeating: 7, count: 32))
        #expect(other.device(of: token, for: "kim@example.com", at: now) == nil)
        for garbage in ["", "not-a-token", String(repeating: "A", count: 87), String(repeating: "A", count: 10_000)] {
            #expect(codec.device(of: garbage, for: "kim@example.com", at: now) == nil)
        }
    }
}
