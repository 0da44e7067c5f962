/// The keyboard specification of a listing. Every field is optional: a keycap set has a profile
/// but no switch, a cable has none of them.
public struct KeyboardSpec: Sendable, Hashable, Codable {
    public enum InputMechanism: String, Sendable, Hashable, CaseIterable, Codable {
        case membrane, mechanical, scissor, capacitive, optical
    }

    public enum Connection: String, Sendable, Hashable, CaseIterable, Codable {
        case wired, wireless, bluetooth, multi
    }

    public enum PCB: String, Sendable, Hashable, CaseIterable, Codable {
        case soldered
        case hotSwap = "hot_swap"
    }

    public enum SwitchType: String, Sendable, Hashable, CaseIterable, Codable {
        case linear, tactile, clicky
    }

    public enum Layout: String, Sendable, Hashable, CaseIterable, Codable {
        case fullSize = "full_size"
        case tenkeyless = "tkl"
        case seventyFivePercent = "75_percent"
        case sixtyFivePercent = "65_percent"
        case sixtyPercent = "60_percent"
        case other
    }

    public enum KeycapProfile: String, Sendable, Hashable, CaseIterable, Codable {
        case cherry, oem, sa, ksa, osa, dsa, xda, mda
    }

    public var input: InputMechanism?
    public var connection: Connection?
    public var pcb: PCB?
    public var switchType: SwitchType?
    public var layout: Layout?
    public var keycapProfile: KeycapProfile?
    public var backlight: Bool?

    public init(
        input: InputMechanism? = nil, connection: Connection? = nil, pcb: PCB? = nil,
        switchType: SwitchType? = nil, layout: Layout? = nil, keycapProfile: KeycapProfile? = nil,
        backlight: Bool? = nil
    ) {
        self.input = input
        self.connection = connection
        self.pcb = pcb
        self.switchType = switchType
        self.layout = layout
        self.keycapProfile = keycapProfile
        self.backlight = backlight
    }
}
