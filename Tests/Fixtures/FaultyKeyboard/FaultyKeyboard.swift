import KeyboardExtension

/// A test fixture, not a sample: a Swift keyboard that fails the ways Swift code fails, one key each,
/// so the isolation tests see what a real Swift crash looks like from the host (the C fixture,
/// Tests/KeyboardHostTests/Fixtures/c_extension.c, covers what only C can do to the wire).
///
/// Keys: letters type; "F" calls fatalError; "U" unwraps a nil; "I" indexes past an array's end;
/// "T" calls fatalError in a task after the tap has returned; "H" never returns.
final class FaultyKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        let row = ["a", "b", "F", "U", "I", "T", "H"].map { Key.input($0) }
        return KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [row])]))
    }

    private var nothing: String?
    private var few = [1, 2, 3]

    override func keyTapped(_ key: Key) {
        switch key.label {
        case "F": fatalError("FaultyKeyboard gave up on F")
        case "U": textDocumentProxy.insertText(nothing!)
        case "I": textDocumentProxy.insertText("\(few[few.count + Int(key.label.count)])")
        case "T": Task { @MainActor in fatalError("FaultyKeyboard gave up later, in a task") }
        case "H": while few.count > 0 { few[0] &+= 1 }
        default: super.keyTapped(key)
        }
    }
}

@_cdecl("kbx_extension_entry")
public func entry() -> UnsafeRawPointer? { FaultyKeyboard.export(id: "dev.kbhost.tests.faulty", name: "Faulty Keyboard", version: "1.0.0") }
