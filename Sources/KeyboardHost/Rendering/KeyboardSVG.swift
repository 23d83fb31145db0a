import KeyboardModel

/// Draws a layout as SVG: each sub-keyboard asked for, one under another with its name above it, each
/// key where ``KeyboardGeometry`` puts it (the frames a touch is resolved by), with its label as the
/// shift state shows it, and its callouts small in its corner.
///
/// Every key is a `<g class="key">` carrying its place (`data-page`, `data-row`, `data-column`), its
/// code and its row span, around one `<rect>` of its frame and a `<text>` of its label, so a test (or a
/// script) reads the geometry back from the picture. Each page is a `<g class="page">` translated to
/// where it is drawn, with `data-width` and `data-height`.
public struct KeyboardSVG: Sendable {
    public var width: Double
    public var shift: ShiftState
    public var appearance: Appearance
    /// A title for the picture (the keyboard's name).
    public var title: String?

    public init(width: Double = KeyboardGeometry.defaultWidth, shift: ShiftState = .off, appearance: Appearance = Appearance(theme: .light), title: String? = nil) {
        self.width = width
        self.shift = shift
        self.appearance = appearance
        self.title = title
    }

    /// The space above each page for its name.
    static let captionHeight = 22.0

    /// The picture of `pages` of `layout` (all by default).
    public func svg(_ layout: KeyboardLayout, pages: [Int]? = nil) -> String {
        let pages = (pages ?? Array(layout.subKeyboards.indices)).filter { layout.subKeyboards.indices.contains($0) }
        let geometries = pages.map { KeyboardGeometry(layout: layout, page: $0, width: width) }
        let total = geometries.reduce(0) { $0 + Self.captionHeight + $1.height }
        let colors = Colors(appearance.theme)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(total))" \
            viewBox="0 0 \(Self.number(width)) \(Self.number(total))" font-family="-apple-system, 'Helvetica Neue', Arial, sans-serif">

            """
        if let title { out += "  <title>\(Self.escaped(title))</title>\n" }
        out += "  <rect width=\"100%\" height=\"100%\" fill=\"\(colors.background)\"/>\n"
        var top = 0.0
        for (page, geometry) in zip(pages, geometries) {
            let mode = layout.subKeyboards[page].mode.rawValue
            out += "  <text class=\"caption\" x=\"8\" y=\"\(Self.number(top + 15))\" font-size=\"12\" fill=\"\(colors.caption)\">"
                + "\(Self.escaped(mode)) (sub-keyboard \(page))\(shift == .off ? "" : ", shift \(shift)")</text>\n"
            top += Self.captionHeight
            out += "  <g class=\"page\" data-page=\"\(page)\" data-mode=\"\(Self.escaped(mode))\" data-width=\"\(Self.number(geometry.width))\" "
                + "data-height=\"\(Self.number(geometry.height))\" transform=\"translate(0 \(Self.number(top)))\">\n"
            for placed in geometry.keys {
                out += key(placed, colors: colors)
            }
            out += "  </g>\n"
            top += geometry.height
        }
        return out + "</svg>\n"
    }

    /// One key: its frame (inset by a point each side, as keys are drawn apart), its label, its callouts.
    private func key(_ placed: KeyboardGeometry.PlacedKey, colors: Colors) -> String {
        let frame = placed.frame
        let isInput = placed.key.code == .input || placed.key.code == .space
        let label = placed.key.shownLabel(shift: shift, appearance: appearance)
        let inset = min(1.5, frame.width / 4, frame.height / 4)
        let size = Self.fontSize(label, frame)
        var out = "    <g class=\"key\" data-row=\"\(placed.position.row)\" data-column=\"\(placed.position.column)\" "
            + "data-code=\"\(Self.escaped(placed.key.code.description))\" data-row-span=\"\(placed.rowSpan)\">\n"
        out += "      <rect x=\"\(Self.number(frame.x))\" y=\"\(Self.number(frame.y))\" width=\"\(Self.number(frame.width))\" "
            + "height=\"\(Self.number(frame.height))\" fill=\"none\" stroke=\"none\"/>\n"
        out += "      <rect class=\"cap\" x=\"\(Self.number(frame.x + inset))\" y=\"\(Self.number(frame.y + inset))\" "
            + "width=\"\(Self.number(max(frame.width - 2 * inset, 0)))\" height=\"\(Self.number(max(frame.height - 2 * inset, 0)))\" rx=\"5\" "
            + "fill=\"\(isInput ? colors.inputKey : colors.functionKey)\"/>\n"
        out += "      <text x=\"\(Self.number(frame.midX))\" y=\"\(Self.number(frame.midY))\" text-anchor=\"middle\" dominant-baseline=\"central\" "
            + "font-size=\"\(Self.number(size))\" fill=\"\(colors.label)\">\(Self.escaped(label))</text>\n"
        if !placed.key.callouts.isEmpty {
            let hint = placed.key.callouts.prefix(4).joined()
            out += "      <text class=\"callouts\" x=\"\(Self.number(frame.maxX - inset - 2))\" y=\"\(Self.number(frame.y + inset + 8))\" "
                + "text-anchor=\"end\" font-size=\"7\" fill=\"\(colors.caption)\">\(Self.escaped(hint))</text>\n"
        }
        return out + "    </g>\n"
    }

    /// A label's size: as a phone's, 22 points for one character and 16 for a word, smaller to fit.
    static func fontSize(_ label: String, _ frame: KeyboardGeometry.Frame) -> Double {
        let characters = Double(max(label.count, 1))
        let byHeight = frame.height * 0.42
        let byWidth = (frame.width - 8) / (characters * 0.65)
        return max(min(characters > 1 ? 16 : 22, byHeight, byWidth), 4)
    }

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
    /// (control characters, lone surrogates cannot occur in a Swift String) as U+FFFD, so a label
    /// never breaks the picture.
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

    /// iOS's keyboard colours, light and dark.
    private struct Colors {
        let background, inputKey, functionKey, label, caption: String

        init(_ theme: Appearance.Theme) {
            switch theme {
            case .dark:
                (background, inputKey, functionKey, label, caption) = ("#2b2b2d", "#6b6b6e", "#47474a", "#ffffff", "#a0a0a5")
            case .light, .plain:
                (background, inputKey, functionKey, label, caption) = ("#d1d3d9", "#ffffff", "#abb0ba", "#000000", "#555a63")
            }
        }
    }
}
