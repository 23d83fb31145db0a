import KeyboardHost
import Testing

@Suite("Drawing the keyboard")
struct KeyboardRendererTests {
    private let layout = KeyboardLayout(subKeyboards: [
        SubKeyboard(mode: .letters, rows: [
            [.input("q"), .input("w"), .input("e")],
            [Key(code: .shift, label: "⇧", width: 1), .input("a"), Key(code: .delete, label: "⌫", width: 1)],
            [Key(code: .space, label: "space", width: 2), Key(code: .return, label: "⏎", width: 1)],
        ]),
        SubKeyboard(mode: .numbers, rows: [[.input("1"), .input("2")]]),
    ])

    @Test func rowsFillTheWidthByWeightInPlainText() {
        let lines = KeyboardRenderer(width: 31, colors: false).lines(layout: layout, state: KeyboardState(), highlighted: nil)
        // 30 columns: three keys of weight 1 get 10 each; space (weight 2) gets 20.
        #expect(lines == [
            "[   q    ][   w    ][   e    ]",
            "[   ⇧    ][   a    ][   ⌫    ]",
            "[      space       ][   ⏎    ]",
        ])
        #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) == 30 })
    }

    /// The terminal draws KeyboardGeometry's frames, a column a point: the margins are blank, and the
    /// row below a key that spans two rows leaves its place blank, its keys under the ones beside it.
    @Test func marginsAndARowSpanningKeyAreDrawnAsThePictureHasThem() {
        let page = SubKeyboard(mode: .numbers, rows: [
            [Key(code: .done, label: "OK", height: 2), .input("1"), .input("2")],
            [.input("4"), .input("5")],
        ], margins: Margins(left: .fraction(0.1), right: .fraction(0.1)))
        let lines = KeyboardRenderer(width: 41, colors: false).lines(layout: KeyboardLayout(subKeyboards: [page]), state: KeyboardState(subKeyboard: 0), highlighted: nil)
        // 40 columns, 4 of margin each side; OK, 1 and 2 take 10⅔ each: 4–14⅔, 14⅔–25⅓, 25⅓–36.
        #expect(lines == [
            "    [   OK    ][   1    ][    2    ]",
            "               [   4    ][    5    ]",
        ])
    }

    @Test func shiftShowsOnTheLabelsAndTheLastKeyIsHighlighted() {
        let lines = KeyboardRenderer(width: 31, colors: false).lines(
            layout: layout, state: KeyboardState(subKeyboard: 0, shift: .on),
            highlighted: KeyPosition(subKeyboard: 0, row: 0, column: 1)
        )
        #expect(lines[0] == "[   Q    ]<   W    >[   E    ]")
        #expect(lines[1].contains("⇧•"))
        #expect(KeyboardRenderer(width: 31, colors: false)
            .lines(layout: layout, state: KeyboardState(subKeyboard: 0, shift: .capsLock), highlighted: nil)[1].contains("⇧⇪"))
    }

    @Test func theShownSubKeyboardIsDrawn() {
        let lines = KeyboardRenderer(width: 11, colors: false).lines(layout: layout, state: KeyboardState(subKeyboard: 1), highlighted: nil)
        #expect(lines == ["[ 1 ][ 2 ]"])
    }

    @Test func colorsUseBackgroundsNotBrackets() {
        let line = KeyboardRenderer(width: 31, colors: true).lines(layout: layout, state: KeyboardState(), highlighted: nil)[0]
        #expect(line.contains("\u{1B}[48;5;238m"))
        #expect(!line.contains("[  ") && !line.contains("]"))
    }

    @Test(arguments: [("abc", 3), ("漢字", 4), ("👩‍👩‍👧", 2), ("e\u{301}", 1), ("🇫🇷", 2), ("a\u{200D}", 1)])
    func displayWidth(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.columns(of: text) == columns)
    }
}

@Suite("Drawing the keyboard in the configuration's appearance")
struct AppearanceRendererTests {
    private let layout = KeyboardLayout(subKeyboards: [
        SubKeyboard(mode: .letters, rows: [[.input("q"), Key(code: .delete, label: "⌫")]]),
    ])

    @Test func capitalLabelsUnlessLowerCaseKeysAreShown() {
        let capitals = KeyboardRenderer(width: 21, colors: false, appearance: Appearance(showsLowercaseKeys: false))
        #expect(capitals.lines(layout: layout, state: KeyboardState(), highlighted: nil) == ["[   Q    ][   ⌫    ]"])
        let lower = KeyboardRenderer(width: 21, colors: false, appearance: Appearance())
        #expect(lower.lines(layout: layout, state: KeyboardState(), highlighted: nil) == ["[   q    ][   ⌫    ]"])
    }

    @Test func themesChooseTheColours() {
        let dark = KeyboardRenderer(width: 21, colors: true, appearance: Appearance(theme: .dark))
            .lines(layout: layout, state: KeyboardState(), highlighted: nil)[0]
        #expect(dark.hasPrefix("\u{1B}[48;5;238m"))
        let light = KeyboardRenderer(width: 21, colors: true, appearance: Appearance(theme: .light))
            .lines(layout: layout, state: KeyboardState(), highlighted: nil)[0]
        #expect(light.hasPrefix("\u{1B}[48;5;255;38;5;16m"))
        #expect(light.contains("\u{1B}[48;5;250;38;5;16m"))  // the delete key, a shade darker
        // Plain draws brackets even on a colour terminal.
        let plain = KeyboardRenderer(width: 21, colors: true, appearance: Appearance(theme: .plain))
            .lines(layout: layout, state: KeyboardState(), highlighted: nil)[0]
        #expect(plain == "[   q    ][   ⌫    ]")
    }
}
