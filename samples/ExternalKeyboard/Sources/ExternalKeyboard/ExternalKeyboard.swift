import KeyboardExtension

/// ExternalKeyboard: letters, a numbers page, shift, delete, space and return. The keys do what
/// `KeyboardViewController.keyTapped(_:)` does by default; override it to do more.
final class ExternalKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(
            // Unlicensed: load it with `kbhost --allow-unlicensed`, or issue a license
            // (`kbhost license issue`) and return it here or hand it with `--license`.
            license: nil,
            layout: .qwerty,
            typing: TypingOptions(autocapitalization: true)
        )
    }
}

@_cdecl("kbx_extension_entry")
public func kbxExtensionEntry() -> UnsafeRawPointer? {
    ExternalKeyboard.export(id: "dev.kbhost.samples.external", name: "ExternalKeyboard", version: "1.0.0")
}
