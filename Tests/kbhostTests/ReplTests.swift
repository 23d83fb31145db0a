import Foundation
import Testing
import TestSupport

/// The REPL as a user meets it: the real binary in a real terminal (tmux), typed into, its screen read.
@Suite("kbhost repl, in a terminal")
struct ReplTests {
    private func repl(_ arguments: String, width: Int = 100) throws -> Tmux {
        let hello = try BuildProducts.sample("HelloKeyboard")
        let command = try BuildProducts.kbhost() + " " + arguments.replacingOccurrences(of: "HELLO", with: hello)
        return try Tmux(command, width: width)
    }

    /// The prompt's row, "<keyboard> › <text>": the field as the user sees it (tmux drops trailing
    /// spaces, so an empty field's row ends in "›").
    private func fieldRow(_ screen: String) -> String {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return rows.last { row in
            guard let arrow = row.range(of: " ›") else { return false }
            return arrow.lowerBound > row.startIndex && (row[arrow.upperBound...].isEmpty || row[arrow.upperBound...].hasPrefix(" "))
        } ?? ""
    }

    /// The field's text as shown.
    private func fieldText(_ screen: String) -> String {
        let row = fieldRow(screen)
        guard let arrow = row.range(of: " › ") else { return "" }
        return String(row[arrow.upperBound...])
    }

    @Test func typedKeysTapTheKeyboardDrawnUnderThePrompt() throws {
        let terminal = try repl("HELLO")
        try terminal.waitFor("the keyboard") { $0.contains("return") }
        try terminal.type("Hello")
        let screen = try terminal.waitFor("Hello in the field") { fieldRow($0) == "Hello Keyboard › Hello" }
        let lines = screen.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Hello Keyboard (1/1) · letters · sentence") })
        #expect(lines.contains { $0.contains("q") && $0.contains("w") && $0.contains("p") })
        #expect(lines.contains { $0.contains("123") && $0.contains("space") && $0.contains("return") })
    }

    @Test func thePlatformIsOnTheStatusRowAndItsNotesTooAsTheyHappen() throws {
        // Wayland brings its windows; the status row names both.
        let wayland = try repl("--platform wayland HELLO")
        try wayland.waitFor("the status row") { $0.contains("Hello Keyboard (1/1) · letters · utf8-bytes:4000 · wayland") }
        // Android's backspace takes one UTF-16 unit of 👍🏽: half a pair is left, drawn as U+FFFD, and said.
        let android = try repl("--platform android --text 'a👍🏽' HELLO")
        try android.waitFor("the field") { fieldText($0) == "a👍🏽" }
        try android.press("BSpace")
        let screen = try android.waitFor("half a pair left") { fieldText($0) == "a👍\u{FFFD}" }
        #expect(screen.contains("· android"))
        #expect(screen.contains("deleteBackward() deleted the last UTF-16 unit"))
    }

    @Test func cursorKeysAreTheUserActingInTheField() throws {
        let terminal = try repl("HELLO")
        try terminal.type("Hello")
        try terminal.waitFor("Hello") { fieldRow($0).hasSuffix("› Hello") }
        try terminal.press("Left", "Left")
        try terminal.type("x")
        try terminal.waitFor("x inserted at the cursor") { fieldRow($0).hasSuffix("› Helxlo") }
        try terminal.press("BSpace", "Home")
        try terminal.type("a")
        try terminal.waitFor("a at the start") { fieldRow($0).hasSuffix("› aHello") }
    }

    @Test func settingsChangeHowTheKeyboardTypesAndLooks() throws {
        // Autocapitalization on: lower-case letters tap the keys as they are, and the keyboard's shift
        // makes the capitals; an upper-case letter mid-word still taps shift. Capital labels, no colour.
        let terminal = try repl(
            "HELLO --set typing.autocapitalization=true --set appearance.showsLowercaseKeys=false --set appearance.theme=plain"
        )
        try terminal.waitFor("the keyboard, capital labels, shift on") { $0.contains("[   Q    ]") && $0.contains("⇧•") && $0.contains("· shift ·") }
        try terminal.type("hi. yes iPhone. ok")
        try terminal.waitFor("the capitals autocapitalization made") { fieldRow($0).hasSuffix("› Hi. Yes iPhone. Ok") }
    }

    @Test func digitsAndCapitalsUseTheNumbersPageAndShift() throws {
        let terminal = try repl("HELLO")
        try terminal.type("Hi 42")
        let screen = try terminal.waitFor("Hi 42") { fieldRow($0).hasSuffix("› Hi 42") }
        #expect(screen.contains("· numbers ·"))
    }

    @Test func enterSubmitsAndANewLineBegins() throws {
        let terminal = try repl("HELLO")
        try terminal.type("first")
        try terminal.waitFor("first") { fieldRow($0).hasSuffix("› first") }
        try terminal.press("Enter")
        let screen = try terminal.waitFor("the submission above an empty field") { $0.contains("› first\n") && fieldText($0) == "" }
        #expect(!fieldRow(screen).contains("first"))
    }

    @Test func aWalkShowsItsProgressAndTypingEndsIt() throws {
        let text = String(repeating: "One. Two. ", count: 12)
        let terminal = try repl("--latency 150 --text '\(text)' HELLO")
        try terminal.waitFor("the field") { fieldRow($0).contains("One. Two.") }
        try terminal.press("C-x", "r")
        // Type only once the walk has taken a step: before that, the read would rightly include the z.
        try terminal.waitFor("the walk's progress") { $0.contains("read-full-document… ") && !$0.contains("… 0 round trips") }
        try terminal.type("z")
        // The walk ends at once; the z (after the caret is put back) lands after the 150 ms latency.
        try terminal.waitFor("userCancelled, and the z where the caret was") {
            $0.contains("read-full-document: userCancelled") && fieldRow($0).hasSuffix("Two. z")
        }
    }

    @Test func aWalkReadsTheWholeDocument() throws {
        let terminal = try repl("--text 'One. Two. Three.' HELLO")
        try terminal.waitFor("the field") { fieldRow($0).contains("Three.") }
        try terminal.press("Home", "C-x", "r")
        try terminal.waitFor("the read's summary") { $0.contains("read 16 characters (0 before, 16 after the cursor)") }
        try terminal.press("C-x", "d")
        let screen = try terminal.waitFor("the delete's summary") { $0.contains("deleted 16 characters") }
        #expect(fieldText(screen) == "")
    }

    @Test func theGlobeCommandSwitchesKeyboardsOnTheSameField() throws {
        let other = try CFixture.build("cKeyboard")
        // The C keyboard carries no license: a development run.
        let terminal = try repl("--allow-unlicensed HELLO \(other)")
        try terminal.type("ab")
        try terminal.waitFor("ab") { fieldRow($0).hasSuffix("› ab") }
        try terminal.press("C-x", "n")
        let screen = try terminal.waitFor("the C keyboard") { fieldRow($0).hasPrefix("C Keyboard › ab") }
        #expect(screen.contains("C Keyboard (2/2)"))
        try terminal.type("b")
        try terminal.waitFor("b typed by the C keyboard") { fieldRow($0).hasSuffix("› abb") }
    }

    @Test func theInspectorShowsWhatTheProxySees() throws {
        let terminal = try repl("--text 'One. Two three' HELLO")
        try terminal.waitFor("the field") { fieldRow($0).contains("three") }
        try terminal.press("C-x", "i")
        let screen = try terminal.waitFor("the inspector") { $0.contains("proxy inspector") }
        #expect(screen.contains("documentContextBeforeInput \" Two three\""))
        #expect(screen.contains("policy                     sentence"))
    }

    @Test func ctrlCClearsTheLineAndCtrlDExitsCleanly() throws {
        let terminal = try repl("HELLO")
        try terminal.type("abc")
        try terminal.waitFor("abc") { fieldRow($0).hasSuffix("› abc") }
        try terminal.press("C-c")
        try terminal.waitFor("an empty line") { $0.contains("line cleared") && fieldText($0) == "" }
        // C-c is the host's: the keyboard (in a process of its own) neither got nor died of it.
        try terminal.type("d")
        let after = try terminal.waitFor("d typed through the keyboard") { fieldRow($0).hasSuffix("› d") }
        #expect(after.contains("· letters ·") && !after.contains("plain keyboard"))
        try terminal.press("BSpace")
        try terminal.waitFor("an empty line again") { fieldText($0) == "" && !$0.contains("› d") }
        try terminal.press("C-d")
        let screen = try terminal.waitFor("the exit") { $0.contains("EXIT=0") }
        // The keyboard is gone: the terminal is left with the last line and the shell's output.
        #expect(!screen.contains("space"))
    }

    @Test func aSecureFieldShowsDotsAndKeepsNothing() throws {
        let terminal = try repl("--secure HELLO")
        try terminal.type("1234")
        try terminal.waitFor("four dots") { fieldRow($0).hasSuffix("› ⬤⬤⬤⬤") }
        try terminal.press("Enter")
        try terminal.waitFor("the masked submission") { $0.contains("› ⬤⬤⬤⬤\n") && fieldText($0) == "" }
        try terminal.press("Up")  // no history
        let screen = try terminal.waitFor("still empty") { fieldText($0) == "" && $0.contains("secure") }
        #expect(!screen.contains("1234"))
    }

    @Test func theKeyboardIsRedrawnWhenTheTerminalIsResized() throws {
        let terminal = try repl("HELLO", width: 100)
        let wide = try terminal.waitFor("the keyboard") { $0.contains("return") }
        let widest = wide.split(separator: "\n").map(\.count).max() ?? 0
        try terminal.resize(width: 60, height: 30)  // SIGWINCH: the REPL redraws by itself
        // Whole: a screen caught in the middle of the redraw has the lower rows and not yet the top one.
        let narrow = try terminal.waitFor("a narrower keyboard, drawn whole") { screen in
            screen.contains("return") && screen.contains("q") && screen.split(separator: "\n").allSatisfy { $0.count <= 60 }
        }
        #expect(widest > 60)
        #expect(narrow.contains("w"))
    }

    @Test func moreKeysAndCommands() throws {
        let terminal = try repl("--text 'abc' HELLO")
        try terminal.waitFor("abc") { fieldText($0) == "abc" }
        // A key the keyboard does not have, typed as UTF-8: said on the status row, nothing typed.
        try terminal.type("é")
        try terminal.waitFor("the message") { $0.contains("Hello Keyboard has no key for \"é\"") && fieldText($0) == "abc" }
        // C-t swaps the Characters around the caret; Delete deletes forward.
        try terminal.press("Left", "C-t")
        try terminal.waitFor("acb") { fieldText($0) == "acb" }
        try terminal.press("Home", "DC")
        try terminal.waitFor("cb") { fieldText($0) == "cb" }
        // C-x p cycles the context policy; C-x e and C-x b move to the ends through the keyboard.
        try terminal.press("C-x", "p")
        try terminal.waitFor("paragraph") { $0.contains("context policy: paragraph") && $0.contains("· paragraph │") }
        try terminal.press("C-x", "e")
        try terminal.waitFor("moved to the end") { $0.contains("move-to-end in 1 round trip") }
        try terminal.type("x")
        try terminal.waitFor("x at the end") { fieldText($0) == "cbx" }
        try terminal.press("C-x", "b")
        try terminal.waitFor("moved to the beginning, in the singular") { $0.contains("move-to-beginning in 1 round trip") && !$0.contains("1 round trips") }
        try terminal.type("y")
        try terminal.waitFor("y at the start") { fieldText($0) == "ycbx" }
    }

    @Test func aLineLongerThanTheTerminalScrollsToKeepTheCursorInView() throws {
        let text = (1...30).map { "w\($0)" }.joined(separator: " ")  // 110 characters
        let terminal = try repl("--text '\(text)' HELLO", width: 60)
        try terminal.waitFor("the end of the line") { fieldText($0).hasSuffix("w29 w30") }
        try terminal.press("Home")
        let screen = try terminal.waitFor("the start of the line") { fieldText($0).hasPrefix("w1 w2 w3") }
        #expect(!fieldText(screen).contains("w30"))
        #expect(fieldRow(screen).count <= 59)
    }

    /// A document of several lines is drawn a row per line around the cursor's, with how many are out
    /// of sight, and never more than once (it was drawn again on every key, over the status row).
    @Test func aDocumentOfSeveralLinesIsDrawnARowPerLineAndScrolls() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data((1...40).map { "line \($0)" }.joined(separator: "\n").utf8).write(to: file)
        let terminal = try repl("--document \(file.path) HELLO")
        var screen = try terminal.waitFor("the last eight lines, the first of them on the prompt's row") {
            $0.contains("Hello Keyboard › line 33\n") && $0.contains("↑32 line 34\n") && $0.contains(" line 40\n")
        }
        #expect(screen.components(separatedBy: "Hello Keyboard › ").count == 2)
        #expect(screen.contains("Hello Keyboard (1/1) · letters · sentence"))
        try terminal.type("x")
        try terminal.waitFor("x at the end of the last line") { $0.contains(" line 40x\n") }
        // Up moves a line up, to the same column or its line's end; Home to its line's start.
        try terminal.press("Up", "Up", "Up")
        try terminal.type("y")
        try terminal.waitFor("y on line 37") { $0.contains(" line 37y\n") }
        try terminal.press("Home")
        try terminal.type("z")
        screen = try terminal.waitFor("z at the start of line 37") { $0.contains(" zline 37y\n") }
        #expect(screen.components(separatedBy: "Hello Keyboard › ").count == 2)
        // At the first line, the rows scroll to it and say how many are below.
        for _ in 0..<40 { try terminal.press("Up") }
        try terminal.type("w")
        try terminal.waitFor("the first lines, and how many below") {
            $0.contains("Hello Keyboard › lwine 1\n") && $0.contains("↓32 line 8\n")  // column 1, as on line 37
        }
    }

    @Test func aTwoLineTextIsDrawnOnceAndEditedInPlace() throws {
        let terminal = try repl("--text $'first line\\nsecond line' HELLO")
        try terminal.waitFor("two rows") { $0.contains("Hello Keyboard › first line\n") && $0.contains(" second line\n") }
        try terminal.type("ab")
        let screen = try terminal.waitFor("ab at the end") { $0.contains(" second lineab\n") }
        #expect(screen.components(separatedBy: "Hello Keyboard › ").count == 2)
        #expect(screen.contains("Hello Keyboard › first line\n"))
    }

    /// C-x r prints what the read returned above the field (where the terminal keeps it), with a
    /// mark where the cursor was.
    @Test func aReadPrintsTheTextItRead() throws {
        let terminal = try repl("--text $'Hello there.\\nSecond line.\\nthird' HELLO")
        try terminal.waitFor("the field") { $0.contains(" third\n") }
        try terminal.press("Up")
        try terminal.press("C-x", "r")
        // Up from the end of "third" is column 5 of the line above.
        try terminal.waitFor("the read's summary") { $0.contains("read 31 characters (18 before, 13 after the cursor)") }
        let printed = try terminal.screenAndScrollback()
        #expect(printed.contains(" round trips:\n  Hello there.\n  Secon│d line.\n  third\n"), "\(printed)")
    }

    /// A key that shows a character but types none (here ▶, an action that adds an acute accent) is
    /// tapped by typing the character.
    @Test func aKeyIsTappedByTheCharacterItShows() throws {
        let json = #"{\"layout\":{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":[[{\"code\":\"input\",\"label\":\"a\"},{\"code\":\"input\",\"label\":\"b\"},{\"code\":\"action:accent\",\"label\":\"▶\"},{\"code\":\"delete\",\"label\":\"del\"}]]}]}}"#
        let path = try CFixture.build("playKey", defines: ["FIXTURE_CONFIGURATION=\"\(json)\""])
        let terminal = try Tmux(try BuildProducts.kbhost() + " --allow-unlicensed \(path)", width: 80)
        try terminal.waitFor("the keys") { $0.contains("▶") }
        try terminal.type("a▶")
        try terminal.waitFor("the accent the ▶ key adds") { fieldText($0) == "a\u{301}" }
    }

    /// The inspector fits an 80 × 24 terminal with the field and the keyboard, and names the page as
    /// the status row does.
    @Test func theInspectorFitsAndNamesThePage() throws {
        let hello = try BuildProducts.sample("HelloKeyboard")
        let terminal = try Tmux(try BuildProducts.kbhost() + " \(hello) --text 'One. Two 3'", width: 80, height: 24)
        try terminal.waitFor("the field") { fieldText($0) == "One. Two 3" }
        try terminal.type("4")
        try terminal.waitFor("the numbers page") { $0.contains("· numbers ·") }
        try terminal.press("C-x", "i")
        let screen = try terminal.waitFor("the inspector above the field") { $0.contains("proxy inspector: ") && fieldRow($0).hasSuffix("› One. Two 34") }
        #expect(screen.contains("keyboard                   numbers (sub-keyboard 1), shift off"))
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(fieldRow(screen) == "Hello Keyboard › One. Two 34")
    }

    /// A status row cut to the terminal's width says so with an ellipsis.
    @Test func aCutStatusRowEndsInAnEllipsis() throws {
        let terminal = try repl("HELLO", width: 40)
        let screen = try terminal.waitFor("the status row") { $0.contains("Hello Keyboard (1/1)") }
        let row = try #require(screen.split(separator: "\n").first { $0.hasPrefix("Hello Keyboard (1/1)") })
        #expect(row.hasSuffix("…"), "\(row)")
        #expect(row.count <= 39)
    }

    @Test func theKeyboardCanBeHidden() throws {
        let terminal = try repl("--hide-keyboard HELLO")
        try terminal.type("ok")
        let screen = try terminal.waitFor("ok") { fieldText($0) == "ok" && $0.contains("(1/1)") }
        #expect(!screen.contains("return"))
        try terminal.press("C-x", "k")
        try terminal.waitFor("the keyboard shown") { $0.contains("return") }
    }

    @Test func sigtermEndsTheREPLAndLeavesTheTerminalClean() throws {
        let terminal = try repl("HELLO")
        try terminal.type("bye")
        try terminal.waitFor("bye") { fieldText($0) == "bye" }
        _ = try Command.run("/usr/bin/env", ["pkill", "-TERM", "-P", "\(try terminal.panePID())", "kbhost"])
        let screen = try terminal.waitFor("the exit") { $0.contains("EXIT=143") }
        #expect(!screen.contains("space"))
        #expect(screen.contains("Hello Keyboard › bye"))
    }

    @Test func aBadExtensionIsReportedAndTheOthersLoad() throws {
        let terminal = try repl("/nonexistent/libNo.so HELLO")
        let screen = try terminal.waitFor("the REPL") { $0.contains("return") }
        #expect(screen.contains("kbhost: error: cannot load extension '/nonexistent/libNo.so': no such file"))
        #expect(screen.contains("Hello Keyboard (1/1)"))
    }
}

@Suite("kbhost repl, without a terminal")
struct PipedReplTests {
    @Test func pipedLinesAreTypedAndTheirSubmissionsPrinted() throws {
        let result = try Command.run(try BuildProducts.kbhost(), [try BuildProducts.sample("HelloKeyboard")],
                                     input: "Hello world\nline 2\n")
        #expect(result.status == 0)
        #expect(result.standardOutput == "Hello world\nline 2\n")
        #expect(result.standardError == "")
    }

    @Test func charactersWithoutAKeyAreReportedWithTheirPlace() throws {
        let result = try Command.run(try BuildProducts.kbhost(), ["repl", try BuildProducts.sample("HelloKeyboard")],
                                     input: "ok\nno ~ here\n")
        // As `kbhost run` with the same text: bad input, 64; the rest of the line is still typed.
        #expect(result.status == 64)
        #expect(result.standardOutput == "ok\nno  here\n")
        #expect(result.standardError == "kbhost: error: line 2, character 4: Hello Keyboard has no key that types \"~\"; skipped\n")
    }

    /// The REPL traces too; a secure field's text reaches the trace as dots only.
    @Test func theReplTracesAndASecureFieldsTextStaysOutOfTheTrace() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let plain = try Command.run(try BuildProducts.kbhost(), [try BuildProducts.sample("HelloKeyboard"), "--trace", file], input: "hey\n")
        #expect(plain.status == 0)
        var trace = try String(contentsOfFile: file, encoding: .utf8)
        #expect(trace.contains(#""text":"y""#) && trace.contains(#""before":"hey""#))
        let secure = try Command.run(try BuildProducts.kbhost(), [try BuildProducts.sample("HelloKeyboard"), "--secure", "--trace", file], input: "hey\n")
        #expect(secure.status == 0)
        trace = try String(contentsOfFile: file, encoding: .utf8)
        #expect(trace.contains(#""text":"⬤""#) && trace.contains(#""before":"⬤⬤⬤""#))
        #expect(!trace.contains("hey") && !trace.contains(#""text":"y""#))
    }

    @Test func anExtensionCanAskForASecureField() throws {
        let json = #"{\"requestsSecureEntry\":true,\"layout\":{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":[[{\"code\":\"input\",\"label\":\"a\"},{\"code\":\"input\",\"label\":\"b\"}]]}]}}"#
        let path = try CFixture.build("secureRequested", defines: ["FIXTURE_CONFIGURATION=\"\(json)\""])
        let result = try Command.run(try BuildProducts.kbhost(), [path, "--allow-unlicensed"], input: "ab\n")
        #expect(result.standardOutput == "⬤⬤\n")
    }

    @Test func aDocumentFileSeedsTheFieldUnderTheSameLimitAsRun() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("repl-\(UUID()).txt")
        try Data("Dear 👩‍👩‍👧,\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let hello = try BuildProducts.sample("HelloKeyboard")
        // The first line is typed after the document (the cursor at its end); the next into a new one.
        let seeded = try Command.run(try BuildProducts.kbhost(), ["repl", hello, "--document", file.path], input: "hi\nok\n")
        #expect(seeded.status == 0, "\(seeded.standardError)")
        #expect(seeded.standardOutput == "Dear 👩‍👩‍👧,\nhi\nok\n")
        let both = try Command.run(try BuildProducts.kbhost(), ["repl", hello, "--document", file.path, "--text", "x"], input: "")
        #expect(both.status == 64)
        #expect(both.standardError.contains("give the document either with --text or with --document, not both"))
        let large = FileManager.default.temporaryDirectory.appendingPathComponent("repl-large-\(UUID()).txt")
        try Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1).write(to: large)
        defer { try? FileManager.default.removeItem(at: large) }
        let refused = try Command.run(try BuildProducts.kbhost(), ["repl", hello, "--document", large.path, "--document-limit", "1"], input: "")
        #expect(refused.status == 64)
        #expect(refused.standardError == "kbhost: error: --document: '\(large.path)' is 1.0 MiB, more than the 1 MiB allowed: raise --document-limit to read it\n")
    }

    @Test func noExtensionThatLoadsIsALoadFailure() throws {
        let result = try Command.run(try BuildProducts.kbhost(), ["/nonexistent/a.so"], input: "")
        #expect(result.status == 69)
        #expect(result.standardError == "kbhost: error: cannot load extension '/nonexistent/a.so': no such file\n")
    }
}
