/// What a platform really gives a keyboard, as data plus small rules: the host applies the profile a
/// session runs under, so a keyboard that passes here behaves as it will on the device.
///
/// `exact` is this host's own behaviour (every offset counts Characters, every edit is applied exactly
/// and promptly); the others reproduce what the platform does where it breaks keyboards in the field.
/// So far: `ios`, with its UTF-16 caret moves (Android's and Wayland's profiles are to come, issue 14).
/// Each rule names its source. Where a platform's exact behaviour is unknown, the rule says what this
/// host chose, and the session reports it when it happens (``SessionEvent/platformNote(_:)``), so a
/// test can see it.
public struct PlatformProfile: Hashable, Sendable, CustomStringConvertible {
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case exact, ios
    }

    public let name: Name

    /// What a move of the caret by an offset counts (`adjustTextPosition(byCharacterOffset:)`).
    ///
    /// iOS: UTF-16 code units, whatever the name says — 👍🏽 is 4, 👨‍👩‍👧‍👦 is 11 (openradar 16912444;
    /// cl445/wurstfinger PR #205). A move that ends inside a Character is this host's choice: the caret
    /// stops at the boundary before it, on the side it came from (UIKit's own placement is not
    /// documented), and a platform note says so.
    public let caretMoveUnit: TextUnit

    public var description: String { name.rawValue }

    public static let exact = PlatformProfile(name: .exact, caretMoveUnit: .characters)
    public static let ios = PlatformProfile(name: .ios, caretMoveUnit: .utf16)
    public static let all: [PlatformProfile] = [.exact, .ios]

    /// The profile called `name` (`exact`, `ios`), if there is one.
    public init?(named name: String) {
        guard let profile = Self.all.first(where: { $0.name.rawValue == name }) else { return nil }
        self = profile
    }

    private init(name: Name, caretMoveUnit: TextUnit) {
        self.name = name
        self.caretMoveUnit = caretMoveUnit
    }
}

/// What a platform counts text in.
public enum TextUnit: String, Hashable, Sendable {
    /// Extended grapheme clusters: what a person sees as one character (Swift's `Character`).
    case characters
    /// UTF-16 code units (UIKit's and Android's `NSString`/`CharSequence` offsets).
    case utf16
}
