/// An edit an extension posted through the host API; applied in order on a later turn of the loop.
public enum TextOperation: Hashable, Sendable, CustomStringConvertible {
    case insertText(String)
    case deleteBackward
    case adjustTextPosition(byCharacterOffset: Int)
    case setMarkedText(String, selectedRange: Range<Int>)
    case unmarkText
    /// Select an absolute range; skipped unless snapshot `ifSnapshot` is still the latest (0: always).
    case setSelectedRange(Range<Int>, ifSnapshot: UInt64)
    /// Delete an absolute range; guarded like `setSelectedRange`.
    case deleteRange(Range<Int>, ifSnapshot: UInt64)

    /// Whether it deletes text (a platform may notify a keyboard's deleting as it does not its typing).
    public var isDeletion: Bool {
        switch self {
        case .deleteBackward, .deleteRange: true
        default: false
        }
    }

    /// Whether it is one of this host's extras (ABI section 7), which only the `exact` profile offers
    /// (``PlatformProfile/offersExtras``).
    public var isExtra: Bool {
        switch self {
        case .setSelectedRange, .deleteRange: true
        default: false
        }
    }

    /// The snapshot a guarded operation was made against, or `nil` for an unguarded one.
    public var guardSnapshot: UInt64? {
        switch self {
        case .setSelectedRange(_, let snapshot), .deleteRange(_, let snapshot): snapshot == 0 ? nil : snapshot
        default: nil
        }
    }

    /// Applies the edit to `field` as `profile`'s platform would; returns the Character the platform's
    /// units cut across, if they did: a caret move stopped short of it (it would have ended inside it),
    /// or a delete took part of it.
    @discardableResult
    public func apply(to field: inout TextField, under profile: PlatformProfile = .exact) -> Character? {
        switch self {
        case .insertText(let text): field.insertText(text)
        case .deleteBackward: return field.deleteBackward(in: profile.deleteUnit)
        case .adjustTextPosition(let offset): return field.adjustTextPosition(by: offset, in: profile.caretMoveUnit)
        case .setMarkedText(let text, let range): field.setMarkedText(text, selectedRange: range)
        case .unmarkText: field.unmarkText()
        case .setSelectedRange(let range, _): field.select(range)
        case .deleteRange(let range, _): field.deleteRange(range)
        }
        return nil
    }

    public var description: String {
        switch self {
        case .insertText(let text): "insertText(\(text.debugDescription))"
        case .deleteBackward: "deleteBackward()"
        case .adjustTextPosition(let offset): "adjustTextPosition(\(offset))"
        case .setMarkedText(let text, let range): "setMarkedText(\(text.debugDescription), \(range))"
        case .unmarkText: "unmarkText()"
        case .setSelectedRange(let range, let snapshot): "setSelectedRange(\(range)\(Self.guardText(snapshot)))"
        case .deleteRange(let range, let snapshot): "deleteRange(\(range)\(Self.guardText(snapshot)))"
        }
    }

    private static func guardText(_ snapshot: UInt64) -> String {
        snapshot == 0 ? "" : ", if snapshot #\(snapshot)"
    }
}
