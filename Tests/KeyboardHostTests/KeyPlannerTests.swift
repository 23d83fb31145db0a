import KeyboardHost
import Testing

@Suite("Planning taps")
struct KeyPlannerTests {
    private let letters = SubKeyboard(mode: .letters, rows: [
        [.input("a"), .input("b")],
        [Key(code: .shift, label: "⇧"), Key(code: .modeChange(.numbers), label: "123"), Key(code: .delete, label: "⌫")],
    ])

    private func position(_ sub: Int, _ row: Int, _ column: Int) -> KeyPosition {
        KeyPosition(subKeyboard: sub, row: row, column: column)
    }

    @Test func aShuffledPadIsUsedByPosition() {
        // Labels shuffled; "1" means the top-left key, whatever it shows.
        let pad = SubKeyboard(mode: .numbers, rows: [
            ["7", "3", "9"].map { Key.input($0) }, ["1", "0", "5"].map { Key.input($0) },
            ["8", "2", "6"].map { Key.input($0) }, [Key(code: .delete, label: "⌫"), .input("4"), Key(code: .done, label: "OK")],
        ], tapByPosition: true)
        let layout = KeyboardLayout(subKeyboards: [pad])
        #expect(KeyPlanner.taps(for: .character("1"), layout: layout, state: KeyboardState()) == [position(0, 0, 0)])
        #expect(KeyPlanner.taps(for: .character("6"), layout: layout, state: KeyboardState()) == [position(0, 1, 2)])
        #expect(KeyPlanner.taps(for: .character("0"), layout: layout, state: KeyboardState()) == [position(0, 3, 1)])
        // Named keys are found by what they do.
        #expect(KeyPlanner.taps(for: .key(.delete), layout: layout, state: KeyboardState()) == [position(0, 3, 0)])
    }

    @Test func byLabelUnlessTheLayoutAsks() {
        let pad = SubKeyboard(mode: .numbers, rows: [["7", "1"].map { Key.input($0) }])
        let layout = KeyboardLayout(subKeyboards: [pad])
        #expect(KeyPlanner.taps(for: .character("1"), layout: layout, state: KeyboardState()) == [position(0, 0, 1)])
    }

    @Test func capitalsTapShiftFirstAndLowerCaseUnderShiftTapsItOff() {
        let layout = KeyboardLayout(subKeyboards: [letters])
        #expect(KeyPlanner.taps(for: .character("A"), layout: layout, state: KeyboardState()) == [position(0, 1, 0), position(0, 0, 0)])
        #expect(KeyPlanner.taps(for: .character("A"), layout: layout, state: KeyboardState(shift: .capsLock)) == [position(0, 0, 0)])
        // Shift on -> caps lock -> off: two taps to type a lower-case letter.
        #expect(KeyPlanner.taps(for: .character("a"), layout: layout, state: KeyboardState(shift: .on))
            == [position(0, 1, 0), position(0, 1, 0), position(0, 0, 0)])
    }

    @Test func anotherPageIsReachedByItsModeKey() {
        let numbers = SubKeyboard(mode: .numbers, rows: [[.input("1")], [Key(code: .modeChange(.letters), label: "ABC")]])
        let layout = KeyboardLayout(subKeyboards: [letters, numbers])
        #expect(KeyPlanner.taps(for: .character("1"), layout: layout, state: KeyboardState()) == [position(0, 1, 1), position(1, 0, 0)])
        #expect(KeyPlanner.taps(for: .character("B"), layout: layout, state: KeyboardState(subKeyboard: 1))
            == [position(1, 1, 0), position(0, 1, 0), position(0, 0, 1)])
        #expect(KeyPlanner.taps(for: .character("~"), layout: layout, state: KeyboardState()) == nil)
    }

    @Test func aPageTwoModeKeysAwayIsReachedThroughTheOneBetween() throws {
        // QWERTY: '#' is on symbols, reached from letters through numbers ("123", then "#+=").
        let layout = KeyboardLayout.qwerty
        let taps = try #require(KeyPlanner.taps(for: .character("#"), layout: layout, state: KeyboardState()))
        #expect(taps.count == 3)
        #expect(layout.key(at: taps[0])?.code == .modeChange(.numbers))
        #expect(layout.key(at: taps[1])?.code == .modeChange(.symbols))
        #expect(layout.key(at: taps[2])?.typedText == "#")
        // '1' is one mode key away, not two.
        #expect(KeyPlanner.taps(for: .character("1"), layout: layout, state: KeyboardState())?.count == 2)
    }
}
