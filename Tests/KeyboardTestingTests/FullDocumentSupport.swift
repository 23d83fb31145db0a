import KeyboardExtension
import KeyboardTesting

/// A keyboard for walking tests: "a" types, "noop" does nothing but is a key the user taps.
final class WalkerKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [[.input("a"), Key(code: .input, label: "noop"), Key(code: .delete, label: "⌫")]]),
        ]))
    }

    override func keyTapped(_ key: Key) {
        if key.label != "noop" { super.keyTapped(key) }
    }
}

typealias WalkResult<T> = Result<T, FullDocumentContext.Error>

extension KeyboardTestHost {
    var walkerKeyboard: WalkerKeyboard { controller as! WalkerKeyboard }

    /// Starts a walk on the keyboard, as a task of the keyboard's own (the host counts it as the
    /// keyboard's work). The walk's typed error becomes the failure.
    func startWalk<T: Sendable>(
        _ body: @escaping @MainActor (WalkerKeyboard) async throws -> T
    ) -> Task<WalkResult<T>, Never> {
        let keyboard = walkerKeyboard
        return startTask { @MainActor in
            do {
                return .success(try await body(keyboard))
            } catch let error as FullDocumentContext.Error {
                return .failure(error)
            } catch {
                fatalError("a walk threw something other than FullDocumentContext.Error: \(error)")
            }
        }
    }

    /// Runs a walk to its end with the host running, and returns how it ended.
    func walk<T: Sendable>(
        _ body: @escaping @MainActor (WalkerKeyboard) async throws -> T
    ) async -> WalkResult<T> {
        let task = startWalk(body)
        await settle()
        return await task.value
    }
}

/// How many windows `policy` cuts `text` into, walking forward from the start: the yardstick for a
/// read's round trips.
func windowCount(_ text: String, _ policy: ContextPolicy) -> Int {
    var field = TextField(text: text, cursor: 0)
    var count = 0
    var position = 0
    while position < field.count {
        let window = field.contextAfter(policy).count
        position += max(window, 1)
        field.moveCursor(to: position)
        count += 1
    }
    return count
}
