import BenchmarkSupport
import Foundation
import KeyboardExtension
import KeyboardHost
import KeyboardTesting

/// Whole-document walks in process (the SDK's reader and deleter through the C boundary, on a
/// KeyboardTestHost with no latency), beside the limit they could reach — one round trip per window
/// plus one copy of the text, both measured in the same run — and beside a fixed-sleep reader as the
/// commercial SDKs write one.
@MainActor
enum WalkBench {
    static let policies: [ContextPolicy] = [.characters(1024), .wayland, .sentence, .paragraph, .unlimited]

    enum Kind: String, CaseIterable {
        case read, delete
    }

    /// One walk, from its start to its result (the host's set-up excluded): a read from the middle,
    /// checked to give back the document; a delete from the end, checked to leave nothing.
    static func walk(_ kind: Kind, _ text: String, characters: Int, _ policy: ContextPolicy) async throws -> (Duration, Int) {
        let cursor = kind == .read ? characters / 2 : characters
        let host = try KeyboardTestHost(OneKeyKeyboard.self, document: text, cursor: cursor, policy: policy)
        try host.show()
        let keyboard = host.controller!
        let clock = ContinuousClock()
        let start = clock.now
        if kind == .read {
            let walk = host.startTask { try? await keyboard.readFullDocumentContext() }
            await host.settle()
            guard let context = await walk.value else { throw BenchError("the \(policy) read did not end") }
            let elapsed = start.duration(to: clock.now)
            guard context.fullDocumentContextBeforeInput + context.fullDocumentContextAfterInput == text, context.isExact
            else { throw BenchError("the \(policy) read was not exact") }
            host.hide()
            await host.settle()
            return (elapsed, context.roundTrips)
        }
        let walk = host.startTask { try? await keyboard.deleteFullDocumentContext() }
        await host.settle()
        guard let deletion = await walk.value else { throw BenchError("the \(policy) delete did not end") }
        let elapsed = start.duration(to: clock.now)
        guard host.document.isEmpty else { throw BenchError("the \(policy) delete left text") }
        host.hide()
        await host.settle()
        return (elapsed, deletion.roundTrips)
    }

    /// Copying the whole document out of the field once: the part of a walk's limit that is not
    /// round trips.
    static func copy(_ text: String, repetitions: Int) -> Duration {
        let field = TextField(text: text)
        let clock = ContinuousClock()
        var sample = Sample()
        for _ in 0..<repetitions {
            let start = clock.now
            let copied = field.text
            sample.add(start.duration(to: clock.now))
            precondition(copied.utf8.count == text.utf8.count)
        }
        return sample.min
    }

    static func run(sizes: [Int], policies: [ContextPolicy], repetitions: Int, hop: Duration) async throws -> [Report.Walk] {
        var walks: [Report.Walk] = []
        for bytes in sizes {
            let text = numberedDocument(bytes: bytes)
            let characters = text.count
            let copy = copy(text, repetitions: 5)
            for policy in policies {
                for kind in Kind.allCases {
                    var sample = Sample()
                    var trips = 0
                    for _ in 0..<repetitions {
                        let (elapsed, roundTrips) = try await walk(kind, text, characters: characters, policy)
                        sample.add(elapsed)
                        trips = roundTrips
                    }
                    let limit = hop * trips + copy
                    walks.append(Report.Walk(
                        kind: kind.rawValue, policy: policy.description, bytes: bytes, roundTrips: trips,
                        minMilliseconds: sample.min.milliseconds, medianMilliseconds: sample.median.milliseconds,
                        limitMilliseconds: limit.milliseconds, ratioToLimit: sample.median / limit
                    ))
                    progress("walk \(kind) \(policy) \(bytes >> 10) KiB: \(format(sample.median))")
                }
            }
        }
        return walks
    }

    /// The fixed-sleep reader (0.02 s a step, KeyboardKit Pro's fast setting) beside ours on the
    /// same document: its time is on the host's clock, what it would take on a device; ours is this
    /// machine's.
    static func anchor(bytes: Int, walks: [Report.Walk]) async throws -> [Report.Anchor] {
        let text = numberedDocument(bytes: bytes)
        var anchors: [Report.Anchor] = []
        for policy in [ContextPolicy.wayland, .sentence] {
            let cursor = text.count / 2
            let host = try KeyboardTestHost(OneKeyKeyboard.self, document: text, cursor: cursor, policy: policy)
            try host.show()
            let keyboard = host.controller!
            let reading = await host.runToCompletion { try? await FixedSleepReader.fast.read(keyboard) }
            guard let reading = reading.flatMap({ $0 }) else { throw BenchError("the fixed-sleep reader did not end") }
            host.hide()
            await host.settle()
            guard let ours = walks.first(where: { $0.kind == Kind.read.rawValue && $0.policy == policy.description && $0.bytes == bytes }) else { continue }
            anchors.append(Report.Anchor(
                policy: policy.description, bytes: bytes, steps: reading.steps,
                hostClockMilliseconds: reading.elapsed.milliseconds, exact: reading.before + reading.after == text,
                oursMilliseconds: ours.medianMilliseconds, ratio: reading.elapsed.milliseconds / ours.medianMilliseconds
            ))
            progress("fixed-sleep reader \(policy) \(bytes >> 10) KiB: \(reading.steps) steps")
        }
        return anchors
    }

    /// Loading a document: checking its bytes are UTF-8, and putting it into a field (a rope).
    static func load(bytes: Int, repetitions: Int) throws -> [Report.Load] {
        let text = numberedDocument(bytes: bytes)
        let data = Data(text.utf8)
        let clock = ContinuousClock()
        var check = Sample(), field = Sample(), count = Sample()
        for _ in 0..<repetitions {
            var start = clock.now
            let checked = try DocumentFile.text(of: data, path: "bench")
            check.add(start.duration(to: clock.now))
            start = clock.now
            let loaded = TextField(text: checked)
            field.add(start.duration(to: clock.now))
            // The floor of any field that counts Characters: the standard library's own count of
            // the Characters of a native String, the grapheme breaking BigString's loading pays too.
            start = clock.now
            let characters = checked.count
            count.add(start.duration(to: clock.now))
            precondition(loaded.count == characters)
        }
        let megabytes = Double(data.count) / 1e6
        return [
            Report.Load(step: "UTF-8 check", bytes: data.count, milliseconds: check.min.milliseconds, megabytesPerSecond: megabytes / (check.min.milliseconds / 1e3)),
            Report.Load(step: "into a text field", bytes: data.count, milliseconds: field.min.milliseconds, megabytesPerSecond: megabytes / (field.min.milliseconds / 1e3)),
            Report.Load(step: "String.count (the floor)", bytes: data.count, milliseconds: count.min.milliseconds, megabytesPerSecond: megabytes / (count.min.milliseconds / 1e3)),
        ]
    }
}

func progress(_ line: String) {
    FileHandle.standardError.write(Data("bench: \(line)\n".utf8))
}

func format(_ duration: Duration) -> String {
    let ms = duration.milliseconds
    return ms >= 100 ? String(format: "%.0f ms", ms) : ms >= 1 ? String(format: "%.2f ms", ms) : String(format: "%.1f µs", ms * 1e3)
}
