import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import KeyboardHost
import KeyboardModel
import PropertyBased
import Testing

/// The isolation wire's codec: every message both ways comes back as it went, and nothing a child can
/// send — cut short, padded, one byte changed, or noise — crashes the host: it decodes or it is a
/// ``WireError`` (which the host reports as a malformed message and stops the child).
@Suite("The isolation wire's codec")
struct WireCodecTests {
    static let text = "héllo 👩‍👩‍👧 🇫🇷 \u{0}\n漢字 e\u{301}"

    static let toExtension: [ToExtension] = [
        .load(library: "/tmp/lib\(text).so", sha256: String(repeating: "ab", count: 32), wireVersion: Wire.version),
        .loadClass(mangledName: "20KeyboardTestingTests14WalkerKeyboardC", identifier: "dev.x", name: text, wireVersion: Wire.version),
        .createInstance(settingsJSON: "{\"options\":{\"a\":\"\(text)\"}}"),
        .createConfiguration,
        .lifecycle(3),
        .textInput(1),
        .snapshot(Snapshot(
            sequence: 42, contextBefore: text, contextAfter: String(repeating: "x", count: 5000), selectedText: "",
            documentIdentifier: UUID(), hasText: true, traits: TextInputTraits(), operationsApplied: 7, selection: 3..<9,
            platform: .exact
        )),
        .snapshot(Snapshot(
            sequence: 43, contextBefore: "", contextAfter: text, selectedText: text,
            documentIdentifier: UUID(), hasText: true, traits: TextInputTraits(), operationsApplied: 8, selection: nil,
            platform: .android
        )),
        .keyEvent(.tap(KeyPosition(subKeyboard: 1, row: 2, column: 3))),
        .keyEvent(KeyEvent(.up, at: KeyPosition(subKeyboard: 0, row: 1, column: 2), callout: 3, dragX: -5, dragY: 2)),
        .keyEvent(KeyEvent(.repeat, at: KeyPosition(subKeyboard: 0, row: 3, column: 0), repeatCount: 17)),
        .hostCommand(command: 4, request: .max),
        .cancelCommand(request: 9),
        .fireTimer(token: 11),
        .destroyInstance,
        .barrier,
    ]

    static let fromExtension: [FromExtension] = [
        .reply(sequence: 5, status: -1, payload: Array(text.utf8)),
        .call(.post(.insertText(text))),
        .call(.post(.deleteBackward)),
        .call(.post(.adjustTextPosition(byCharacterOffset: -12))),
        .call(.post(.setMarkedText("かな", selectedRange: 0..<2))),
        .call(.post(.unmarkText)),
        .call(.post(.setSelectedRange(2..<5, ifSnapshot: 3))),
        .call(.post(.deleteRange(0..<1, ifSnapshot: 0))),
        .call(.request(.advanceToNextInputMode)),
        .call(.request(.dismissKeyboard)),
        .call(.request(.playInputClick)),
        .call(.reportError(text)),
        .call(.commandFinished(request: 8, succeeded: true, json: "{}")),
        .call(.setKeyboardState(KeyboardState(subKeyboard: 1, shift: .capsLock))),
        .call(.setLayout(json: "{\"subKeyboards\":[]}")),
        .call(.reportEvent(json: "{\"name\":\"\(text)\"}")),
        .scheduleTimer(token: 3, delayNanoseconds: 800_000_000, repeats: true, label: text),
        .cancelTimer(token: 3),
        .idle(sequence: 99),
    ]

    static var encodedFromExtension: [[UInt8]] { fromExtension.map(WireCodec.encode) }

    @Test func everyMessageFromTheHostComesBackAsItWent() throws {
        for message in Self.toExtension {
            let numbered = NumberedMessage(sequence: 17, nowNanoseconds: 123_456_789, message: message)
            #expect(try WireCodec.decodeToExtension(WireCodec.encode(numbered)) == numbered)
        }
    }

    @Test func everyMessageFromAnExtensionComesBackAsItWent() throws {
        for message in Self.fromExtension {
            #expect(try WireCodec.decodeFromExtension(WireCodec.encode(message)) == message)
        }
    }

    @Test func aMessageCutShortOrWithBytesToSpareIsMalformed() {
        for bytes in Self.encodedFromExtension {
            for length in 0..<bytes.count {
                #expect(throws: WireError.self) { try WireCodec.decodeFromExtension(Array(bytes.prefix(length))) }
            }
            #expect(throws: WireError.self) { try WireCodec.decodeFromExtension(bytes + [0]) }
        }
    }

    @Test func oneByteChangedDecodesOrIsMalformedAndNeverCrashes() async {
        let encoded = Self.encodedFromExtension
        await propertyCheck(count: 3000, input: Gen.int(in: 0...(encoded.count - 1)), Gen.int(in: 0...10_000), Gen.uint8()) { which, at, byte in
            var bytes = encoded[which]
            bytes[at % bytes.count] = byte
            do {
                _ = try WireCodec.decodeFromExtension(bytes)
            } catch let error as WireError {
                #expect(!error.description.isEmpty)  // what the fault line will say
            } catch {
                Issue.record("not a WireError: \(error)")
            }
        }
    }

    @Test func noiseDecodesOrIsMalformedAndNeverCrashes() async {
        await propertyCheck(count: 3000, input: Gen.uint8().array(of: 0...300)) { bytes in
            // A decoded message says again exactly what it was decoded from: nothing is guessed.
            if let message = try? WireCodec.decodeFromExtension(bytes) {
                #expect(WireCodec.encode(message) == bytes)
            }
            if let numbered = try? WireCodec.decodeToExtension(bytes) {
                #expect(WireCodec.encode(numbered) == bytes)
            }
        }
    }

    /// A host's end and a child's, as ExtensionProcess makes them: a pipe each way and the doorbell
    /// (its read end returned, to look at); the child's raw descriptor to the host, to write past the
    /// channel.
    private func channels() throws -> (host: WireChannel, child: WireChannel, doorbell: Int32, toHost: Int32) {
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            pipes.append(ends)
        }
        let (toChild, toHost, bell) = (pipes[0], pipes[1], pipes[2])
        for end in bell { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        let listening = dup(bell[0])  // the channel owns its descriptors; the test looks at a copy
        let host = WireChannel(reading: toHost[0], writing: toChild[1], listening: Doorbell(fd: bell[0]))
        let child = WireChannel(reading: toChild[0], writing: toHost[1], ringing: Doorbell(fd: bell[1]))
        return (host, child, listening, toHost[1])
    }

    /// Whether the doorbell has rung since it was last drained (taken now), looking without waiting.
    private func rang(_ doorbell: Int32) -> Bool {
        var byte: UInt8 = 0
        var any = false
        while read(doorbell, &byte, 1) == 1 { any = true }
        return any
    }

    @Test func aLengthLongerThanTheHostTakesIsRefusedBeforeItIsRead() throws {
        let (host, child, _, toHost) = try channels()
        defer { withExtendedLifetime(child) {} }  // it owns the descriptor written to past it
        // A frame is its 64-bit little-endian length, then the bytes.
        #expect(Array(WireCodec.frame([1, 2, 3]).prefix(8)) == [3, 0, 0, 0, 0, 0, 0, 0])
        // 2^62 bytes announced, none sent: refused from the length alone, not waited for.
        let header: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0x40]
        #expect(header.withUnsafeBytes { Glibc.write(toHost, $0.baseAddress, 8) } == 8)
        #expect(host.read(until: .now + .seconds(60)) == .failure(.tooLarge(1 << 62)))
    }

    @Test func theChildRingsForWhatTheHostDoesNotWaitForAndOnlyThen() throws {
        let (host, child, doorbell, _) = try channels()
        // Unasked (an idle after a posted message): the ring comes with the frame.
        #expect(child.write([1], timeout: .seconds(60)))
        #expect(rang(doorbell))
        #expect(host.read(until: .now + .seconds(60)) == .success([1]))
        // While the host waits for an answer it reads itself: no ring, no wake-up.
        child.peerIsWaiting = true
        #expect(child.write([2], timeout: .seconds(60)))
        #expect(!rang(doorbell))
        #expect(host.read(until: .now + .seconds(60)) == .success([2]))
        // Held frames ring once, when they go.
        child.peerIsWaiting = false
        child.hold()
        #expect(child.write([3], timeout: .seconds(60)) && child.write([4], timeout: .seconds(60)))
        #expect(!rang(doorbell))
        #expect(child.release(timeout: .seconds(60)))
        #expect(rang(doorbell))
        #expect(host.read(until: .now + .seconds(60)) == .success([3]))
        #expect(host.read(until: .now + .seconds(60)) == .success([4]))
    }

    @Test func aFrameLargerThanThePipeRingsBeforeItWaitsForRoom() throws {
        let (host, child, doorbell, _) = try channels()
        let large = [UInt8](repeating: 7, count: 1 << 20)  // a pipe holds 64 KiB unless enlarged
        // The child writes on a thread of its own, as a child process would: a task would need a
        // thread of the cooperative pool, which this test (blocked in poll) and others may all be
        // holding — under AddressSanitizer on 2 cores the writer never started, and poll gave up.
        let writer = child
        let written = Locked<Bool?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            written.withLock { $0 = writer.write(large, timeout: .seconds(60)) }
            finished.signal()
        }.start()
        // The host, not waiting, learns of it from the doorbell while the child waits for room: it
        // rang before the frame was whole, or the two would wait for each other.
        var bell = pollfd(fd: doorbell, events: Int16(POLLIN), revents: 0)
        #expect(poll(&bell, 1, 60_000) == 1)
        #expect(host.read(until: .now + .seconds(60)) == .success(large))
        finished.wait()
        #expect(written.withLock { $0 } == true)
    }

    @Test func heldFramesGoTogetherInOrderWhenReleasedAndNotBefore() throws {
        let (reader, writer, _, _) = try channels()
        writer.hold()
        for payload in [[1], [2, 2], [3, 3, 3]] as [[UInt8]] {
            #expect(writer.write(payload, timeout: .seconds(60)))
        }
        // A write to a pipe is in the reader's buffer when it returns: nothing there means nothing sent.
        #expect(reader.read(until: .now) == nil)
        #expect(writer.release(timeout: .seconds(60)))
        #expect(reader.read(until: .now + .seconds(60)) == .success([1]))
        #expect(reader.read(until: .now + .seconds(60)) == .success([2, 2]))
        #expect(reader.read(until: .now + .seconds(60)) == .success([3, 3, 3]))
        // Not holding any more: a frame goes at once.
        #expect(writer.write([4], timeout: .seconds(60)))
        #expect(reader.read(until: .now + .seconds(60)) == .success([4]))
    }
}
