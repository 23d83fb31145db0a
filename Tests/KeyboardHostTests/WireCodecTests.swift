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
            documentIdentifier: UUID(), hasText: true, traits: TextInputTraits(), operationsApplied: 7, selection: 3..<9
        )),
        .keyEvent(action: 2, position: KeyPosition(subKeyboard: 1, row: 2, column: 3)),
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

    /// Two ends of a real socket pair.
    private func channels() throws -> (WireChannel, WireChannel) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (WireChannel(fd: fds[0]), WireChannel(fd: fds[1]))
    }

    @Test func aLengthLongerThanTheHostTakesIsRefusedBeforeItIsRead() throws {
        let (reader, writer) = try channels()
        // A frame is its 64-bit little-endian length, then the bytes.
        #expect(Array(WireCodec.frame([1, 2, 3]).prefix(8)) == [3, 0, 0, 0, 0, 0, 0, 0])
        // 2^62 bytes announced, none sent: refused from the length alone, not waited for.
        let header: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0x40]
        #expect(header.withUnsafeBytes { Glibc.send(writer.fd, $0.baseAddress, 8, 0) } == 8)
        #expect(reader.read(until: .now + .seconds(60)) == .failure(.tooLarge(1 << 62)))
    }

    @Test func heldFramesGoTogetherInOrderWhenReleasedAndNotBefore() throws {
        let (reader, writer) = try channels()
        writer.hold()
        for payload in [[1], [2, 2], [3, 3, 3]] as [[UInt8]] {
            #expect(writer.write(payload, timeout: .seconds(60)))
        }
        // A write to a socket pair is in the peer's buffer when it returns: nothing there means nothing sent.
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
