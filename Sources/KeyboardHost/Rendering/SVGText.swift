/// What every picture the host draws (``KeyboardSVG``, ``WalkTimelineSVG``) writes the same way: numbers
/// short and exact enough to read back, and text that cannot break the XML.
enum SVGText {
    /// A number as SVG writes it: at most two decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = (value * 100).rounded()
        let whole = Int(hundredths / 100), fraction = Int(abs(hundredths).truncatingRemainder(dividingBy: 100))
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        guard fraction != 0 else { return sign + "\(whole)" }
        var digits = String(fraction + 100).dropFirst()
        if digits.last == "0" { digits.removeLast() }
        return sign + "\(whole).\(digits)"
    }

    /// Text for XML: the five special characters as entities, and characters XML 1.0 does not allow
    /// (control characters; lone surrogates cannot occur in a Swift String) as U+FFFD, so a label or a
    /// name never breaks the picture.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += " "
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0x7F...0x9F).contains(value) && value != 0xFFFE && value != 0xFFFF
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    /// The font every picture uses: the platform's, as a phone draws it.
    static let fontFamily = "-apple-system, 'Helvetica Neue', Arial, sans-serif"
}
