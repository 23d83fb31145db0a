import Foundation
import KeyboardHost
import PropertyBased
import Testing
import TestSupport

@Suite("Layout geometry and its SVG")
struct KeyboardGeometryTests {
    private func drawn(_ layout: KeyboardLayout, width: Double = 390, page: Int = 0) throws -> [RenderedKeys.Drawn] {
        try RenderedKeys.read(KeyboardSVG(width: width).svg(layout, pages: [page])).keys
    }

    private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 0.011 }  // the SVG keeps two decimals

    /// The built-in QWERTY at an iPhone's 390 points: ten keys of 39 points in the top row, the middle
    /// row's half-key indent in its own units (9.5 of them), rows of 54 points.
    @Test func qwertysKeysAreWhereItsWeightsPutThem() throws {
        let keys = try drawn(.qwerty)
        let top = keys.filter { $0.row == 0 }
        #expect(top.count == 10)
        for (index, key) in top.enumerated() {
            #expect(close(key.x, Double(index) * 39) && close(key.width, 39) && close(key.y, 0) && close(key.height, 54))
        }
        let middle = keys.filter { $0.row == 1 }
        let scale = 390 / 9.5
        #expect(close(middle[0].x, 0.5 * scale) && close(middle[0].width, scale))
        #expect(close(middle.last!.x + middle.last!.width, 390))
        let bottom = keys.filter { $0.row == 3 }
        #expect(bottom.map(\.code) == ["modeChange:numbers", "nextKeyboard", "space", "return"])
        #expect(close(bottom[2].width, 5 * 390 / 9.5) && close(bottom[2].y, 3 * 54))
    }

    /// Margins (a fraction of the width, and absolute key units), gaps, a left padding, a short row
    /// and a key that spans two rows, which the row below flows around — each frame worked out by hand
    /// from the rules in KeyboardGeometry's documentation.
    @Test func marginsGapsPaddingHeightsAndARowSpanningKey() throws {
        let page = SubKeyboard(mode: .numbers, rows: [
            [.input("1"), .input("2"), .input("3"), Key(code: .done, label: "OK", height: 2)],
            [.input("4"), .input("5", width: 2)],
            [Key(code: .input, label: "0", height: 0.5, leftPadding: 1)],
        ], margins: Margins(left: .fraction(0.1), right: .absolute(1), top: .absolute(0.5), bottom: .fraction(0.1)),
        horizontalGap: 0.2, verticalGap: 0.25)
        let keys = try drawn(KeyboardLayout(subKeyboards: [page]), width: 400)
        // Units: row 0 = 4 keys + 3 gaps = 4.6; row 1 = 1 + 2 + 1 gap = 3.2; row 2 = 1 + 1 = 2.
        // The key unit: 400 × (1 − 0.1) / (4.6 + 0 + 1) = 64.2857…; left margin 40; inner width 4.6 u.
        let u = 400 * 0.9 / 5.6, left = 40.0, inner = 4.6 * u
        let rowHeight = 400 * 54 / 390.0, gapY = 0.25 * u
        let top = 0.5 * u
        func key(_ row: Int, _ column: Int) -> RenderedKeys.Drawn { keys.first { $0.row == row && $0.column == column }! }
        // Row 0: its own scale is inner / 4.6 = u.
        #expect(close(key(0, 0).x, left) && close(key(0, 0).width, u) && close(key(0, 0).y, top))
        #expect(close(key(0, 1).x, left + 1.2 * u))
        let ok = key(0, 3)
        #expect(close(ok.x, left + 3.6 * u) && ok.rowSpan == 2)
        // OK spans rows 0 and 1 with the gap between them: row 0 is 1 high, row 1 is 1 high.
        #expect(close(ok.height, 2 * rowHeight + gapY))
        // Row 1 flows around OK, which keeps its width: 4 and 5 share the rest, a gap from OK.
        let scale1 = (inner - ok.width) / (3.2 + 0.2)
        #expect(close(key(1, 0).x, left) && close(key(1, 0).width, scale1))
        #expect(close(key(1, 1).x, left + 1.2 * scale1) && close(key(1, 1).width, 2 * scale1))
        #expect(close(key(1, 1).x + key(1, 1).width + 0.2 * scale1, ok.x))
        #expect(close(key(1, 0).y, top + rowHeight + gapY))
        // Row 2: half a row high, after a padding of 1 in units of 2.
        let zero = key(2, 0)
        #expect(close(zero.x, left + inner / 2) && close(zero.width, inner / 2) && close(zero.height, 0.5 * rowHeight))
        #expect(close(zero.y, top + 2 * (rowHeight + gapY)))
        // The height: content plus the top's 0.5 u, over 1 − 0.1 for the bottom's fraction.
        let content = 2.5 * rowHeight + 2 * gapY
        let reader = try RenderedKeys.read(KeyboardSVG(width: 400).svg(KeyboardLayout(subKeyboards: [page])))
        #expect(close(reader.pageSizes[0]!.height, (content + 0.5 * u) / 0.9))
    }

    /// What is drawn is what is tapped: a point resolves to the key whose frame holds it; a gap, a
    /// margin or a point outside resolve to none. Over random layouts, frames stay inside the width
    /// and never overlap.
    @Test func aTouchLandsOnTheKeyDrawnThere() async {
        await propertyCheck(input: Gen.int(in: 1...5).array(of: 1...4), Gen.double(in: 0...0.5)) { shape, gap in
            let rows = shape.enumerated().map { r, count in
                (0..<count).map { c in Key(code: .input, label: "\(r)\(c)", width: Double(1 + (r + c) % 3), height: r == 0 && c == 0 ? 2 : 1, leftPadding: c == 0 ? 0.5 : 0) }
            }
            let layout = KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: rows, horizontalGap: gap, verticalGap: gap)])
            let geometry = KeyboardGeometry(layout: layout, page: 0, width: 390)
            #expect(geometry.keys.count == shape.reduce(0, +))
            for placed in geometry.keys {
                #expect(placed.frame.x >= -1e-9 && placed.frame.maxX <= 390 + 1e-6, "\(placed)")
                #expect(geometry.position(at: placed.frame.midX, placed.frame.midY) == placed.position)
                for other in geometry.keys where other.position != placed.position {
                    let overlaps = placed.frame.x < other.frame.maxX - 1e-6 && other.frame.x < placed.frame.maxX - 1e-6
                        && placed.frame.y < other.frame.maxY - 1e-6 && other.frame.y < placed.frame.maxY - 1e-6
                    #expect(!overlaps, "\(placed.position) and \(other.position)")
                }
            }
            #expect(geometry.position(at: -1, 10) == nil && geometry.position(at: 10, geometry.height + 1) == nil)
        }
        let pad = KeyboardGeometry(layout: .numericPad, page: 0, width: 390)
        let one = pad.frame(of: KeyPosition(subKeyboard: 0, row: 0, column: 0))!, two = pad.frame(of: KeyPosition(subKeyboard: 0, row: 0, column: 1))!
        #expect(pad.position(at: (one.maxX + two.x) / 2, one.midY) == nil)  // the gap between 1 and 2
    }

    /// A layout with absurd numbers (each within what a layout file allows: weights, gaps and margins
    /// of 1e300 and 1e-300, a key 1e300 rows high) still has a geometry: every frame finite and
    /// inside the keyboard, a height finite, and a picture that parses.
    @Test func absurdNumbersStillMakeAGeometry() throws {
        let page = SubKeyboard(mode: .letters, rows: [
            [Key(code: .input, label: "a", width: 1e300, height: 1e300, leftPadding: 1e300), Key(code: .input, label: "b", width: 1e-300)],
            [.input("c")],
        ], margins: Margins(left: .absolute(1e300), top: .fraction(0.49)), horizontalGap: 1e300, verticalGap: 1e300)
        let layout = KeyboardLayout(subKeyboards: [page])
        for width in [390.0, 1e-6, 100_000] {
            let geometry = KeyboardGeometry(layout: layout, page: 0, width: width)
            #expect(geometry.keys.count == 3 && geometry.height.isFinite)
            for placed in geometry.keys {
                let frame = placed.frame
                #expect([frame.x, frame.y, frame.width, frame.height].allSatisfy { $0.isFinite }, "\(placed)")
                #expect(frame.x >= -1e-9 && frame.maxX <= width * (1 + 1e-9), "\(placed)")
            }
            let drawn = try RenderedKeys.read(KeyboardSVG(width: width).svg(layout))
            #expect(drawn.keys.count == 3)
        }
    }

    /// A label is text, never markup: special characters are escaped and control characters replaced,
    /// so the picture always parses; the label reads back as it was.
    @Test func labelsAreEscaped() throws {
        let label = "<a href=\"x\">&'\u{1B}[2J"
        let keys = try drawn(KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[Key(code: .action("x"), label: label)]])]))
        #expect(keys.count == 1)
        #expect(keys[0].label == "<a href=\"x\">&'\u{FFFD}[2J")
    }

    /// Shift shows on the labels: upper case letters, and the shift key's state.
    @Test func theShiftStateShowsOnTheLabels() throws {
        let svg = KeyboardSVG(shift: .capsLock).svg(.qwerty, pages: [0])
        let labels = try RenderedKeys.read(svg).keys.map(\.label)
        #expect(labels.contains("Q") && !labels.contains("q") && labels.contains("⇧⇪"))
    }
}
