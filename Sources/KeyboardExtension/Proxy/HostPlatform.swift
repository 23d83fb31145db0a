import KeyboardExtensionABI

/// The platform the host behaves as, and what that changes for a keyboard (ABI section 10).
///
/// A host can run a keyboard as iOS, Android or a Wayland compositor would (`kbhost --platform`,
/// `KeyboardTestHost(platform:)`), so a keyboard tested here behaves as it will there. The SDK's API
/// stays UIKit's; the platform decides its units: under `ios` and `android`,
/// ``TextDocumentProxy/adjustTextPosition(byCharacterOffset:)`` counts UTF-16 units, as on the devices;
/// under `android`, ``TextDocumentProxy/deleteBackward()`` deletes one. A keyboard that walks the caret
/// itself moves by ``caretMoveUnit``:
///
/// ```swift
/// let platform = textDocumentProxy.snapshot.platform
/// textDocumentProxy.adjustTextPosition(byCharacterOffset: -platform.caretMoveUnit.count(of: word))
/// ```
public struct HostPlatform: Hashable, Sendable, CustomStringConvertible {
    /// The platforms a host can behave as.
    public enum Name: String, Hashable, Sendable {
        /// This host's own model: every offset counts Characters, and its extras exist.
        case exact, ios, android, wayland
    }

    public var name: Name
    /// What ``TextDocumentProxy/adjustTextPosition(byCharacterOffset:)`` counts.
    public var caretMoveUnit: TextUnit
    /// What ``TextDocumentProxy/deleteBackward()`` deletes one of when nothing is selected.
    public var deleteUnit: TextUnit
    /// Whether this host's exact extras (ABI section 7) exist: the selection's position
    /// (``TextSnapshot/selectedRange``) and the guarded absolute moves the full-document reader is
    /// exact with. No real platform has them; without them the reader walks with UIKit's calls.
    public var offersExtras: Bool

    /// This host's own model, and what a host of an earlier ABI revision behaves as.
    public static let exact = HostPlatform(name: .exact, caretMoveUnit: .characters, deleteUnit: .characters, offersExtras: true)

    public var description: String { name.rawValue }

    public init(name: Name, caretMoveUnit: TextUnit, deleteUnit: TextUnit, offersExtras: Bool) {
        self.name = name
        self.caretMoveUnit = caretMoveUnit
        self.deleteUnit = deleteUnit
        self.offersExtras = offersExtras
    }

    /// From a snapshot's `platform` and `platform_traits`.
    init(platform: kbx_platform, traits: UInt32) {
        let name: Name = switch Int(platform) {
        case KBX_PLATFORM_IOS: .ios
        case KBX_PLATFORM_ANDROID: .android
        case KBX_PLATFORM_WAYLAND: .wayland
        default: .exact
        }
        self.init(
            name: name,
            caretMoveUnit: traits & UInt32(KBX_PLATFORM_MOVES_UTF16) != 0 ? .utf16 : .characters,
            deleteUnit: traits & UInt32(KBX_PLATFORM_DELETES_UTF16) != 0 ? .utf16 : .characters,
            offersExtras: traits & UInt32(KBX_PLATFORM_HAS_EXTRAS) != 0
        )
    }
}
