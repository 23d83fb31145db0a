import KeyboardExtension

/// The smallest useful keyboard: lower-case QWERTY letters, delete, space and return, typing into the
/// field through the proxy. Everything it does on a tap comes from `KeyboardViewController`'s defaults.
final class HelloKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        func letters(_ row: String) -> [Key] { row.map { Key.input(String($0)) } }
        let rows: [[Key]] = [
            letters("qwertyuiop"),
            letters("asdfghjkl"),
            letters("zxcvbnm") + [Key(code: .delete, label: "⌫", width: 1.5)],
            [Key(code: .space, label: "space", width: 5), Key(code: .return, label: "return", width: 2)],
        ]
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: rows)]))
    }
}

@_cdecl("kbx_extension_entry")
public func entry() -> UnsafeRawPointer? { HelloKeyboard.export(id: "dev.kbhost.samples.hello", name: "Hello Keyboard", version: "1.0.0") }
