import Foundation
import Testing
import TestSupport

/// The `kbhost` binary as a user runs it: its output, its JSON, its exit statuses.
@Suite("kbhost, end to end")
struct KBHostCommandTests {
    private func kbhost(_ arguments: String...) throws -> Command.Result {
        try kbhost(arguments)
    }

    private func kbhost(_ arguments: [String]) throws -> Command.Result {
        try Command.run(try BuildProducts.kbhost(), arguments)
    }

    private var hello: String { get throws { try BuildProducts.sample("HelloKeyboard") } }

    private struct RunOutput: Decodable {
        struct Extension: Decodable { let identifier, name, version: String; let abiVersion: Int }
        let document: String
        let actions: [Action]
        let documentIdentifier: String
        let cursor: Int
        let selection: [Int]
        let policy: String
        let platform: String
        let platformNotes: [String]?
        let errors: [String]
        let `extension`: Extension
    }

    private struct Action: Decodable {
        let action: String
        let succeeded: Bool
        let before, after: String?
        let deletedCharacters, roundTrips: Int?
        let error: String?
    }

    private func runOutput(_ result: Command.Result) throws -> RunOutput {
        try JSONDecoder().decode(RunOutput.self, from: Data(result.standardOutput.utf8))
    }

    @Test func inspectPrintsTheDescriptor() throws {
        let result = try kbhost("inspect", try hello)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("name:        Hello Keyboard\n"))
        #expect(result.standardOutput.contains("identifier:  dev.kbhost.samples.hello\n"))
        #expect(result.standardOutput.contains("version:     1.0.0\n"))
        #expect(result.standardOutput.contains("ABI version: 1\n"))
        #expect(result.standardOutput.contains("gestures:    yes (long-press, hold, drag)\n"))
    }

    @Test func inspectPrintsJSON() throws {
        let result = try kbhost("inspect", "--json", try hello)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(object?["identifier"] as? String == "dev.kbhost.samples.hello")
        #expect(object?["abiVersion"] as? Int == 1)
        #expect(object?["keyGestures"] as? Bool == true)
    }

    @Test func runTypesAndPrintsTheField() throws {
        let result = try kbhost("run", try hello, "--type", "hello world")
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let output = try runOutput(result)
        #expect(output.document == "hello world")
        #expect(output.cursor == 11)
        #expect(output.extension.identifier == "dev.kbhost.samples.hello")
        #expect(output.errors.isEmpty)
    }

    @Test func runSeedsFromAFileAndPlacesTheCursorInCharacters() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID()).txt")
        try "🇫🇷 café\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // Cursor 1 is after the flag (one Character, two scalars, eight bytes).
        let result = try kbhost("run", try hello, "--document", file.path, "--cursor", "1", "--type", " a{delete}{delete}x")
        #expect(result.status == 0)
        let output = try runOutput(result)
        #expect(output.document == "🇫🇷x café\n")
        #expect(output.cursor == 2)
    }

    @Test func runReportsSelectionDocumentIdentifierAndPolicy() throws {
        let output = try runOutput(try kbhost("run", try hello, "--text", "One. Two", "--policy", "characters:3", "--latency", "20", "--type", "x"))
        #expect(output.document == "One. Twox")
        #expect(output.selection == [9, 9])
        #expect(output.policy == "characters:3")
        #expect(UUID(uuidString: output.documentIdentifier) != nil)
    }

    @Test(arguments: ["sentence", "paragraph", "unlimited", "wayland", "utf8-bytes:10", "characters:1"])
    func everyPolicyTypesTheSame(_ policy: String) throws {
        let output = try runOutput(try kbhost("run", try hello, "--text", "a.\nb", "--cursor", "2", "--policy", policy, "--type", "xy{delete}"))
        #expect(output.document == "a.x\nb")
        #expect(output.cursor == 3)
    }

    @Test func thePlatformIsChosenAndPrinted() throws {
        #expect(try runOutput(try kbhost("run", try hello, "--type", "a")).platform == "exact")
        let ios = try runOutput(try kbhost("run", try hello, "--platform", "ios", "--type", "a"))
        #expect(ios.platform == "ios")
        #expect(ios.document == "a")
        #expect(ios.platformNotes == nil)
        // Android's backspace takes one UTF-16 unit: half of 🏽's surrogate pair stays, as U+FFFD.
        let android = try runOutput(try kbhost("run", try hello, "--platform", "android", "--text", "a👍🏽", "--type", "{delete}"))
        #expect(android.document == "a👍\u{FFFD}")
        #expect(android.platformNotes?.count == 1)
        // A platform brings its windows unless --policy picks others.
        #expect(try runOutput(try kbhost("run", try hello, "--platform", "wayland")).policy == "utf8-bytes:4000")
        #expect(try runOutput(try kbhost("run", try hello, "--platform", "wayland", "--policy", "paragraph")).policy == "paragraph")
        let bogus = try kbhost("run", try hello, "--platform", "symbian")
        #expect(bogus.status == 64)
        #expect(bogus.standardError.contains("'--platform <platform>'"))
    }

    @Test func anUnknownPolicyIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--policy", "everything")
        #expect(result.status == 64)
        // One line, as every error of kbhost's, and where to read the whole usage.
        #expect(
            result.standardError
                == "kbhost: error: The value 'everything' is invalid for '--policy <policy>': 'everything' is not a context policy; give characters:N, utf8-bytes:N, wayland (utf8-bytes:4000), sentence, paragraph or unlimited (see 'kbhost run --help')\n"
        )
    }

    /// Each refused value says what was wrong with it, in one line; a negative number is a value the
    /// option refuses, not a missing one (ArgumentParser reads `-5` as an option unless told).
    @Test(arguments: [
        (["--policy", "characters:0"], "in 'characters:0', N must be a whole number above 0 (e.g. characters:1024)"),
        (["--policy", "utf8-bytes"], "'utf8-bytes' needs a size: utf8-bytes:N"),
        (["--latency", "-5"], "--latency must be 0 or more milliseconds, not -5"),
        (["--cursor", "-1"], "--cursor -1 is outside the document"),
        (["--advance", "-1s"], "a duration cannot be negative"),
        (["--advance", "3parsecs"], "give a number and a unit (ns, us, ms, s or min)"),
        (["--text-limit", "-2"], "--text-limit must be 0 or more bytes, not -2"),
        (["--memory-limit", "-1"], "--memory-limit must be above 0 MB, not -1"),
        (["--document-limit", "-1"], "--document-limit must be 1 to 4096 MiB, not -1"),
        (["--type", "a{delet}"], "unknown key name '{delet}' at character 2; did you mean {delete}?"),
    ])
    func aRefusedValueSaysWhyInOneLine(arguments: [String], reason: String) throws {
        let result = try Command.run(try BuildProducts.kbhost(), ["run", try hello] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("kbhost: error: "))
        #expect(result.standardError.contains(reason), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardOutput == "")
    }

    @Test func textThatLooksLikeAnOptionIsTypedAndSeeded() throws {
        let seeded = try kbhost("run", try hello, "--text", "-x", "--isolation", "in-process")
        #expect(seeded.status == 0, "\(seeded.standardError)")
        #expect(try runOutput(seeded).document == "-x")
        let typed = try kbhost("run", try hello, "--type", "-x", "--isolation", "in-process")
        #expect(typed.status == 0, "\(typed.standardError)")
        #expect(try runOutput(typed).document == "-x")
    }

    @Test func aUsageErrorOfANestedSubcommandPointsAtItsHelp() throws {
        let result = try kbhost("license", "issue", "--expires", "2030-01-01")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("kbhost: error: "))
        #expect(result.standardError.hasSuffix("(see 'kbhost license issue --help')\n"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        // Help is still printed whole, on standard output, and is a success.
        let help = try kbhost("license", "issue", "--help")
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("--expires"))
    }

    @Test func actionsReadMoveAndDeleteTheFullDocument() throws {
        let result = try kbhost(
            "run", try hello, "--text", "One. Two three!\nFour", "--cursor", "6", "--type", "x",
            "--action", "read-full-document", "--action", "move-to-beginning", "--action", "delete-full-document"
        )
        #expect(result.status == 0)
        let output = try runOutput(result)
        #expect(output.actions.map(\.action) == ["read-full-document", "move-to-beginning", "delete-full-document"])
        #expect(output.actions[0].before == "One. Tx")
        #expect(output.actions[0].after == "wo three!\nFour")
        #expect(output.actions[0].roundTrips ?? 0 > 0)
        #expect(output.actions[2].deletedCharacters == 21)
        #expect(output.document == "")
    }

    @Test func largeTextsArePrintedAsLengthAndSHA256() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID()).txt")
        let text = String(repeating: "Line of text with ünïcode 👩‍👩‍👧. ", count: 2000)
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try kbhost("run", try hello, "--document", file.path, "--cursor", "0", "--policy", "wayland",
                                "--action", "read-full-document")
        #expect(result.status == 0)
        struct Summary: Decodable { let characters, utf8Bytes: Int; let sha256: String }
        struct Output: Decodable {
            struct Action: Decodable { let before: String; let after: Summary; let roundTrips: Int }
            let document: Summary
            let actions: [Action]
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8))
        let expected = try Command.run("/usr/bin/env", ["sha256sum", file.path]).standardOutput.prefix(64)
        #expect(output.document.sha256 == String(expected))
        #expect(output.actions[0].after.sha256 == String(expected))
        #expect(output.actions[0].after.characters == text.count)
        #expect(output.actions[0].after.utf8Bytes == text.utf8.count)
        #expect(output.actions[0].before == "")
        // Round trips: about the document over the 4000-byte window.
        #expect(output.actions[0].roundTrips <= text.utf8.count / 4000 + 4)
    }

    /// A read's answer is the document, JSON-escaped: it may be larger than the 16 MiB a call takes
    /// otherwise, up to 63 MiB; past that, the read ends at once with `answerTooLarge`, not a timeout.
    @Test func aReadOfALargeDocumentIsAnsweredWholeOrRefusedAtOnce() throws {
        let quoted = FileManager.default.temporaryDirectory.appendingPathComponent("quoted-\(UUID()).txt")
        try Data(repeating: UInt8(ascii: "\""), count: 9 << 20).write(to: quoted)  // 18 MiB escaped
        defer { try? FileManager.default.removeItem(at: quoted) }
        let read = try kbhost("run", try hello, "--document", quoted.path, "--policy", "unlimited", "--action", "read-full-document")
        #expect(read.status == 0, "\(read.standardError)")
        struct Summary: Decodable { let utf8Bytes: Int; let sha256: String }
        struct Output: Decodable {
            struct Action: Decodable { let succeeded: Bool; let before: Summary }
            let actions: [Action]
        }
        let output = try JSONDecoder().decode(Output.self, from: Data(read.standardOutput.utf8))
        let expected = try Command.run("/usr/bin/env", ["sha256sum", quoted.path]).standardOutput.prefix(64)
        #expect(output.actions.first?.succeeded == true)
        #expect(output.actions.first?.before.utf8Bytes == 9 << 20)
        #expect(output.actions.first?.before.sha256 == String(expected))

        let controls = FileManager.default.temporaryDirectory.appendingPathComponent("controls-\(UUID()).txt")
        try Data(repeating: 1, count: 11 << 20).write(to: controls)  // 66 MiB escaped (\u0001)
        defer { try? FileManager.default.removeItem(at: controls) }
        let refused = try kbhost("run", try hello, "--document", controls.path, "--policy", "unlimited", "--action", "read-full-document")
        #expect(refused.status == 1)
        struct Refused: Decodable {
            struct Action: Decodable { let succeeded: Bool; let error: String? }
            let actions: [Action]
        }
        let refusal = try JSONDecoder().decode(Refused.self, from: Data(refused.standardOutput.utf8)).actions.first
        #expect(refusal?.succeeded == false)
        #expect(refusal?.error == "answerTooLarge")
        #expect(refused.standardError == "kbhost: Hello Keyboard: command_finished of 69206082 bytes refused: the host takes at most 63 MiB in one call\n")
    }

    /// scripts/bench reads kbhost's start-up from these lines: every phase, in order, on one clock,
    /// and the peak memory at exit. Without KBHOST_TIMINGS, not a line of them.
    @Test func timingsMarkEachPhaseInOrderOnlyWhenAsked() throws {
        let marked = try Command.run(
            try BuildProducts.kbhost(), ["run", try hello, "--type", "x", "--action", "move-to-end"], environment: ["KBHOST_TIMINGS": "1"]
        )
        #expect(marked.status == 0, "\(marked.standardError)")
        let lines = marked.standardError.split(separator: "\n")
        let marks = lines.filter { $0.hasPrefix("kbhost: timing: ") }.map { $0.split(separator: " ") }
        #expect(marks.map { String($0[2]) } == ["main", "parsed", "read", "configured", "loaded", "shown", "typed", "acted", "printed"])
        let times = marks.compactMap { UInt64($0[3]) }
        #expect(times.count == marks.count && times == times.sorted())
        let peak = lines.last { $0.hasPrefix("kbhost: peak-memory ") }.flatMap { Int($0.split(separator: " ")[2]) }
        #expect((peak ?? 0) > 1 << 20)
        let quiet = try kbhost("run", try hello, "--type", "x")
        #expect(!quiet.standardError.contains("kbhost: timing:") && !quiet.standardError.contains("peak-memory"))
    }

    @Test func anUnknownActionIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--action", "read-everything")
        #expect(result.status == 64)
        #expect(result.standardError.contains("The value 'read-everything' is invalid for '--action <action>'"))
    }

    @Test func runWithNothingToTypePrintsTheSeed() throws {
        let output = try runOutput(try kbhost("run", try hello, "--text", "abc", "--cursor", "0"))
        #expect(output.document == "abc")
        #expect(output.cursor == 0)
    }

    // MARK: Exit statuses and one-line errors

    @Test func aMissingExtensionIsALoadFailure() throws {
        let result = try kbhost("run", "/nonexistent/libX.so", "--type", "a")
        #expect(result.status == 69)
        #expect(result.standardError == "kbhost: error: cannot load extension '/nonexistent/libX.so': no such file\n")
        #expect(result.standardOutput == "")
    }

    /// What a newcomer types wrong gets what they meant: a subcommand, a library's path from the
    /// package's folder, an installed bundle.
    @Test func aNameThatIsNothingGetsWhatItMayHaveMeant() throws {
        let typo = try kbhost("lsit")
        #expect(typo.status == 69)
        #expect(typo.standardError == "kbhost: error: 'lsit' is no file, bundle or subcommand; did you mean `kbhost list`?\n")
        let nothing = try kbhost("run", "zzzzzz")
        #expect(nothing.standardError.hasPrefix("kbhost: error: 'zzzzzz' is no file, installed bundle or subcommand; give a library's path"))

        // A library's bare name, from the package's folder: the built one is named.
        let name = URL(fileURLWithPath: try hello).lastPathComponent
        let root = BuildProducts.packageRoot.path
        let fromRoot = try Command.run("/bin/sh", ["-c", "cd '\(root)' && exec \"$0\" run \"$1\"", try BuildProducts.kbhost(), name])
        #expect(fromRoot.status == 69)
        #expect(fromRoot.standardError.contains("no file '\(name)' in \(root); did you mean .build/"), "\(fromRoot.standardError)")

        // An installed bundle, misspelled.
        let bundles = FileManager.default.temporaryDirectory.appendingPathComponent("bundles-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: bundles) }
        let made = try kbhost("bundle", try hello, "--out", bundles)
        #expect(made.status == 0, "\(made.standardError)")
        let misspelled = try kbhost("run", "dev.kbhost.samples.helo", "--bundles", bundles)
        #expect(misspelled.status == 69)
        #expect(misspelled.standardError.hasSuffix("; did you mean 'dev.kbhost.samples.hello'?\n"), "\(misspelled.standardError)")
    }

    @Test func inspectOfANonLibraryIsALoadFailure() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID()).so")
        try "text".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try kbhost("inspect", file.path)
        #expect(result.status == 69)
        #expect(result.standardError == "kbhost: error: cannot load extension '\(file.path)': not a shared library (not an ELF file)\n")
    }

    @Test func aCharacterTheKeyboardCannotTypeIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--type", "hi~")
        #expect(result.status == 64)
        #expect(result.standardError == "kbhost: error: --type: Hello Keyboard has no key that types \"~\" (character 3)\n")
    }

    /// Issue 18's "done means": a long-press types the accent, and holding delete for 2 s of the host's
    /// clock deletes more than one character — the same number every run (here, in process and
    /// isolated alike). The space bar's drag moves the caret.
    @Test func gesturesAreTypedByName() throws {
        let qwerty = try BuildProducts.sample("QwertyKeyboard")
        let cafe = try kbhost("run", qwerty, "--type", "caf{longpress:e:é}")
        #expect(cafe.status == 0, "\(cafe.standardError)")
        #expect(try runOutput(cafe).document == "café")
        let text = "one two three four five six seven eight nine ten"
        var left: [String] = []
        for isolation in ["process", "in-process", "process"] {
            let held = try kbhost("run", qwerty, "--isolation", isolation, "--text", text, "--type", "{hold:delete:2s}")
            #expect(held.status == 0, "\(held.standardError)")
            left.append(try runOutput(held).document)
        }
        // 1 at the press, 10 characters, then 5 words (repeats at 1.5 … 1.9 s).
        #expect(left == Array(repeating: "one two three ", count: 3))
        let hello = try kbhost("run", qwerty, "--text", "hello world", "--type", "{hold:delete:600ms}")
        #expect(try runOutput(hello).document == "hello wor")
        let dragged = try kbhost("run", qwerty, "--text", "hello world", "--type", "{drag:space:-5}X")
        #expect(try runOutput(dragged).document == "hello Xworld")
    }

    @Test(arguments: [
        ("{longpress:e:x}", "kbhost: error: --type: long-press choosing x on \"e\" (character 1): the key \"e\" has no callout \"x\" (it has è é ê ë ē ė ę)\n"),
        ("{longpress:q}", "kbhost: error: --type: long-press on \"q\" (character 1): the key \"q\" has no callouts to long-press for; hold it instead\n"),
        ("{hold:delete:soon}", "kbhost: error: --type: '{hold:delete:soon}' at character 1: 'soon' is not a duration above 0 (write 2s, 1.5s or 500ms)\n"),
        ("{drag:space:0}", "kbhost: error: --type: '{drag:space:0}' at character 1: '0' is not a whole number of steps other than 0 (negative goes left)\n"),
        ("{drag:spacebar:2}", "kbhost: error: --type: '{drag:spacebar:2}' at character 1: 'spacebar' is neither one character nor a key name\n"),
        // Huge amounts are refused before any event is planned (each repeat and step is one).
        ("{hold:delete:1000000s}", "kbhost: error: --type: hold for 1000000s on {delete} (character 1): a hold may last at most 600s\n"),
        ("{hold:delete:1e30ms}", "kbhost: error: --type: '{hold:delete:1e30ms}' at character 1: '1e30ms' is too long: at most 1e9 seconds\n"),
        ("{drag:space:-9223372036854775808}", "kbhost: error: --type: drag 9223372036854775808 steps left on {space} (character 1): a drag may last at most 10000 steps\n"),
    ])
    func aGestureThatCannotBeMadeIsABadArgument(_ keys: String, _ message: String) throws {
        let result = try kbhost("run", try BuildProducts.sample("QwertyKeyboard"), "--type", keys)
        #expect(result.status == 64)
        #expect(result.standardError == message)
    }

    @Test func anUnknownKeyNameIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--type", "a{bogus}")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("kbhost: error: --type: unknown key name '{bogus}' at character 2 "))
        #expect(result.standardError.contains("action:NAME"))
    }

    @Test func aCursorOutsideTheDocumentIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--text", "abc", "--cursor", "4")
        #expect(result.status == 64)
        #expect(result.standardError
            == "kbhost: error: --cursor 4 is outside the document, which has 3 characters (0…3)\n")
    }

    @Test func anUnreadableDocumentIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--document", "/nonexistent/seed.txt")
        #expect(result.status == 64)
        #expect(result.standardError == "kbhost: error: --document: cannot read '/nonexistent/seed.txt': no such file\n")
    }

    @Test func aDocumentThatIsNotUTF8IsABadArgument() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("latin1-\(UUID()).txt")
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: file)  // "café" in Latin-1
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try kbhost("run", try hello, "--document", file.path)
        #expect(result.status == 64)
        #expect(result.standardError
            == "kbhost: error: --document: '\(file.path)' is not UTF-8 text: invalid byte sequence at byte 3\n")
    }

    @Test func aDocumentOverTheLimitIsRefusedWithWhatToDoAndTheLimitCanBeRaised() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID()).txt")
        try Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let refused = try kbhost("run", try hello, "--document", file.path, "--document-limit", "1")
        #expect(refused.status == 64)
        #expect(refused.standardError == "kbhost: error: --document: '\(file.path)' is 1.0 MiB, more than the 1 MiB allowed: raise --document-limit to read it\n")
        let raised = try kbhost("run", try hello, "--document", file.path, "--document-limit", "2", "--type", "b")
        #expect(raised.status == 0, "\(raised.standardError)")
        #expect(raised.standardOutput.contains("\"characters\" : 1048578"))
        let zero = try kbhost("run", try hello, "--document-limit", "0")
        #expect(zero.status == 64)
        #expect(zero.standardError.contains("--document-limit must be 1 to 4096 MiB, not 0"))
    }

    @Test func keysOnStandardInputAreTypedAndBounded() throws {
        let typed = try Command.run(try BuildProducts.kbhost(), ["run", try hello, "--type", "-"], input: "hi\n")
        #expect(typed.status == 0, "\(typed.standardError)")
        #expect(typed.standardOutput.contains("\"document\" : \"hi\""))  // the final line break is not typed
        let flood = try Command.run(try BuildProducts.kbhost(), ["run", try hello, "--type", "-"], input: String(repeating: "a", count: (1 << 20) + 1))
        #expect(flood.status == 64)
        #expect(flood.standardError == "kbhost: error: --type -: more than 1 MiB of keys on standard input\n")
    }

    @Test func textAndDocumentTogetherAreABadArgument() throws {
        let result = try kbhost("run", try hello, "--text", "a", "--document", "b.txt")
        #expect(result.status == 64)
        #expect(result.standardError.contains("give the document either with --text or with --document, not both"))
    }

    @Test func helpExplainsTheExitStatuses() throws {
        let result = try kbhost("run", "--help")
        #expect(result.status == 0)
        for line in ["0   success", "1   the extension failed while running", "64  bad arguments", "69  the extension could not be loaded or activated"] {
            #expect(result.standardOutput.contains(line))
        }
        // run's help shows what a user copies: examples, and every kind of named key.
        for text in ["Examples:", "{done}", "{action:NAME}", "--type 'hello{space}world'"] {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
        // The table is said once where it matters, not in every subcommand's help.
        let inspect = try kbhost("inspect", "--help")
        #expect(!inspect.standardOutput.contains("64  bad arguments"))
        #expect(inspect.standardOutput.contains("the others are in `kbhost --help`"))
    }

    /// The committed manual page (docs/kbhost.1, written by scripts/manual) says what kbhost's help
    /// says: every subcommand with its abstract, every option. A help text changed without running
    /// scripts/manual fails here.
    @Test func theManualPageIsCurrent() throws {
        struct Info: Decodable { let command: Command }
        struct Command: Decodable {
            let commandName: String
            let abstract: String?
            let arguments: [Argument]?
            let subcommands: [Command]?
        }
        struct Argument: Decodable {
            struct Name: Decodable { let kind: String; let name: String }
            let kind: String
            let names: [Name]?
            let shouldDisplay: Bool
        }
        let dump = try kbhost("--experimental-dump-help")
        #expect(dump.status == 0)
        let info = try JSONDecoder().decode(Info.self, from: Data(dump.standardOutput.utf8))
        let page = try String(contentsOf: BuildProducts.packageRoot.appendingPathComponent("docs/kbhost.1"), encoding: .utf8)
        var commands = [info.command]
        var checked = 0
        while let command = commands.popLast() {
            commands += command.subcommands ?? []
            if command.commandName != "kbhost" { #expect(page.contains(".It Em \(command.commandName)\n"), "\(command.commandName)") }
            if let abstract = command.abstract, abstract.allSatisfy(\.isASCII), !abstract.isEmpty {
                #expect(page.contains(abstract), "the abstract of \(command.commandName): run scripts/manual")
            }
            for argument in command.arguments ?? [] where argument.shouldDisplay && argument.kind != "positional" {
                for name in argument.names ?? [] where name.kind == "long" {
                    #expect(page.contains("Fl -\(name.name)"), "\(command.commandName) --\(name.name): run scripts/manual")
                    checked += 1
                }
            }
        }
        #expect(checked > 50)
    }

    /// The README's completion line works: bash loads the script, and it completes subcommands.
    @Test func bashCompletesTheSubcommands() throws {
        let kbhost = try BuildProducts.kbhost()
        let script = """
            source <("$0" --generate-completion-script bash)
            COMP_WORDS=(kbhost li); COMP_CWORD=1; COMP_LINE="kbhost li"; COMP_POINT=${#COMP_LINE}
            _kbhost; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Command.run("/bin/bash", ["-c", script, kbhost])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").contains("list"), "\(result.standardOutput)")
        for shell in ["zsh", "fish"] {
            #expect(try self.kbhost("--generate-completion-script", shell).standardOutput.contains("license"))
        }
    }

    /// --trace writes every call both ways as JSON lines; the same run traced in process and isolated
    /// reads the same (but the document's identifier, new on every run), for the wire is one.
    @Test func aTraceIsEveryCallAndTheSameWhereverTheExtensionRuns() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func trace(_ isolation: String) throws -> [[String: Any]] {
            let file = folder.appendingPathComponent("\(isolation).jsonl").path
            let result = try kbhost("run", try hello, "--type", "hi{delete}", "--isolation", isolation, "--trace", file)
            #expect(result.status == 0, "\(result.standardError)")
            return try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map {
                var line = try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                line["documentIdentifier"] = nil
                return line
            }
        }
        let inProcess = try trace("in-process"), isolated = try trace("process")
        #expect(inProcess.map { $0 as NSDictionary } == isolated.map { $0 as NSDictionary })
        let calls = inProcess.map { $0["call"] as? String ?? "?" }
        #expect(calls.first == "create_instance" && calls.last == "destroy_instance")
        #expect(calls.filter { $0 == "key_event" }.count == 3)
        #expect(inProcess.compactMap { $0["text"] as? String } == ["h", "i"])
        #expect(calls.contains("delete_backward"))
        // Each key event is answered after what the extension called during it.
        let firstKey = try #require(calls.firstIndex(of: "key_event"))
        #expect(Array(calls[firstKey...].prefix(3)) == ["key_event", "insert_text", "returned"])
        #expect(inProcess.compactMap { $0["n"] as? Int } == Array(1...inProcess.count))
        #expect(inProcess.last { $0["call"] as? String == "update_snapshot" }?["before"] as? String == "h")
        // The license's key is there; its secret is not (a trace goes into bug reports).
        let configuration = inProcess.first { $0["of"] as? String == "create_configuration" }?["configuration"] as? [String: Any]
        let license = configuration?["license"] as? [String: Any]
        #expect((license?["licenseKey"] as? String)?.isEmpty == false)
        #expect(license?["licenseSecret"] as? String == "(not traced)")
    }

    @Test func aTraceThatCannotBeWrittenIsABadArgument() throws {
        let result = try kbhost("run", try hello, "--trace", "/nonexistent/folder/t.jsonl")
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("kbhost: error: --trace '/nonexistent/folder/t.jsonl': "))
    }

    /// `list` has no session, so it takes no options that shape one.
    @Test func listTakesNoSessionOptions() throws {
        for option in [["--policy", "sentence"], ["--latency", "5"], ["--platform", "ios"]] {
            let result = try kbhost(["list"] + option)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("kbhost: error: Unknown option '\(option[0])'"), "\(result.standardError)")
        }
    }
}

@Suite("kbhost, with an extension that fails to activate")
struct KBHostActivationTests {
    @Test func anActionTheExtensionDoesNotSupportFailsWithItsAnswer() throws {
        let path = try CFixture.build("cKeyboard")
        let result = try Command.run(try BuildProducts.kbhost(), ["run", path, "--allow-unlicensed", "--action", "read-full-document"])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("\"error\" : \"unsupported\""))
        #expect(result.standardOutput.contains("\"succeeded\" : false"))
    }

    @Test func anUnconfiguredExtensionIsALoadFailure() throws {
        let path = try CFixture.build("notConfigured", defines: ["FIXTURE_NOT_CONFIGURED"])
        let result = try Command.run(try BuildProducts.kbhost(), ["run", path, "--type", "a"])
        #expect(result.status == 69)
        #expect(result.standardError.hasSuffix(
            "kbhost: error: C Keyboard does not configure itself: this C keyboard has no configuration yet\n"
        ))
        #expect(result.standardOutput == "")
    }
}

@Suite("kbhost license")
struct LicenseCommandTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("license-\(UUID())")

    private func kbhost(_ arguments: String...) throws -> Command.Result {
        try kbhost(arguments)
    }

    private func kbhost(_ arguments: [String]) throws -> Command.Result {
        try Command.run(try BuildProducts.kbhost(), arguments)
    }

    @Test func keygenIssueAndVerify() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let keygen = try kbhost("license", "keygen", "--issuer", "Test Issuer", "--out", folder.path)
        #expect(keygen.status == 0)
        let privateKey = folder.appendingPathComponent("test-issuer.private.json").path
        let publicKey = folder.appendingPathComponent("test-issuer.public.json").path
        let mode = try FileManager.default.attributesOfItem(atPath: privateKey)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let issued = try kbhost("license", "issue", "--key", privateKey, "--extension", "com.example.k", "--licensee", "Jo",
                                "--expires", "2030-01-31", "--feature", "swipe")
        #expect(issued.status == 0)
        let licenseFile = folder.appendingPathComponent("license.json")
        try Data(issued.standardOutput.utf8).write(to: licenseFile)

        let valid = try kbhost("license", "verify", "--trust", publicKey, "--extension", "com.example.k", "--license", licenseFile.path, "--on", "2030-01-31")
        #expect(valid.status == 0)
        #expect(valid.standardOutput == "valid: com.example.k for Jo until 2030-01-31, issued by Test Issuer; features: swipe\n")

        let expired = try kbhost("license", "verify", "--trust", publicKey, "--extension", "com.example.k", "--license", licenseFile.path, "--on", "2030-02-01")
        #expect(expired.status == 1)
        #expect(expired.standardError == "kbhost: error: license expired on 2030-01-31\n")

        let untrusted = try kbhost("license", "verify", "--extension", "com.example.k", "--license", licenseFile.path)
        #expect(untrusted.status == 1)
        #expect(untrusted.standardError.contains("which this host does not trust"))

        let again = try kbhost("license", "keygen", "--issuer", "Test Issuer", "--out", folder.path)
        #expect(again.status == 64)
        #expect(again.standardError.contains("exists already; not overwriting a private key"))
    }

    @Test func badArgumentsNameWhatIsWrong() throws {
        let noKey = try kbhost("license", "issue", "--key", "/nonexistent/k.json", "--extension", "a.b", "--licensee", "x", "--expires", "2030-01-01")
        #expect(noKey.status == 64)
        #expect(noKey.standardError == "kbhost: error: --key: '/nonexistent/k.json': no such file\n")
        let noLicense = try kbhost("license", "verify", "--extension", "a.b", "--license", "/nonexistent/l.json")
        #expect(noLicense.status == 64)
        #expect(noLicense.standardError == "kbhost: error: --license: '/nonexistent/l.json': no such file\n")
        let directory = try kbhost("license", "verify", "--extension", "a.b", "--license", "/tmp")
        #expect(directory.standardError == "kbhost: error: --license: '/tmp': it is a directory\n")
        let badDay = try kbhost("license", "verify", "--extension", "a.b", "--license", "/nonexistent/l.json", "--on", "2030-02-30")
        #expect(badDay.status == 64)
    }

    @Test func aLicenseThatWouldBeExpiredIsIssuedOnlyWhenAsked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("issuer-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try kbhost("license", "keygen", "--issuer", "Past", "--out", folder.path).status == 0)
        let key = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".private.json") })
        let arguments = ["license", "issue", "--key", folder.appendingPathComponent(key).path, "--extension", "a.b", "--licensee", "x", "--expires", "2020-01-01"]
        let refused = try kbhost(arguments)
        #expect(refused.status == 64)
        #expect(refused.standardError == "kbhost: error: --expires 2020-01-01 is past, so the license would be refused at once; give a later day, or --allow-expired to test an expired license\n")
        let issued = try kbhost(arguments + ["--allow-expired"])
        #expect(issued.status == 0)
        #expect(issued.standardOutput.contains("licenseKey"))
    }
}

@Suite("kbhost and licenses")
struct LicenseEnforcementTests {
    private func kbhost(_ arguments: [String], in folder: String? = nil) throws -> Command.Result {
        // From another folder, kbhost finds no kbhost.json: it trusts no issuer.
        let command = try BuildProducts.kbhost()
        guard let folder else { return try Command.run(command, arguments) }
        return try Command.run("/bin/sh", ["-c", "cd '\(folder)' && exec \"$0\" \"$@\"", command] + arguments)
    }

    @Test func theSampleRunsUnderTheRepositorysConfiguration() throws {
        let result = try kbhost(["run", try BuildProducts.sample("HelloKeyboard"), "--type", "ok"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
    }

    @Test func anIssuerTheHostDoesNotTrustIsRefused() throws {
        let result = try kbhost(["run", try BuildProducts.sample("HelloKeyboard"), "--type", "ok"], in: "/tmp")
        #expect(result.status == 69)
        #expect(result.standardError.hasSuffix(
            "kbhost: error: Hello Keyboard cannot be activated: license issued by 'Sample Issuer' (key 8a9cbda9adc50444), which this host does not trust; trust the issuer with --trust PUBLIC-KEY-FILE (or \"trustedIssuers\" in ./kbhost.json; the repository's own trusts its samples' issuer), or load it with --allow-unlicensed while developing\n"
        ))
    }

    @Test func trustGivenOnTheCommandLine() throws {
        let publicKey = BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.public.json").path
        let result = try kbhost(["run", try BuildProducts.sample("HelloKeyboard"), "--trust", publicKey, "--type", "ok"], in: "/tmp")
        #expect(result.status == 0)
    }

    @Test func anUnlicensedExtensionIsRefusedUnlessAllowedLoudly() throws {
        let path = try CFixture.build("cKeyboard")
        let refused = try kbhost(["run", path, "--type", "ab"])
        #expect(refused.status == 69)
        #expect(refused.standardError == "kbhost: error: C Keyboard cannot be activated: no license: the configuration has no LicenseConfiguration; hand it one with --license FILE (`kbhost license issue` makes one), or load it with --allow-unlicensed while developing\n")
        let allowed = try kbhost(["run", path, "--allow-unlicensed", "--type", "ab"])
        #expect(allowed.status == 0)
        #expect(allowed.standardError == "kbhost: warning: licenses are not checked (--allow-unlicensed): for development only\n")
    }

    @Test func configurationErrorsNameTheFileAndTheField() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        for (json, problem) in [
            (#"{"colour": 1}"#, "colour: unknown key (expected trustedIssuers, allowUnlicensed, extensions, bundles)"),
            (#"{"trustedIssuers": "one.json"}"#, "trustedIssuers: expected an array"),
            (#"{"allowUnlicensed": 1}"#, "allowUnlicensed: expected true or false"),
            ("[1, 2]", "the document: expected"),
        ] {
            try json.write(to: file, atomically: true, encoding: .utf8)
            let result = try kbhost(["run", "--config", file.path, try BuildProducts.sample("HelloKeyboard")])
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("kbhost: error: configuration '\(file.path)': \(problem)"), "\(json)")
        }
        let missingKey = try kbhost(["run", "--trust", "/nonexistent/issuer.json", try BuildProducts.sample("HelloKeyboard")])
        #expect(missingKey.status == 64)
        #expect(missingKey.standardError == "kbhost: error: trusted issuer: '/nonexistent/issuer.json': no such file\n")
    }
}
