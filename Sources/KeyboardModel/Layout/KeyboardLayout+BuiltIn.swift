// Built-in layouts, as Swift values (``KeyboardLayout/json()`` gives them as files to start from).
extension KeyboardLayout {
    /// QWERTY letters with shift, then numbers and symbols pages, each with delete, space, return and
    /// the globe key.
    public static let qwerty = KeyboardLayout(subKeyboards: [
        SubKeyboard(mode: .letters, rows: [
            inputs("qwertyuiop"),
            inputs("asdfghjkl", firstPadding: 0.5),
            [Key(code: .shift, label: "⇧", width: 1.5)] + inputs("zxcvbnm") + [delete],
            bottomRow(switchTo: .numbers, label: "123"),
        ]),
        SubKeyboard(mode: .numbers, rows: [
            inputs("1234567890"),
            inputs("-/:;()$&@\""),
            [Key(code: .modeChange(.symbols), label: "#+=", width: 1.5)] + inputs(".,?!'") + [delete],
            bottomRow(switchTo: .letters, label: "ABC"),
        ]),
        SubKeyboard(mode: .symbols, rows: [
            inputs("[]{}#%^*+="),
            inputs("_\\|~<>€£¥•"),
            [Key(code: .modeChange(.numbers), label: "123", width: 1.5)] + inputs(".,?!'") + [delete],
            bottomRow(switchTo: .letters, label: "ABC"),
        ]),
    ])

    /// A secure PIN pad: digits 1–9 in three rows, then delete, 0 and done; shuffled (the secure
    /// defaults), and used by position, so a shuffled pad is still typed by where the keys are.
    public static let numericPad = KeyboardLayout(subKeyboards: [
        SubKeyboard(mode: .numbers, rows: [
            inputs("123"), inputs("456"), inputs("789"),
            [Key(code: .delete, label: "⌫"), .input("0"), Key(code: .done, label: "done")],
        ], tapByPosition: true, horizontalGap: 0.1, verticalGap: 0.1),
    ], secure: true)

    /// The built-in layouts by the names a host's settings use (`"layout": "qwerty"`).
    public static let builtIn: [String: KeyboardLayout] = ["qwerty": .qwerty, "numericPad": .numericPad]

    private static func inputs(_ characters: String, firstPadding: Double = 0) -> [Key] {
        characters.enumerated().map { index, character in
            Key(code: .input, label: String(character), leftPadding: index == 0 ? firstPadding : 0)
        }
    }

    private static let delete = Key(code: .delete, label: "⌫", width: 1.5)

    private static func bottomRow(switchTo mode: KeyboardMode, label: String) -> [Key] {
        [
            Key(code: .modeChange(mode), label: label, width: 1.5), Key(code: .nextKeyboard, label: "🌐"),
            Key(code: .space, label: "space", width: 5), Key(code: .return, label: "return", width: 2),
        ]
    }
}
