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
            <svg xmlns="http://www.w3.org/2000/svg" width="\(SVGText.number(width))" height="\(SVGText.number(total))" \
            viewBox="0 0 \(SVGText.number(width)) \(SVGText.number(total))" font-family="\(SVGText.fontFamily)">

            """
        if let title { out += "  <title>\(SVGText.escaped(title))</title>\n" }
        out += "  <rect width=\"100%\" height=\"100%\" fill=\"\(colors.background)\"/>\n"
        var top = 0.0
        for (page, geometry) in zip(pages, geometries) {
            let mode = layout.subKeyboards[page].mode.rawValue
            out += "  <text class=\"caption\" x=\"8\" y=\"\(SVGText.number(top + 15))\" font-size=\"12\" fill=\"\(colors.caption)\">"
                + "\(SVGText.escaped(mode)) (sub-keyboard \(page))\(shift == .off ? "" : ", shift \(shift)")</text>\n"
            top += Self.captionHeight
            out += "  <g class=\"page\" data-page=\"\(page)\" data-mode=\"\(SVGText.escaped(mode))\" data-width=\"\(SVGText.number(geometry.width))\" "
                + "data-height=\"\(SVGText.number(geometry.height))\" transform=\"translate(0 \(SVGText.number(top)))\">\n"
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
            + "data-code=\"\(SVGText.escaped(placed.key.code.description))\" data-row-span=\"\(placed.rowSpan)\">\n"
        out += "      <rect x=\"\(SVGText.number(frame.x))\" y=\"\(SVGText.number(frame.y))\" width=\"\(SVGText.number(frame.width))\" "
            + "height=\"\(SVGText.number(frame.height))\" fill=\"none\" stroke=\"none\"/>\n"
        out += "      <rect class=\"cap\" x=\"\(SVGText.number(frame.x + inset))\" y=\"\(SVGText.number(frame.y + inset))\" "
            + "width=\"\(SVGText.number(max(frame.width - 2 * inset, 0)))\" height=\"\(SVGText.number(max(frame.height - 2 * inset, 0)))\" rx=\"5\" "
            + "fill=\"\(isInput ? colors.inputKey : colors.functionKey)\"/>\n"
        out += "      <text x=\"\(SVGText.number(frame.midX))\" y=\"\(SVGText.number(frame.midY))\" text-anchor=\"middle\" dominant-baseline=\"central\" "
            + "font-size=\"\(SVGText.number(size))\" fill=\"\(colors.label)\">\(SVGText.escaped(label))</text>\n"
        if !placed.key.callouts.isEmpty {
            let hint = placed.key.callouts.prefix(4).joined()
            out += "      <text class=\"callouts\" x=\"\(SVGText.number(frame.maxX - inset - 2))\" y=\"\(SVGText.number(frame.y + inset + 8))\" "
                + "text-anchor=\"end\" font-size=\"7\" fill=\"\(colors.caption)\">\(SVGText.escaped(hint))</text>\n"
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
