import Foundation
import Testing
import TestSupport

/// The samples through `kbhost`, as a user runs them: batch runs, piped lines, the REPL in a terminal.
@Suite("kbhost with the samples")
struct SamplesCommandTests {
    private let data = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-samples-\(UUID())")

    private func kbhost(_ arguments: [String], input: String? = nil) throws -> Command.Result {
        try Command.run(try BuildProducts.kbhost(), arguments, input: input)
    }

    private struct Output: Decodable {
        struct Event: Decodable, Equatable { let name: String; let details: [String: String] }
        let document: String
        let events: [Event]
    }

    private func passcode(_ keys: String) throws -> (Command.Result, Output) {
        let result = try kbhost([
            "run", try BuildProducts.sample("SecurePasscodeKeyboard"), "--data-dir", data.path,
            "--set", "options.shuffle=false", "--set", "options.scryptCost=10", "--type", keys,
        ])
        guard let output = try? JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8)) else {
            throw NoJSON(status: result.status, standardError: result.standardError)
        }
        return (result, output)
    }

    struct NoJSON: Error, CustomStringConvertible {
        let status: Int32
        let standardError: String
        var description: String { "kbhost printed no JSON (status \(status)): \(standardError)" }
    }

    @Test func thePasscodeKeyboardInBatchRuns() throws {
        let (created, output) = try passcode("482915{done}482915{done}")
        #expect(created.status == 0, "\(created.standardError)")
        #expect(output.document == "")
        #expect(output.events.filter { $0.name != "key received" }.map(\.name) == ["insecure", "usage changed", "usage changed", "passcode created"])
        let record = data.appendingPathComponent("extensions/dev.kbhost.samples.passcode/passcodes/default.json")
        #expect((try FileManager.default.attributesOfItem(atPath: record.path)[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: record.deletingLastPathComponent().deletingLastPathComponent().path)[.posixPermissions] as? Int) == 0o700)

        let (_, wrong) = try passcode("111111{done}")
        #expect(wrong.events.last == .init(name: "authentication failed", details: ["attemptsRemaining": "4"]))
        // Digits typed but not submitted stay as ⬤ in the field; nothing else is printed.
        let (_, pending) = try passcode("48")
        #expect(pending.document == "⬤⬤")
        #expect(!pending.events.map(\.name).contains("authentication failed"))
        let (_, right) = try passcode("482915{done}")
        #expect(right.events.last == .init(name: "authenticated", details: ["user": "default"]))
    }

    @Test func theQwertyKeyboardInPipedLinesAndActions() throws {
        let qwerty = try BuildProducts.sample("QwertyKeyboard")
        let piped = try kbhost([qwerty], input: "hello. How are you?\nfine\n")
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardOutput == "hello. How are you?\nfine\n")  // piped lines are typed exactly
        let run = try kbhost(["run", qwerty, "--text", "One. Two three", "--type", "{action:readAll}"])
        #expect(run.status == 0, "\(run.standardError)")
        let output = try JSONDecoder().decode(Output.self, from: Data(run.standardOutput.utf8))
        #expect(output.events.last?.name == "read all")
        #expect(output.events.last?.details["words"] == "3")
    }

    @Test func thePasscodeKeyboardInTheRepl() throws {
        let command = try BuildProducts.kbhost() + " " + (try BuildProducts.sample("SecurePasscodeKeyboard"))
            + " --data-dir \(data.path) --set options.shuffle=false --set options.scryptCost=10"
        let terminal = try Tmux(command, width: 80)
        try terminal.waitFor("the pad and the usage") { $0.contains("usage changed (usage: create)") && $0.contains("done") }
        try terminal.type("4829")
        try terminal.waitFor("four dots, no digits") { screen in
            screen.contains("⬤⬤⬤⬤") && !screen.split(separator: "\n").first!.contains("4")
        }
        try terminal.press("Enter")
        try terminal.waitFor("the rule that failed, whole, on a row of its own") {
            $0.contains("\n  passcode rule failed (message: at least 6 digits, rule: minimumLength)")
        }
        try terminal.type("482915")
        try terminal.press("Enter")
        try terminal.waitFor("confirm") { $0.contains("usage changed (usage: confirm)") }
        try terminal.type("482915")
        try terminal.press("Enter")
        // Created, the keyboard dismisses itself: the state is on the status row, a key says how to
        // bring it back, and C-x k shows a new appearance, which asks for the passcode.
        try terminal.waitFor("created and dismissed") {
            $0.contains("dismissed (C-x k)") && $0.contains("passcode created (user: default)") && !$0.contains("done")
        }
        try terminal.type("1")
        try terminal.waitFor("how to bring it back") { $0.contains("Secure Passcode dismissed itself: C-x k shows it again") }
        try terminal.press("C-x", "k")
        try terminal.waitFor("a new appearance, authenticating") { $0.contains("usage changed (usage: authenticate)") && $0.contains("done") }
        try terminal.type("12")
        try terminal.waitFor("typing again, in dots") { $0.contains("Secure Passcode › ⬤⬤") }
        // Everything the status row said, in order, in the log.
        try terminal.press("C-x", "l")
        let log = try terminal.waitFor("the log", scrollback: true) { $0.contains("event log: ") && $0.contains("Passcode shown again\n") }
        let order = ["usage changed (usage: create)", "passcode rule failed", "usage changed (usage: confirm)", "passcode created", "dismissed itself", "shown again"]
        let places = order.map { log.range(of: $0)?.lowerBound }
        #expect(!places.contains(nil), "\(log)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "\(log)")
    }

    /// C-x t taps any key by its label, or part of it, or its place: the toolbar's keys type no
    /// character, so nothing else taps them.
    @Test func theQwertyToolbarIsTappedByTheKeyPicker() throws {
        let terminal = try Tmux(try BuildProducts.kbhost() + " " + (try BuildProducts.sample("QwertyKeyboard")) + " --text 'One. Two three'", width: 110)
        try terminal.waitFor("the toolbar") { $0.contains("read all") }
        try terminal.type("x")
        try terminal.waitFor("an ordinary key first") { $0.contains("QWERTY › One. Two threex") }
        try terminal.press("C-x", "t")
        try terminal.waitFor("the picker, with every key") { $0.contains("tap: ▏ → read all (1 of ") }
        try terminal.type("read")
        try terminal.waitFor("one match") { $0.contains("tap: read▏ → read all (1 of 1)") }
        try terminal.press("Enter")
        try terminal.waitFor("the read's counts") { $0.contains("read all (characters: 15, lines: 1, roundTrips: ") }
        // By place: row 1, key 2 is "clear all".
        try terminal.press("C-x", "t")
        try terminal.type("1,2")
        try terminal.waitFor("the key at 1,2") { $0.contains("→ clear all (1 of 1)") }
        try terminal.press("Enter")
        try terminal.waitFor("the document cleared") { $0.contains("clear all (deletedCharacters: 15") }
        // C-g leaves without tapping; Tab outside the picker says what to do.
        try terminal.press("C-x", "t")
        try terminal.type("word")
        try terminal.press("C-g")
        try terminal.press("Tab")
        try terminal.waitFor("Tab's hint") { $0.contains("QWERTY has no tab key; C-x t taps any key by its label") }
    }

    @Test func theQwertyKeyboardInTheRepl() throws {
        let terminal = try Tmux(try BuildProducts.kbhost() + " " + (try BuildProducts.sample("QwertyKeyboard")), width: 110)
        try terminal.waitFor("the toolbar over the keys") { $0.contains("read all") && $0.contains("⌫ word") && $0.contains("return") }
        try terminal.type("hi. how are you")
        try terminal.waitFor("the keyboard's capitals") { $0.contains("QWERTY › Hi. How are you") }
    }

    /// The gesture chords: C-x L long-presses a key and lifts on a numbered callout, C-x H holds
    /// delete (it repeats, on the REPL's real clock), C-x < drags the space bar.
    @Test func gesturesAreChordsInTheRepl() throws {
        let terminal = try Tmux(try BuildProducts.kbhost() + " " + (try BuildProducts.sample("QwertyKeyboard")) + " --text 'Hello world caf'", width: 110)
        try terminal.waitFor("the toolbar") { $0.contains("read all") }
        try terminal.press("C-x", "L")
        try terminal.type("e")
        try terminal.waitFor("the callouts, numbered") { $0.contains("1 è · 2 é · 3 ê") }
        try terminal.type("2")
        try terminal.waitFor("the accent typed") { $0.contains("QWERTY › Hello world café") }
        try terminal.press("C-x", "H")
        try terminal.press("BSpace")
        // The press, then five repeats (0.5 to 0.9 s).
        try terminal.waitFor("six characters deleted") { $0.contains("QWERTY › Hello worl") && !$0.contains("Hello world") }
        let end = try terminal.cursor().column
        try terminal.press("C-x", "<")
        try terminal.waitForCursor("the caret a step left", column: end - 1)
        try terminal.type("d")
        try terminal.waitFor("a d before the last letter") { $0.contains("QWERTY › Hello wordl") }
    }
}
