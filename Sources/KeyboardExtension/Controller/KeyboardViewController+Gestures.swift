import KeyboardExtensionABI
import KeyboardModel

// Key gestures (ABI section 11): a finger that stays on a key, moves on it, or long-presses it for its
// callouts. The host sends what the finger does, on its clock; what that does is decided here — by the
// defaults below, or by a keyboard that overrides them, as `keyTapped(_:)` is overridden.

/// A touch of a key under way: what the finger has done since it went down. Handed to each gesture
/// handler, so that the release can tell what came before it.
public struct KeyTouch: Hashable, Sendable {
    /// Where the finger went down.
    public let position: KeyPosition
    /// Whether the key long-pressed (its callouts showed).
    public internal(set) var longPressed = false
    /// How many times the key has repeated (0: not yet, or it has callouts).
    public internal(set) var repeatCount = 0
    /// How far the finger has moved from where it went down, in steps (right and down positive).
    public internal(set) var dragX = 0
    public internal(set) var dragY = 0
    /// The index of the callout the finger lifted on, at the release; `nil` for none.
    public internal(set) var calloutIndex: Int?
    /// What the proxy showed before and after the caret as the finger went down: a drag measures its
    /// moves from there, so that a snapshot still on its way (edits under latency) does not skew them.
    public let contextBeforeAtPress: String
    public let contextAfterAtPress: String

    @MainActor
    init(position: KeyPosition, proxy: TextDocumentProxy) {
        self.position = position
        contextBeforeAtPress = proxy.snapshot.contextBefore
        contextAfterAtPress = proxy.snapshot.contextAfter
    }

    /// The caret offset, in the platform's `unit`, that moves it `characters` from where it was as
    /// the finger went down.
    func caretOffset(toCharacters characters: Int, in unit: TextUnit) -> Int {
        characters == 0 ? 0 : TextDocumentProxy.offset(ofCharacters: characters, before: contextBeforeAtPress, after: contextAfterAtPress, in: unit)
    }

    /// Whether the finger has moved.
    public var moved: Bool { dragX != 0 || dragY != 0 }
}

extension KeyboardViewController {
    /// One key event from the bridge (`event` copied at this header's size: a field the host did not
    /// send is zero): updates the touch, then calls the handler. `false` for an action this SDK does
    /// not know (from a later revision), which it ignores.
    func handleKeyEvent(_ event: kbx_key_event, key: Key, position: KeyPosition) -> Bool {
        switch Int(event.action) {
        case KBX_KEY_TAP:
            keyTapped(key)
        case KBX_KEY_DOWN:
            touches[position] = KeyTouch(position: position, proxy: textDocumentProxy)
            keyPressed(key)
        case KBX_KEY_LONG_PRESS:
            touches[position, default: KeyTouch(position: position, proxy: textDocumentProxy)].longPressed = true
            keyLongPressed(key)
        case KBX_KEY_REPEAT:
            let count = Int(event.repeat_count)
            touches[position, default: KeyTouch(position: position, proxy: textDocumentProxy)].repeatCount = count
            keyRepeated(key, count: count)
        case KBX_KEY_DRAG:
            var touch = touches[position] ?? KeyTouch(position: position, proxy: textDocumentProxy)
            let step = (x: Int(event.drag_x) - touch.dragX, y: Int(event.drag_y) - touch.dragY)
            touch.dragX = Int(event.drag_x)
            touch.dragY = Int(event.drag_y)
            touches[position] = touch
            keyDragged(key, byX: step.x, y: step.y, touch: touch)
        case KBX_KEY_UP:
            var touch = touches.removeValue(forKey: position) ?? KeyTouch(position: position, proxy: textDocumentProxy)
            touch.calloutIndex = event.callout >= 0 ? Int(event.callout) : nil
            keyReleased(key, touch: touch)
        default:
            return false
        }
        return true
    }

    /// The length in Characters of what a delete-word takes from the end of `text`: the spaces there,
    /// then the word before them.
    static func lengthOfLastWord(_ text: String) -> Int {
        var count = 0
        var index = text.endIndex
        while index > text.startIndex, text[text.index(before: index)].isWhitespace {
            index = text.index(before: index)
            count += 1
        }
        while index > text.startIndex, !text[text.index(before: index)].isWhitespace {
            index = text.index(before: index)
            count += 1
        }
        return count
    }
}
