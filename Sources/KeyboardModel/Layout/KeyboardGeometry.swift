/// Where each key of one sub-keyboard sits, in points, for a keyboard of a given width: the one
/// computation of a layout's geometry. Pictures of a layout (`kbhost render`, the test host's SVG)
/// and the REPL's terminal drawing (a column a point) draw these frames, and a touch at a point is
/// resolved to a key by them (``position(at:_:)``), so what is drawn is what is tapped.
///
/// The rules, in the layout's own terms:
/// - **Widths.** Each row fills the width between the margins: a key takes its `width` weight, a gap
///   of `horizontalGap` between neighbours, and its `leftPadding` before it, all in the row's units.
///   A row's units are the sum of those. Keys that reach into a row from above keep their width in
///   points; the row's own keys share what is left, a gap away from them, and skip past them left to
///   right (should they then not fit — a tall key in mid-row with keys below that do not divide around
///   it — the row's own keys are narrowed until they do).
/// - **The key unit.** Margins given as `absolute`, and the vertical gap, count key units: the width
///   of a standard key (1) in the widest row.
/// - **Margins.** Left and right as a `fraction` of the keyboard's width, or `absolute`; top and
///   bottom as a fraction of its height, or absolute.
/// - **Heights.** A key's `height` weights a standard row (``standardRowHeight(forWidth:)``: iOS's 54
///   points on a 390-point iPhone). A row is as high as its highest key of height 1 or less; a key
///   higher than 1 spans that many rows (rounded up) from its own down, with the gaps between them, and
///   the rows below flow around it: their keys skip the space it takes.
/// - Keys of a row are top-aligned; a key shorter than its row leaves space below it.
public struct KeyboardGeometry: Hashable, Sendable {
    /// A rectangle in points, from the keyboard's top left corner.
    public struct Frame: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var maxX: Double { x + width }
        public var maxY: Double { y + height }
        public var midX: Double { x + width / 2 }
        public var midY: Double { y + height / 2 }

        /// Whether the point is inside: the left and top edges are, the right and bottom are not, so
        /// two keys that touch never both contain a point.
        public func contains(x px: Double, y py: Double) -> Bool {
            px >= x && px < maxX && py >= y && py < maxY
        }
    }

    /// One key, where it is drawn and tapped.
    public struct PlacedKey: Hashable, Sendable {
        public let position: KeyPosition
        public let key: Key
        public let frame: Frame
        /// How many rows it spans (1 for most keys).
        public let rowSpan: Int
    }

    /// The keyboard's size, in points.
    public let width: Double
    public let height: Double
    /// Every key of the page, row by row.
    public let keys: [PlacedKey]
    /// The width of a standard key in the widest row: what absolute margins and the vertical gap count.
    public let keyUnit: Double

    /// An iPhone's width in points, the default for pictures.
    public static let defaultWidth = 390.0

    /// The height of a standard row (a key of height 1) on a keyboard `width` points wide: 54 points at
    /// 390, as iOS's keyboard.
    public static func standardRowHeight(forWidth width: Double) -> Double { width * 54 / 390 }

    /// The geometry of sub-keyboard `page` of `layout` at `width` points; an empty page (or one that
    /// does not exist) has no keys and a standard row's height.
    public init(layout: KeyboardLayout, page: Int, width: Double = KeyboardGeometry.defaultWidth) {
        let width = width.isFinite && width > 0 ? width : Self.defaultWidth
        self.width = width
        let rowHeight = Self.standardRowHeight(forWidth: width)
        guard layout.subKeyboards.indices.contains(page) else {
            (height, keys, keyUnit) = (rowHeight, [], width)
            return
        }
        let sub = layout.subKeyboards[page]
        let rows = sub.rows
        let gap = sub.horizontalGap

        // Which keys reach into the rows below, and so how many units each row holds.
        var spans: [[Int]] = rows.map { $0.map { Self.rowSpan(of: $0) } }
        for r in rows.indices {
            for c in rows[r].indices { spans[r][c] = min(spans[r][c], rows.count - r) }
        }
        let units = rows.map { keys in
            keys.reduce(0) { $0 + Self.weight($1.leftPadding, minimum: 0) + Self.weight($1.width, minimum: 0.01) }
                + gap * Double(max(keys.count - 1, 0))
        }
        let widest = max(units.max() ?? 1, 0.01)

        // The key unit, from the horizontal margins: W(1 − fL − fR) = u(U + aL + aR).
        let (leftFraction, leftAbsolute) = Self.split(sub.margins.left)
        let (rightFraction, rightAbsolute) = Self.split(sub.margins.right)
        let unit = width * max(1 - leftFraction - rightFraction, 0.01) / (widest + leftAbsolute + rightAbsolute)
        keyUnit = unit
        let left = leftFraction * width + leftAbsolute * unit
        let inner = widest * unit

        // Rows' heights and tops, then the whole height from the vertical margins.
        let rowHeights = rows.indices.map { r in
            let own = rows[r].indices.filter { spans[r][$0] == 1 }.map { Self.weight(rows[r][$0].height, minimum: 0.01) }
            return (own.max() ?? 1) * rowHeight
        }
        let verticalGap = sub.verticalGap * unit
        let content = rowHeights.reduce(0, +) + verticalGap * Double(max(rows.count - 1, 0))
        let (topFraction, topAbsolute) = Self.split(sub.margins.top)
        let (bottomFraction, bottomAbsolute) = Self.split(sub.margins.bottom)
        height = (content + (topAbsolute + bottomAbsolute) * unit) / max(1 - topFraction - bottomFraction, 0.01)
        var tops: [Double] = []
        var y = topFraction * height + topAbsolute * unit
        for h in rowHeights {
            tops.append(y)
            y += h + verticalGap
        }

        // Left to right along each row, skipping what keys from above take.
        var placed: [PlacedKey] = []
        var taken: [[(start: Double, end: Double)]] = Array(repeating: [], count: rows.count)
        for r in rows.indices {
            // What keys from above take is theirs; the row's own keys share the rest, a gap from each.
            let takenWidth = taken[r].reduce(0) { $0 + $1.end - $1.start }
            let spanGaps = rows[r].isEmpty ? 0 : gap * Double(taken[r].count)
            let scale = max(inner - takenWidth, 0) / max(units[r] + spanGaps, 0.01)
            let right = left + inner
            var row = layOut(rows[r], row: r, scale: scale)
            // Narrowed until it fits around what keys from above take (see the rules above).
            var narrowed = scale
            for _ in 0..<30 {
                guard let last = row.last, last.frame.maxX > right + 1e-6 else { break }
                narrowed *= min(0.95, (right - left) / max(last.frame.maxX - left, 1e-9))
                row = layOut(rows[r], row: r, scale: narrowed)
            }
            for key in row {
                placed.append(key)
                for below in (r + 1)..<(r + key.rowSpan) { taken[below].append((key.frame.x, key.frame.maxX)) }
            }
        }

        /// Row `r`'s keys left to right at `scale` points per unit, skipping what keys from above take.
        func layOut(_ keys: [Key], row r: Int, scale: Double) -> [PlacedKey] {
            var cursor = left
            var out: [PlacedKey] = []
            let blocked = taken[r].sorted { $0.start < $1.start }
            for (c, key) in keys.enumerated() {
                let keyWidth = Self.weight(key.width, minimum: 0.01) * scale
                let padding = Self.weight(key.leftPadding, minimum: 0) * scale
                var x = cursor + padding + (c > 0 ? gap * scale : 0)
                for interval in blocked where interval.start < x + keyWidth - 1e-9 && interval.end > x - padding + 1e-9 {
                    x = interval.end + gap * scale + padding
                }
                let span = spans[r][c]
                let bottom = span > 1 ? tops[r + span - 1] + rowHeights[r + span - 1] : tops[r] + Self.weight(key.height, minimum: 0.01) * rowHeight
                let frame = Frame(x: x, y: tops[r], width: keyWidth, height: bottom - tops[r])
                out.append(PlacedKey(position: KeyPosition(subKeyboard: page, row: r, column: c), key: key, frame: frame, rowSpan: span))
                cursor = x + keyWidth
            }
            return out
        }
        keys = placed
    }

    /// The key whose frame holds the point, if any: where a touch there lands.
    public func position(at x: Double, _ y: Double) -> KeyPosition? {
        keys.first { $0.frame.contains(x: x, y: y) }?.position
    }

    /// The frame of the key at `position`, if this page has it.
    public func frame(of position: KeyPosition) -> Frame? {
        keys.first { $0.position == position }?.frame
    }

    /// How many rows a key of this height spans: 1 up to a height of 1, else its height rounded up.
    static func rowSpan(of key: Key) -> Int {
        key.height > 1 && key.height.isFinite ? Int(min(key.height.rounded(.up), 1000)) : 1
    }

    private static func weight(_ value: Double, minimum: Double) -> Double {
        value.isFinite ? max(value, minimum) : minimum
    }

    /// A margin as (fraction, absolute key units).
    private static func split(_ length: Margins.Length) -> (Double, Double) {
        switch length {
        case .fraction(let value): (value.isFinite ? min(max(value, 0), 0.49) : 0, 0)
        case .absolute(let value): (0, value.isFinite ? max(value, 0) : 0)
        }
    }
}
