import Foundation
import Testing
import TestSupport

/// The passcode sample's lockout against the attacks that broke it (issue 15): guesses in parallel
/// processes, a record that cannot be written, a record edited or removed, creating over a passcode,
/// a pad that does not shuffle, a passcode in the arguments. Each through `kbhost run`, as an attacker
/// at the same terminal would try it.
@Suite("The passcode sample's lockout holds")
struct PasscodeLockoutTests {
    private let data = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-lockout-\(UUID())")
    private var folder: URL { data.appendingPathComponent("extensions/dev.kbhost.samples.passcode/passcodes") }
    private var record: URL { folder.appendingPathComponent("default.json") }

    struct Output: Decodable {
        struct Event: Decodable, Equatable { let name: String; let details: [String: String] }
        let document: String
        let events: [Event]
        let errors: [String]

        /// The events that tell what happened, without the keys received and the insecure-pad warning.
        var flow: [String] {
            events.filter { !["key received", "insecure"].contains($0.name) }
                .map { $0.details.isEmpty ? $0.name : "\($0.name) \($0.details.sorted { $0.key < $1.key }.map(\.value).joined(separator: ","))" }
        }
    }

    private func arguments(_ extra: [String]) throws -> [String] {
        ["run", try BuildProducts.sample("SecurePasscodeKeyboard"), "--data-dir", data.path,
         "--set", "options.shuffle=false", "--set", "options.scryptCost=12"] + extra
    }

    private func run(_ keys: String, _ extra: [String] = []) throws -> Output {
        try decode(Command.run(try BuildProducts.kbhost(), try arguments(extra + ["--type", keys])))
    }

    private func decode(_ result: Command.Result) throws -> Output {
        guard let output = try? JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8)) else {
            Issue.record("kbhost printed no JSON (status \(result.status)): \(result.standardError)")
            throw CancellationError()
        }
        return output
    }

    private func create() throws {
        #expect(try run("482915{done}482915{done}").flow.last == "passcode created default")
    }

    @Test func tenParallelWrongGuessesLockItOut() throws {
        try create()
        // Ten processes at once, each one wrong guess: a shell starts them all before waiting for any.
        let outputs = (0..<10).map { data.appendingPathComponent("guess-\($0).json").path }
        let command = try ([BuildProducts.kbhost()] + arguments(["--type", "111111{done}"])).map(Self.quoted).joined(separator: " ")
        let script = outputs.map { "\(command) > \(Self.quoted($0)) 2>/dev/null &" }.joined(separator: "\n") + "\nwait\n"
        let shell = try Command.run("/bin/sh", ["-c", script])
        #expect(shell.status == 0)
        let guesses = try outputs.map { try JSONDecoder().decode(Output.self, from: Data(contentsOf: URL(fileURLWithPath: $0))) }

        // Counted one by one: 4, 3, 2, 1 left, once each; every other guess finds the pad locked (when
        // it appears, or when its guess is checked).
        let remaining = guesses.flatMap { $0.events.filter { $0.name == "authentication failed" }.compactMap { $0.details["attemptsRemaining"] } }
        #expect(remaining.filter { $0 != "0" }.sorted() == ["1", "2", "3", "4"])
        #expect(guesses.filter { $0.flow.last == "locked out default" }.count == 6)
        // And the right passcode now is refused.
        #expect(try run("482915{done}").flow == ["locked out default"])
    }

    // Not under ThreadSanitizer (scripts/sanitize thread): its runtime writes a file as it starts
    // (MapRodata), which RLIMIT_FSIZE 0 forbids, and kbhost dies of SIGBUS before main.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["KBHOST_SANITIZER"] == "thread", "ThreadSanitizer cannot start under RLIMIT_FSIZE 0"))
    func aGuessWhoseCountCannotBeWrittenIsRefused() throws {
        try create()
        // No file may grow (RLIMIT_FSIZE 0; SIGXFSZ ignored, so write fails with EFBIG): the count
        // cannot be kept, so neither a wrong guess nor the right one is checked. In process: a child
        // process starts with SIGXFSZ's default action, and is killed by it (a fault, also refused).
        let command = try ([BuildProducts.kbhost()] + arguments(["--isolation", "in-process", "--type", "XXX"]))
            .map(Self.quoted).joined(separator: " ")
        for (guess, _) in [("111111", "wrong"), ("482915", "right")] {
            // The limit in a subshell of its own: kbhost's output goes through a pipe to cat, unlimited.
            let limited = "(trap '' XFSZ; ulimit -f 0; exec \(command.replacingOccurrences(of: "XXX", with: "\(guess){done}")) 2>/dev/null) | cat"
            let shell = try Command.run("/bin/sh", ["-c", limited])
            let output = try decode(shell)
            #expect(output.flow == ["usage changed authenticate", "authentication failed unknown"], "\(guess)")
            #expect(output.errors.count == 1)
            #expect(output.errors.first?.hasPrefix("cannot write the passcode record") == true, "\(output.errors)")
        }
        // The folder is writable again: nothing was counted, and the right passcode works.
        #expect(try run("482915{done}").flow.last == "authenticated default")
    }

    @Test func aRecordEditedByHandLocksOutInsteadOfUnlocking() throws {
        try create()
        for _ in 0..<5 { _ = try run("111111{done}") }
        #expect(try run("482915{done}").flow == ["locked out default"])
        // Unlock it by hand, as the attacker did before:
        let text = try String(contentsOf: record, encoding: .utf8)
        try text.replacingOccurrences(of: "\"lockedOut\":true", with: "\"lockedOut\":false")
            .replacingOccurrences(of: "\"failedAttempts\":5", with: "\"failedAttempts\":0")
            .write(to: record, atomically: true, encoding: .utf8)
        let output = try run("482915{done}")
        #expect(output.flow == ["locked out default"])
        #expect(output.errors == ["locked out: the record of 'default' was changed outside this keyboard; remove the passcodes folder to start again"])
    }

    @Test func aRecordOrKeyRemovedLocksOutInsteadOfResetting() throws {
        for (removed, reason) in [("default.json", "the record of 'default' was removed"), (".key", "the integrity key was removed"),
                                  (".enrolled.json", "the list of passcodes was removed")] {
            try? FileManager.default.removeItem(at: data)
            try create()
            try FileManager.default.removeItem(at: folder.appendingPathComponent(removed))
            let output = try run("123456{done}123456{done}")  // a new passcode, if the old were forgotten
            #expect(output.flow == ["locked out default"], "\(removed)")
            #expect(output.errors == ["locked out: \(reason) outside this keyboard; remove the passcodes folder to start again"])
        }
        // Records swapped between users do not pass either: each is sealed to its user.
        try? FileManager.default.removeItem(at: data)
        try create()
        #expect(try run("135790{done}135790{done}", ["--set", "options.user=mallory"]).flow.last == "passcode created mallory")
        try FileManager.default.removeItem(at: record)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("mallory.json"), to: record)
        #expect(try run("135790{done}").errors == ["locked out: the record of 'default' was changed outside this keyboard; remove the passcodes folder to start again"])
    }

    @Test func creatingOverAPasscodeIsRefused() throws {
        try create()
        let output = try run("123456{done}123456{done}", ["--set", "options.flow=create"])
        #expect(output.errors == ["'default' already has a passcode: change it with --set options.flow=change"])
        #expect(try run("482915{done}").flow.last == "authenticated default")
    }

    @Test func aPadThatDoesNotShuffleSaysSoOnEveryAppearance() throws {
        for _ in 0..<2 {
            let output = try run("")
            #expect(output.events.first == .init(name: "insecure", details: ["reason": "shuffling is off (options.shuffle=false): for scripted tests only"]))
        }
    }

    @Test func thePasscodeNeedNotBeInTheArguments() throws {
        let keys = data.appendingPathComponent("keys.txt")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "482915{done}482915{done}\n".write(to: keys, atomically: true, encoding: .utf8)
        let fromFile = try decode(Command.run(try BuildProducts.kbhost(), try arguments(["--type-file", keys.path])))
        #expect(fromFile.flow.last == "passcode created default")
        let fromInput = try decode(Command.run(try BuildProducts.kbhost(), try arguments(["--type", "-"]), input: "482915{done}\n"))
        #expect(fromInput.flow.last == "authenticated default")
        let both = try Command.run(try BuildProducts.kbhost(), try arguments(["--type", "1", "--type-file", keys.path]))
        #expect(both.status == 64)
        #expect(both.standardError.contains("give the keys either with --type or with --type-file, not both"))
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
