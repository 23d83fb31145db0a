/// Text an extension controls (its name, errors, events, labels) and field text, made safe for a
/// terminal: control characters (an escape sequence's ESC, a bell, a carriage return) are drawn
/// visibly escaped, as `\u{1B}`, so they can never clear, recolour or move anything on the screen.
public enum TerminalText {
    public static func escaped(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if Self.isControl(scalar) {
                result += scalar.escaped(asASCII: true)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 and C1 controls and DEL: what a terminal acts on.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
