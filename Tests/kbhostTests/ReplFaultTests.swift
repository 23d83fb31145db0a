import Foundation
import Testing
import TestSupport

/// The REPL in a terminal with an extension that fails: the user's text is never lost, and the user
/// can always leave.
@Suite("kbhost repl: a keyboard that fails")
struct ReplFaultTests {
    private func repl(_ macro: String, _ arguments: String = "") throws -> Tmux {
        let fixture = try CFixture.build("repl-\(macro)", defines: [macro])
        // `stty -a` after kbhost: what it left the terminal as.
        return try Tmux(try BuildProducts.kbhost() + " --allow-unlicensed \(arguments) \(fixture) --text 'keep '; stty -a | tr '\\n' ' '", width: 110)
    }

    private func fieldRow(_ screen: String) -> String {
        screen.split(separator: "\n").map(String.init).first { $0.contains("C Keyboard › ") } ?? ""
    }

    @Test(arguments: ["FIXTURE_FAULT_SEGV", "FIXTURE_FAULT_HANG"])
    func isolatedTheTextSurvivesAndTheUserGoesOnTyping(_ macro: String) throws {
        let terminal = try repl(macro)
        try terminal.waitFor("the keyboard") { $0.contains("del") }
        try terminal.type("aa")
        try terminal.waitFor("aa typed") { fieldRow($0).hasSuffix("› keep aa") }
        try terminal.type("b")  // the fault
        let failed = try terminal.waitFor("the fault said", seconds: 20) { $0.contains("plain keyboard") }
        #expect(failed.contains(macro.hasSuffix("SEGV") ? "C Keyboard crashed (SIGSEGV) during key_event" : "C Keyboard did not answer key_event within 2 s"))
        #expect(fieldRow(failed).hasSuffix("› keep aa"))
        try terminal.type("xyz")  // straight into the field
        try terminal.waitFor("typed plainly") { fieldRow($0).hasSuffix("› keep aaxyz") }
        try terminal.press("C-x", "R")
        try terminal.waitFor("restarted") { $0.contains("C Keyboard restarted") && $0.contains("del") }
        try terminal.type("a")
        try terminal.waitFor("typed by the keyboard again") { fieldRow($0).hasSuffix("› keep aaxyza") }
        try terminal.press("Enter")
        try terminal.waitFor("submitted") { $0.contains("› keep aaxyza") }
    }

    @Test func inProcessAStuckCallbackStillLetsTheUserLeaveWithCtrlC() throws {
        let terminal = try repl("FIXTURE_FAULT_HANG", "--isolation in-process")
        try terminal.waitFor("the keyboard") { $0.contains("del") }
        try terminal.type("b")  // key_event never returns
        // The terminal turns C-c into SIGINT at once, ahead of the b still in its queue: a C-c that
        // comes before kbhost reads the b only clears the line (seen on a loaded CI machine), and the
        // next one finds the callback stuck.
        var screen = ""
        for attempt in 1...5 where !screen.contains("icanon") {
            try terminal.press("C-c")
            screen = (try? terminal.waitFor("the exit", seconds: attempt == 5 ? 20 : 5) { $0.contains("icanon") }) ?? ""
        }
        #expect(screen.contains("the keyboard does not answer"))
        #expect(screen.contains(" icanon") && screen.contains(" echo "))  // not -icanon, -echo: restored
    }

    @Test func inProcessAStuckCallbackStillEndsOnSIGTERM() throws {
        let terminal = try repl("FIXTURE_FAULT_HANG", "--isolation in-process")
        try terminal.waitFor("the keyboard") { $0.contains("del") }
        try terminal.type("b")  // typed before the signal is sent: the key is read first, and sticks
        _ = try Command.run("/usr/bin/env", ["pkill", "-TERM", "-P", "\(try terminal.panePID())", "kbhost"])
        let screen = try terminal.waitFor("the exit", seconds: 20) { $0.contains("icanon") }
        #expect(screen.contains("the keyboard does not answer"))
        #expect(screen.contains(" icanon") && screen.contains(" echo "))
    }

    @Test func textTheExtensionControlsIsShownEscaped() throws {
        let fixture = try CFixture.build("repl-escapes", defines: [#"FIXTURE_NAME="\033[2J\033[31mEvil""#])
        let terminal = try Tmux(try BuildProducts.kbhost() + " --allow-unlicensed \(fixture) --text $'one\\ntwo\\033[2J'", width: 110)
        let screen = try terminal.waitFor("the prompt") { $0.contains("Evil") }
        // The line break starts the field's next row; the escapes show as text.
        #expect(screen.contains(#"\u{1B}[2J\u{1B}[31mEvil › one"# + "\n"))
        #expect(screen.contains(#"    two\u{1B}[2J"# + "\n"))
        #expect(screen.contains("kbhost: warning: licenses are not checked"))  // the screen was not cleared
    }
}
