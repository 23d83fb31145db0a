/// What a field accepts, which restricts what a keyboard's input keys may type: a PIN pad types digits
/// only; a Chinese ID card number also takes "X". A layout is checked against it with ``KeyboardLayout/problem(for:)``.
public enum InputType: String, Codable, Hashable, Sendable, CaseIterable {
    /// Anything.
    case text
    /// 0–9.
    case digits
    /// 0–9 and ".".
    case decimal
    /// 0–9, "+", "*", "#".
    case phone
    /// 0–9 and "X" (the check character of an 18-character Chinese resident ID number).
    case chinaIDCard

    /// The characters its input keys may type, or `nil` for any.
    public var allowed: Set<Character>? {
        let digits = Set("0123456789")
        return switch self {
        case .text: nil
        case .digits: digits
        case .decimal: digits.union(["."])
        case .phone: digits.union(["+", "*", "#"])
        case .chinaIDCard: digits.union(["X"])
        }
    }

    var allowedDescription: String {
        switch self {
        case .text: "anything"
        case .digits: "0-9"
        case .decimal: "0-9 and ."
        case .phone: "0-9, +, * and #"
        case .chinaIDCard: "0-9 and X"
        }
    }
}

extension KeyboardLayout {
    /// What is wrong with this layout for a field of `inputType`, in one line naming the key, or `nil`.
    public func problem(for inputType: InputType) -> String? {
        if !subKeyboards.contains(where: { $0.rows.contains { !$0.isEmpty } }) { return "the layout has no keys" }
        guard let allowed = inputType.allowed else { return nil }
        for (sub, keyboard) in subKeyboards.enumerated() {
            for (row, keys) in keyboard.rows.enumerated() {
                for (column, key) in keys.enumerated() where key.code == .input {
                    let text = key.typedText ?? ""
                    if text.isEmpty || !text.allSatisfy(allowed.contains) {
                        return "subKeyboards[\(sub)].rows[\(row)][\(column)]: \(text.debugDescription) is not allowed for input type "
                            + "\(inputType.rawValue) (expected \(inputType.allowedDescription))"
                    }
                }
            }
        }
        return nil
    }
}
