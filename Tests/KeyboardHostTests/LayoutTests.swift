import Foundation
import KeyboardHost
import PropertyBased
import Testing

@Suite("Layouts: built-in, as files, checked")
struct LayoutTests {
    @Test func qwertyTypesTextOnAllThreePages() {
        // Plan "Hi, #1!" tap by tap, following the state the SDK's default keys would produce.
        let layout = KeyboardLayout.qwerty
        #expect(layout.subKeyboards.map(\.mode) == [.letters, .numbers, .symbols])
        for character in "Hi, #1!" {
            #expect(KeyPlanner.taps(for: .character(character), layout: layout, state: KeyboardState()) != nil
                || KeyPlanner.taps(for: .character(character), layout: layout, state: KeyboardState(subKeyboard: 1)) != nil,
                "\(character)")
        }
        #expect(KeyPlanner.taps(for: .character("#"), layout: layout, state: KeyboardState(subKeyboard: 2)) != nil)
        #expect(layout.problem(for: .text) == nil)
    }

    @Test func theNumericPadIsForDigitsAndUsedByPosition() {
        let pad = KeyboardLayout.numericPad
        #expect(pad.problem(for: .digits) == nil)
        #expect(pad.subKeyboards[0].tapByPosition)
        #expect(KeyPlanner.taps(for: .character("0"), layout: pad, state: KeyboardState()) == [KeyPosition(subKeyboard: 0, row: 3, column: 1)])
    }

    @Test(arguments: [InputType.digits, .decimal, .phone, .chinaIDCard])
    func aLayoutIsCheckedAgainstItsInputType(_ inputType: InputType) {
        #expect(KeyboardLayout.qwerty.problem(for: inputType)?.hasPrefix("subKeyboards[0].rows[0][0]: \"q\" is not allowed for input type \(inputType.rawValue)") == true)
        #expect(KeyboardLayout.numericPad.problem(for: inputType) == nil)
    }

    @Test func chinaIDCardTakesX() {
        let layout = KeyboardLayout(subKeyboards: [SubKeyboard(mode: .numbers, rows: [[.input("1"), .input("X")]])])
        #expect(layout.problem(for: .chinaIDCard) == nil)
        #expect(layout.problem(for: .digits) == "subKeyboards[0].rows[0][1]: \"X\" is not allowed for input type digits (expected 0-9)")
    }

    @Test(arguments: [KeyboardLayout.qwerty, .numericPad])
    func builtInsRoundTripThroughJSON(_ layout: KeyboardLayout) throws {
        #expect(try KeyboardLayout(json: try layout.json()) == layout)
    }

    @Test func geometryFromAFile() throws {
        let json = #"""
        {"subKeyboards": [{"mode": "letters", "horizontalGap": 0.2, "verticalGap": 0.1,
          "margins": {"left": {"fraction": 0.05}, "top": {"absolute": 0.5}},
          "rows": [[{"code": "input", "label": "a", "width": 2, "height": 1.2, "leftPadding": 0.5}]]}]}
        """#
        let layout = try KeyboardLayout(json: Data(json.utf8))
        let key = layout.subKeyboards[0].rows[0][0]
        #expect((key.width, key.height, key.leftPadding) == (2, 1.2, 0.5))
        #expect(layout.subKeyboards[0].margins.left == .fraction(0.05))
        #expect(layout.subKeyboards[0].margins.left.units(of: 10) == 0.5)
        #expect(layout.subKeyboards[0].margins.top == .absolute(0.5))
        #expect(layout.subKeyboards[0].horizontalGap == 0.2)
    }

    @Test(arguments: [
        (#"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "input", "label": "a", "colour": 1}]]}]}"#,
         "subKeyboards[0].rows[0][0].colour: unknown key (expected code, label, output, width, height, leftPadding, callouts)"),
        (#"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "input", "label": "a", "width": -1}]]}]}"#,
         "subKeyboards[0].rows[0][0].width: expected a number above 0"),
        (#"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "inptu", "label": "a"}]]}]}"#,
         "subKeyboards[0].rows[0][0].code: unknown key code 'inptu'"),
        (#"{"subKeyboards": [{"mode": "emoji", "rows": []}]}"#, "subKeyboards[0].mode: "),
        (#"{"subKeyboards": [{"mode": "letters", "rows": [], "margins": {"left": {"fraction": 0.1, "absolute": 2}}}]}"#,
         "subKeyboards[0].margins.left: expected either {\"fraction\": x} or {\"absolute\": x}"),
        (#"{"subKeyboards": [{"mode": "letters", "rows": [], "margins": {"left": {"fraction": 0.7}}}]}"#,
         "subKeyboards[0].margins.left.fraction: expected a fraction from 0 to below 0.5"),
        (#"{"subKeyboards": []}"#, "subKeyboards: expected at least one sub-keyboard"),
        (#"{"rows": []}"#, "rows: unknown key (expected subKeyboards, secure)"),
        ("not json", "line 1, column 1: expected a value, found 'n'"),
    ])
    func fileErrorsNameTheFieldAndWhatWasExpected(_ json: String, _ problem: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID()).json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try KeyboardLayout(contentsOfFile: path)
            Issue.record("\(json) should be refused")
        } catch {
            #expect(error.description.hasPrefix("layout '\(path)': \(problem)"), "\(error)")
        }
    }

    @Test func aMissingFile() {
        #expect(throws: LayoutFileError.unreadable(path: "/nonexistent/l.json", reason: "no such file")) {
            try KeyboardLayout(contentsOfFile: "/nonexistent/l.json")
        }
    }

    @Test func arbitraryBytesAreRefusedNeverFatal() async {
        await propertyCheck(count: 500, input: Gen.uint8().array(of: 0...400)) { bytes in
            #expect(throws: LayoutFileError.self) { try KeyboardLayout(json: Data(bytes)) }
        }
    }

    @Test func mutatedLayoutsDecodeOrFailWithAnErrorNeverFatal() async throws {
        let valid = Array(try KeyboardLayout.qwerty.json())
        await propertyCheck(count: 500, input: Gen.int(in: 0...(valid.count - 1)), Gen.uint8(), Gen.int(in: 0...2)) { index, byte, kind in
            var bytes = valid
            switch kind {
            case 0: bytes[index] = byte
            case 1: bytes.remove(at: index)
            default: bytes.insert(byte, at: index)
            }
            do throws(LayoutFileError) {
                let layout = try KeyboardLayout(json: Data(bytes))
                _ = layout.problem(for: .digits)  // and a decoded layout can be checked
            } catch {
                #expect(error.description.hasPrefix("layout 'layout': "))
            }
        }
    }
}

/// A seeded generator, so a shuffle can be reproduced in a test (production uses the system's
/// cryptographic source).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Shuffling")
struct ShuffleTests {
    private func inputs(_ keyboard: SubKeyboard) -> [String] {
        keyboard.rows.flatMap { $0 }.filter { $0.code == .input }.map(\.label)
    }

    @Test func anEverydayLayoutDoesNotShuffle() {
        var random = SplitMix64(state: 1)
        #expect(!KeyboardLayout.qwerty.shuffles)
        #expect(KeyboardLayout.qwerty.shuffled(using: &random) == .qwerty)
    }

    @Test func secureDefaultsLettersStayNumbersAndSymbolsMove() {
        var random = SplitMix64(state: 1)
        var secure = KeyboardLayout.qwerty
        secure.secure = true
        let shuffled = secure.shuffled(using: &random)
        #expect(shuffled.subKeyboards[0] == KeyboardLayout.qwerty.subKeyboards[0])
        for page in 1...2 {
            let before = KeyboardLayout.qwerty.subKeyboards[page], after = shuffled.subKeyboards[page]
            #expect(inputs(after) != inputs(before))
            #expect(inputs(after).sorted() == inputs(before).sorted())
            // Only input keys move; every other key, and every position's geometry, stays.
            for (row, keys) in before.rows.enumerated() {
                for (column, key) in keys.enumerated() {
                    let moved = after.rows[row][column]
                    #expect((moved.width, moved.height, moved.leftPadding) == (key.width, key.height, key.leftPadding))
                    if key.code != .input { #expect(moved == key) }
                }
            }
        }
    }

    @Test func valuesShuffleOnTheirOwn() {
        let pad = SubKeyboard(mode: .numbers, rows: [["1", "2", "3", "4", "5", "6"].map { Key.input($0) }], shuffle: Shuffle(keys: false, values: true))
        var random = SplitMix64(state: 7)
        let shuffled = KeyboardLayout(subKeyboards: [pad]).shuffled(using: &random).subKeyboards[0]
        #expect(inputs(shuffled) == ["1", "2", "3", "4", "5", "6"])  // the labels stay
        let values = shuffled.rows[0].map { $0.typedText! }
        #expect(values.sorted() == ["1", "2", "3", "4", "5", "6"])
        #expect(values != ["1", "2", "3", "4", "5", "6"])  // but they type other digits
    }

    @Test func aShuffleThatIsOffChangesNothing() {
        // A secure layout, whose numbers would shuffle by default: the page's own "off" wins.
        let pad = SubKeyboard(mode: .numbers, rows: [["1", "2", "3"].map { Key.input($0) }], shuffle: Shuffle.none)
        var random = SplitMix64(state: 3)
        #expect(KeyboardLayout(subKeyboards: [pad], secure: true).shuffled(using: &random).subKeyboards[0] == pad)
    }

    @Test func theShuffleSettingIsReadFromFiles() throws {
        let json = ##"{"secure": true, "subKeyboards": [{"mode": "numbers", "shuffle": {"keys": false, "values": true}, "rows": [[{"code": "input", "label": "1"}]]}, {"mode": "symbols", "rows": [[{"code": "input", "label": "#"}]]}]}"##
        let layout = try KeyboardLayout(json: Data(json.utf8))
        #expect(layout.shuffle(of: 0) == Shuffle(keys: false, values: true))
        #expect(layout.shuffle(of: 1) == Shuffle(keys: true, values: false))  // the secure default for symbols
    }

    /// A page's keys in reading order, and the first that matches: what the planner, the REPL's picker
    /// and the test host search with. A page that does not exist has none.
    @Test func keysAreFoundOnAPageInReadingOrder() {
        let layout = KeyboardLayout(subKeyboards: [
            SubKeyboard(mode: .letters, rows: [[.input("a"), .input("b")], [.input("c"), Key(code: .delete, label: "⌫")]]),
            SubKeyboard(mode: .numbers, rows: [[.input("1")]]),
        ])
        #expect(layout.keys(onPage: 0).map(\.key.label) == ["a", "b", "c", "⌫"])
        #expect(layout.keys(onPage: 0).map(\.position) == [
            KeyPosition(subKeyboard: 0, row: 0, column: 0), KeyPosition(subKeyboard: 0, row: 0, column: 1),
            KeyPosition(subKeyboard: 0, row: 1, column: 0), KeyPosition(subKeyboard: 0, row: 1, column: 1),
        ])
        #expect(layout.firstPosition(onPage: 0) { $0.code == .delete } == KeyPosition(subKeyboard: 0, row: 1, column: 1))
        #expect(layout.firstPosition(onPage: 1) { $0.label == "a" } == nil)
        #expect(layout.firstPosition(onPage: 7) { _ in true } == nil)
        #expect(layout.keys(onPage: -1).isEmpty)
    }
}
