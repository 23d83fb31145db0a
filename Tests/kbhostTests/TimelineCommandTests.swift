import Foundation
import Testing
import TestSupport

/// `kbhost run --action … --timeline FILE`: the walk drawn, read back from the SVG as a user reads the
/// picture — where the caret went, what the windows showed, when each snapshot came.
@Suite("kbhost run --timeline")
struct TimelineCommandTests {
    private let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("timeline")
    }

    /// A document of sentences with Characters of several scalars and UTF-16 pairs in them, and its
    /// length in Characters.
    private func document() throws -> (path: String, characters: Int) {
        let sentence = "Le café est prêt 👍🏽. Die Straße 🇫🇷 ist naß! Is e\u{301}clair ready? "
        let text = String(repeating: sentence, count: 12) + "\nLast line 👨‍👩‍👧"
        let path = folder.appendingPathComponent("doc.txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, text.count)
    }

    private struct Run {
        let result: Command.Result
        let json: [String: Any]
        let timeline: RenderedTimeline
        let svg: String

        var actions: [[String: Any]] { json["actions"] as? [[String: Any]] ?? [] }
    }

    private func run(_ arguments: [String], drawing name: String = "walk.svg") throws -> Run {
        let path = folder.appendingPathComponent(name).path
        let result = try Command.run(try BuildProducts.kbhost(), ["run", try BuildProducts.sample("QwertyKeyboard"), "--timeline", path] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any] ?? [:]
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        return Run(result: result, json: json, timeline: try RenderedTimeline.read(svg), svg: svg)
    }

    /// A read from the middle: the picture starts where the caret was, its windows cover every
    /// Character of the document and none lies outside it or is wider than the policy lets it be, and
    /// each round trip costs one latency on the host's clock, as many trips as the extension counted.
    @Test(arguments: ["process", "in-process"])
    func aReadIsDrawnTripByTrip(isolation: String) throws {
        let (path, characters) = try document()
        let drawn = try run([
            "--document", path, "--cursor", "300", "--policy", "characters:40", "--latency", "20",
            "--action", "read-full-document", "--isolation", isolation,
        ])
        let action = try #require(drawn.actions.first)
        #expect(action["succeeded"] as? Bool == true)
        let trips = try #require(action["roundTrips"] as? Int)
        let columns = drawn.timeline.columns(of: 0)
        #expect(columns.first?.kind == "start" && columns.first?.selection == 300..<300)
        #expect(columns.count == trips + 1, "a start and a column per round trip")
        #expect(columns.allSatisfy { $0.length == characters && $0.window.upperBound <= characters })
        #expect(columns.dropFirst().allSatisfy { $0.window.count <= 80 }, "characters:40 shows at most 40 each side")
        var seen = IndexSet()
        columns.forEach { seen.insert(integersIn: $0.window) }
        #expect(seen == IndexSet(integersIn: 0..<characters), "a read that saw every Character")
        #expect(columns.map(\.timeNanoseconds) == columns.indices.map { Int64($0) * 20_000_000 })
        let milliseconds = trips * 20
        let took = milliseconds < 1000 ? "\(milliseconds) ms" : String(format: "%g s", Double(milliseconds) / 1000)
        #expect(drawn.timeline.captions.last?.hasPrefix("1. read-full-document: \(trips) round trips, \(took) on the host's clock, succeeded") == true,
                "\(drawn.timeline.captions)")
    }

    /// The same walk draws the same picture, in a child process or in kbhost's own: the host's clock,
    /// not the machine's, times it.
    @Test func theSameWalkDrawsTheSamePicture() throws {
        let (path, _) = try document()
        let arguments = ["--document", path, "--policy", "sentence", "--platform", "ios", "--action", "read-full-document"]
        let isolated = try run(arguments + ["--isolation", "process"], drawing: "a.svg")
        let inProcess = try run(arguments + ["--isolation", "in-process"], drawing: "b.svg")
        #expect(isolated.svg == inProcess.svg)
        #expect(isolated.timeline.columns.count > 10)
    }

    /// Why a policy costs what it costs: wider windows, fewer trips, less time.
    @Test func widerWindowsTakeFewerTrips() throws {
        let (path, _) = try document()
        let trips = try [10, 100, 1000].map { width in
            let drawn = try run(["--document", path, "--policy", "characters:\(width)", "--latency", "20", "--action", "read-full-document"])
            return (drawn.timeline.columns.count - 1, drawn.timeline.columns.last?.timeNanoseconds ?? -1)
        }
        #expect(trips[0].0 > trips[1].0 && trips[1].0 > trips[2].0, "\(trips)")
        #expect(trips.allSatisfy { $0.1 == Int64($0.0) * 20_000_000 }, "\(trips)")
    }

    /// A read then a delete: two commands, one after the other; the delete's document only shrinks,
    /// to nothing, and the caret never leaves it.
    @Test func aDeleteShrinksTheDocument() throws {
        let (path, characters) = try document()
        let drawn = try run([
            "--document", path, "--cursor", "100", "--action", "read-full-document", "--action", "delete-full-document",
        ])
        let read = drawn.timeline.columns(of: 0), delete = drawn.timeline.columns(of: 1)
        #expect(!read.isEmpty && !delete.isEmpty && read.count + delete.count == drawn.timeline.columns.count)
        #expect(delete.first!.first == read.last!.last + 1)
        let lengths = delete.map(\.length)
        #expect(lengths.first == characters && lengths.last == 0)
        #expect(zip(lengths, lengths.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(delete.allSatisfy { $0.selection.upperBound <= $0.length })
        #expect(drawn.timeline.captions.count == 2 && drawn.timeline.captions[1].hasPrefix("2. delete-full-document: "))
        #expect(drawn.json["document"] as? String == "")
    }

    /// Extensions that misbehave are drawn as the host saw them, and the picture is still written: one
    /// that miscounts its trips (the host's count stands, the extension's beside it), one that never
    /// answers (timed out on the host's clock), one that crashes before the walk.
    @Test func aMisbehavingWalkIsDrawnAsTheHostSawIt() throws {
        let kbhost = try BuildProducts.kbhost()
        let picture = folder.appendingPathComponent("hostile.svg").path
        let drawn = { (path: String, arguments: [String]) throws -> (Command.Result, RenderedTimeline) in
            let result = try Command.run(kbhost, ["run", path, "--allow-unlicensed", "--action", "read-full-document", "--timeline", picture] + arguments)
            return (result, try RenderedTimeline.read(try String(contentsOfFile: picture, encoding: .utf8)))
        }

        let (counted, miscounted) = try drawn(try CFixture.build("timeline-contract", defines: ["FIXTURE_CONTRACT"]), ["--text", "abcdef", "--cursor", "0"])
        #expect(counted.status == 0, "\(counted.standardError)")
        #expect(miscounted.columns(of: 0).map(\.selection.lowerBound) == [0, 1, 2, 3, 4, 5, 6])
        #expect(miscounted.captions.first?.hasPrefix("1. read-full-document: 6 round trips (the extension counted 1), 0 s on the host's clock, succeeded") == true,
                "\(miscounted.captions)")

        let (silent, unanswered) = try drawn(try CFixture.build("timeline-silent", defines: ["FIXTURE_SILENT"]), [])
        #expect(silent.status == 1)
        #expect(unanswered.captions.first?.hasPrefix("1. read-full-document: 0 round trips, 120 s on the host's clock, failed") == true,
                "\(unanswered.captions)")

        let (crashed, ended) = try drawn(try CFixture.build("timeline-segv", defines: ["FIXTURE_FAULT_SEGV"]), ["--type", "b"])
        #expect(crashed.status == 70)
        #expect(ended.captions.first?.hasPrefix("1. read-full-document: 0 round trips, 0 s on the host's clock, failed") == true, "\(ended.captions)")
    }

    /// A timeline needs a walk to draw, and a place to be written; each refusal is one line, before
    /// anything runs.
    @Test func refusalsAreOneLine() throws {
        let kbhost = try BuildProducts.kbhost(), sample = try BuildProducts.sample("QwertyKeyboard")
        let noAction = try Command.run(kbhost, ["run", sample, "--timeline", folder.appendingPathComponent("t.svg").path])
        #expect(noAction.status == 64)
        #expect(noAction.standardError.hasPrefix("kbhost: error: --timeline draws the walks of --action; give one, e.g. --action read-full-document"))
        let nowhere = folder.appendingPathComponent("missing/t.svg").path
        let missing = try Command.run(kbhost, ["run", sample, "--type", "hi", "--action", "read-full-document", "--timeline", nowhere])
        #expect(missing.status == 64 && missing.standardOutput.isEmpty)
        #expect(missing.standardError == "kbhost: error: --timeline '\(nowhere)': its folder '\(folder.appendingPathComponent("missing").path)' does not exist; create it or give another path\n")
        // A folder for a file: refused before the walk, not after it with its result unprinted.
        let aFolder = try Command.run(kbhost, ["run", sample, "--action", "read-full-document", "--timeline", folder.path])
        #expect(aFolder.status == 64 && aFolder.standardOutput.isEmpty)
        #expect(aFolder.standardError == "kbhost: error: --timeline '\(folder.path)': it is a folder; give a file's path\n")
    }
}
