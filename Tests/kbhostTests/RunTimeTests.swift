import Foundation
import Testing
import TestSupport

/// `kbhost run` on virtual time: timers and latency take no real time, the run ends when the host is
/// quiet, and `--advance` moves the clock on.
@Suite("kbhost run, on virtual time")
struct RunTimeTests {
    private struct Output: Decodable {
        struct Action: Decodable {
            let succeeded: Bool
            let error: String?
            let roundTrips, deletedCharacters: Int?
            let before, after: Text?
        }
        /// A text, or its length and digest when long.
        enum Text: Decodable, Equatable {
            case text(String)
            case digest(characters: Int, sha256: String)

            init(from decoder: any Decoder) throws {
                if let text = try? decoder.singleValueContainer().decode(String.self) {
                    self = .text(text)
                    return
                }
                struct Digest: Decodable { let characters: Int; let sha256: String }
                let digest = try Digest(from: decoder)
                self = .digest(characters: digest.characters, sha256: digest.sha256)
            }
        }
        let document: Text
        let actions: [Action]
    }

    private func run(_ arguments: [String]) throws -> (Command.Result, Output?) {
        let result = try Command.run(try BuildProducts.kbhost(), ["run"] + arguments)
        return (result, try? JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8)))
    }

    @Test func aTimerStillToComeIsLeftAloneUnlessTheClockIsMovedOn() throws {
        // The fixture's "b" types b and sets a timer to type "!" 500 ms later.
        let path = try CFixture.build("runTimer", defines: ["FIXTURE_CONTRACT"])
        let (_, left) = try run([path, "--allow-unlicensed", "--type", "b"])
        #expect(left?.document == .text("b"))
        let (_, short) = try run([path, "--allow-unlicensed", "--type", "b", "--advance", "499ms"])
        #expect(short?.document == .text("b"))
        let (_, enough) = try run([path, "--allow-unlicensed", "--type", "b", "--advance", "0.5s"])
        #expect(enough?.document == .text("b!"))
    }

    @Test func latencyAndACommandTimeoutTakeNoRealTime() throws {
        // 200 steps at 1 s of latency each, then a command the fixture never answers: 120 s of host time.
        let path = try CFixture.build("runLatency", defines: ["FIXTURE_CONTRACT"])
        let started = ContinuousClock.now
        let (result, output) = try run([
            path, "--allow-unlicensed", "--text", String(repeating: "x", count: 200), "--cursor", "0",
            "--latency", "1000", "--action", "read-full-document",
        ])
        #expect(result.status == 0)
        #expect(output?.actions.first?.succeeded == true)
        let silent = try CFixture.build("runSilent", defines: ["FIXTURE_SILENT"])
        let (timedOut, answer) = try run([silent, "--allow-unlicensed", "--action", "delete-full-document"])
        #expect(timedOut.status == 1)
        #expect(answer?.actions.first?.error == "timedOut")
        #expect(answer?.actions.first?.deletedCharacters == 0)
        // Both runs together took far less real time than the 320 s of host time they spent.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aWalkOfThousandsOfRoundTripsReadsAndDeletesExactly() throws {
        // Every window one Character long: a round trip per Character, each way.
        let atoms = ["a", "👩‍👩‍👧", "é", "🇫🇷", "\r\n", "日", " ", "👍🏽", "x\u{301}"]
        var text = ""
        for index in 0..<6_000 { text += atoms[(index * 7 + index / 3) % atoms.count] }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-walk-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let cursor = text.count / 3
        let (result, output) = try run([
            try BuildProducts.sample("QwertyKeyboard"), "--document", file.path, "--cursor", "\(cursor)",
            "--policy", "characters:1", "--text-limit", "0",
            "--action", "read-full-document", "--action", "delete-full-document",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let read = try #require(output?.actions.first)
        #expect(read.before == .text(String(text.prefix(cursor))))
        #expect(read.after == .text(String(text.dropFirst(cursor))))
        #expect((read.roundTrips ?? 0) >= text.count - cursor)  // forward: one a Character; backward, two
        let delete = try #require(output?.actions.last)
        #expect(delete.deletedCharacters == text.count)
        #expect(output?.document == .text(""))
    }
}

/// `kbhost run` with an extension that fails: isolated, the field as it was and the fault, exit 70; in
/// process, what a crash does to a host that shares its process.
@Suite("kbhost run, with a keyboard that fails")
struct RunFaultTests {
    struct Output: Decodable {
        let document: String
        let fault: String?
    }

    @Test(arguments: [
        ("FIXTURE_FAULT_SEGV", "keep a", "C Keyboard crashed (SIGSEGV) during key_event"),
        ("FIXTURE_FAULT_ABORT", "keep ab", "C Keyboard crashed (SIGABRT) during update_snapshot"),
        ("FIXTURE_FAULT_EXIT", "keep a", "C Keyboard exited with status 3 during key_event"),
        ("FIXTURE_FAULT_GARBAGE", "keep a", "C Keyboard sent a malformed message during key_event (unknown message kind 238); the host stopped it"),
        ("FIXTURE_FAULT_ERRORS", "keep a", "C Keyboard flooded the host during key_event (more than 200000 calls without a pause); the host stopped it"),
    ])
    func isolatedTheFieldIsPrintedWithTheFault(_ macro: String, _ document: String, _ line: String) throws {
        let fixture = try CFixture.build("run-\(macro)", defines: [macro])
        let result = try Command.run(try BuildProducts.kbhost(), ["run", fixture, "--allow-unlicensed", "--text", "keep ", "--type", "ab"])
        #expect(result.status == 70)
        let output = try JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8))
        #expect(output.document == document)
        #expect(output.fault == line)
        #expect(result.standardError.contains("kbhost: error: \(line)\n"))
        // A flood of errors is counted, not printed: the first 20, then how many more.
        #expect(result.standardError.split(separator: "\n").count < 30)
    }

    @Test func aSwiftFatalErrorIsPrintedWithTheRuntimesMessage() throws {
        let result = try Command.run(try BuildProducts.kbhost(), [
            "run", try BuildProducts.sample("FaultyKeyboard"), "--allow-unlicensed", "--text", "keep ", "--type", "aF",
        ])
        #expect(result.status == 70)
        #expect(try JSONDecoder().decode(Output.self, from: Data(result.standardOutput.utf8)).document == "keep a")
        #expect(result.standardError.contains("""
            kbhost: error: Faulty Keyboard crashed (SIGILL) during key_event
            kbhost: Faulty Keyboard's last output:
              | FaultyKeyboard/FaultyKeyboard.swift:20: Fatal error: FaultyKeyboard gave up on F

            """))
    }

    @Test func anExtensionOverTheMemoryLimitIsStoppedAndWithoutALimitRuns() throws {
        let fixture = try CFixture.build("run-memory", defines: ["FIXTURE_FAULT_MEMORY"])  // keeps 200 MB on a key
        let arguments = ["run", fixture, "--allow-unlicensed", "--text", "keep ", "--type", "ab"]
        let limited = try Command.run(try BuildProducts.kbhost(), arguments + ["--memory-limit", "64"])
        #expect(limited.status == 70)
        let output = try JSONDecoder().decode(Output.self, from: Data(limited.standardOutput.utf8))
        #expect(output.fault == "C Keyboard went over its memory limit of 64 MB during key_event; the host stopped it")
        #expect(output.document.hasPrefix("keep "))

        let unlimited = try Command.run(try BuildProducts.kbhost(), arguments)
        #expect(unlimited.status == 0, "\(unlimited.standardError)")
        #expect(try JSONDecoder().decode(Output.self, from: Data(unlimited.standardOutput.utf8)).document == "keep ab")

        let inProcess = try Command.run(try BuildProducts.kbhost(), arguments + ["--memory-limit", "64", "--isolation", "in-process"])
        #expect(inProcess.status == 64)
        #expect(inProcess.standardError.contains("--memory-limit needs each extension in a process of its own"))
    }

    @Test func inProcessACrashTakesTheHostWithIt() throws {
        let fixture = try CFixture.build("run-inprocess-segv", defines: ["FIXTURE_FAULT_SEGV"])
        let result = try Command.run(try BuildProducts.kbhost(), [
            "run", fixture, "--isolation", "in-process", "--allow-unlicensed", "--text", "keep ", "--type", "ab",
        ])
        #expect(result.status == 139)  // SIGSEGV: nothing printed, nothing kept — why process isolation is the default
        #expect(result.standardOutput.isEmpty)
    }
}
