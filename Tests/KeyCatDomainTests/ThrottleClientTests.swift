import Testing
@testable import KeyCatDomain

@Suite("Throttling keys of clients")
struct ThrottleClientTests {
    @Test("every IPv6 address of one /64 is one key; IPv4 addresses and other names are kept as given", arguments: [
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:0DB8:0001:0002:a:b:c:d", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2::7]", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"),
        ("::1", "0:0:0:0::/64"),
        ("2001:db8::", "2001:db8:0:0::/64"),
        ("2001:db8:1:2:3:4:192.0.2.1", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("203.0.113.7", "203.0.113.7"),
        ("198.51.100.200", "198.51.100.200"),
        ("client-17", "client-17"),
    ])
    func keys(client: String, key: String) {
        #expect(ThrottleClient.key(for: client) == key)
    }

    @Test("text that is not an IPv6 address is kept as given", arguments: [
        "2001:db8::1::2", "2001:db8:1:2:3:4:5:6:7", "2001:db8:1:2:3:4:5", "2001:db8:12345::1", "2001:db8:+1::1",
        "2001:db8::g", ":::", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.04", "::1.2.3", "2001:db8:1:2:3:4:5:6%",
    ])
    func notAddresses(text: String) {
        #expect(ThrottleClient.key(for: text) == text)
    }

    @Test("the groups of an address, in each text form", arguments: [
        ("::", [0, 0, 0, 0, 0, 0, 0, 0]),
        ("1::", [1, 0, 0, 0, 0, 0, 0, 0]),
        ("1:2:3:4:5:6:7::", [1, 2, 3, 4, 5, 6, 7, 0]),
        ("::2:3:4:5:6:7:8", [0, 2, 3, 4, 5, 6, 7, 8]),
        ("::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xFFFF, 0x0102, 0x0304]),
    ] as [(String, [UInt16])])
    func groups(text: String, groups: [UInt16]) {
        #expect(ThrottleClient.ipv6Groups(text) == groups)
    }
}
