/// An edit an extension posted through the host API; applied in order on a later turn of the loop.
public enum TextOperation: Hashable, Sendable, CustomStringConvertible {
    case insertText(String)
    case deleteBackward
    case adjustTextPosition(byCharacterOffset: Int)
    case setMarkedText(String, selectedRange: Range<Int>)
    case unmarkText

    /// Applies the edit to `field`.
    public func apply(to field: inout TextField) {
        switch self {
        case .insertText(let text): field.insertText(text)
        case .deleteBackward: field.deleteBackward()
        case .adjustTextPosition(let offset): field.adjustTextPosition(byCharacterOffset: offset)
        case .setMarkedText(let text, let range): field.setMarkedText(text, selectedRange: range)
        case .unmarkText: field.unmarkText()
        }
    }

    public var description: String {
        switch self {
        case .insertText(let text): "insertText(\(text.debugDescription))"
        case .deleteBackward: "deleteBackward()"
        case .adjustTextPosition(let offset): "adjustTextPosition(\(offset))"
        case .setMarkedText(let text, let range): "setMarkedText(\(text.debugDescription), \(range))"
        case .unmarkText: "unmarkText()"
        }
    }
}
