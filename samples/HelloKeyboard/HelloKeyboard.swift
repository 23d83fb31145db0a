import KeyboardExtension

/// A small everyday keyboard: QWERTY letters with shift, a numbers page, delete, space and return,
/// typing into the field through the proxy. Everything it does on a tap comes from
/// `KeyboardViewController`'s defaults (shift, mode keys, insert, delete).
final class HelloKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        func keys(_ row: String) -> [Key] { row.map { Key.input(String($0)) } }
        let space = Key(code: .space, label: "space", width: 5)
        let enter = Key(code: .return, label: "return", width: 2)
        let delete = Key(code: .delete, label: "⌫", width: 1.5)
        let letters = SubKeyboard(mode: .letters, rows: [
            keys("qwertyuiop"),
            keys("asdfghjkl"),
            [Key(code: .shift, label: "⇧", width: 1.5)] + keys("zxcvbnm") + [delete],
            [Key(code: .modeChange(.numbers), label: "123", width: 1.5), space, enter],
        ])
        let numbers = SubKeyboard(mode: .numbers, rows: [
            keys("1234567890"),
            keys("-/:;()$&@\""),
            keys(".,?!'") + [delete],
            [Key(code: .modeChange(.letters), label: "ABC", width: 1.5), space, enter],
        ])
        return KeyboardConfiguration(license: Self.license, layout: KeyboardLayout(subKeyboards: [letters, numbers]))
    }

    /// Issued by the sample issuer (samples/SampleIssuer: sample-only) to this extension until 2099.
    static let license = LicenseConfiguration(
        licenseKey: "eyJleHBpcmVzIjoiMjA5OS0xMi0zMSIsImV4dGVuc2lvbklkZW50aWZpZXIiOiJkZXYua2Job3N0LnNhbXBsZXMuaGVsbG8iLCJmZWF0dXJlcyI6W10sImlzc3VlciI6IlNhbXBsZSBJc3N1ZXIiLCJpc3N1ZXJLZXkiOiI4YTljYmRhOWFkYzUwNDQ0IiwibGljZW5zZWUiOiJLZXlib2FyZEhvc3Qgc2FtcGxlcyJ9",
        licenseSecret: "4CwfvZq6BcqFzMoQAeUWK2XpUleEnPZlM9qKPBEtEeFI3dNHMYuXqFlrPUc6mDbBShs7dY3GS-z1f4uPdvA3Ag"
    )
}

@_cdecl("kbx_extension_entry")
public func entry() -> UnsafeRawPointer? { HelloKeyboard.export(id: "dev.kbhost.samples.hello", name: "Hello Keyboard", version: "1.0.0") }
