import Foundation
import KeyboardTesting
import Testing
import TestSupport

/// The ABI's contract as the header writes it (sections 3, 8 and 9), held against an extension written
/// in C: calls from another thread, timers on the host's clock, calls during and after
/// destroy_instance, a walk the keyboard is hidden in the middle of, a command that is never answered.
@Suite("The ABI's contract, with a C extension")
@MainActor
struct ABIContractTests {
    /// The fixture's counters (`fixture_counters` in c_extension.c), read from its image.
    struct Counters {
        var timersFired: Int32
        var timersFiredAfterDestroy: Int32
        var walkSteps: Int32
        var cancelledCommands: Int32
        var destroyed: Int32
    }

    /// Each test builds its own copy of the fixture (a name of its own), so its counters are its own.
    private func contract(_ name: String, _ defines: [String] = ["FIXTURE_CONTRACT"], document: String = "",
                          latency: Duration = .zero) throws -> (KeyboardTestHost, () -> Counters) {
        let path = try CFixture.build(name, defines: defines)
        // In process: the counters are read from the image the host loaded.
        let host = try KeyboardTestHost(extensionAt: path, document: document, latency: latency, isolation: .inProcess)
        let image = try #require(dlopen(path, RTLD_NOW | RTLD_NOLOAD))
        let counters = try #require(dlsym(image, "fixture_counters")).assumingMemoryBound(to: Counters.self)
        return (host, { counters.pointee })
    }

    @Test func aCallFromAnotherThreadIsMovedToTheMainQueueAndWaitedFor() async throws {
        let (host, _) = try contract("contract-thread")
        try host.show()
        try host.tap("a")  // the fixture inserts "t" from a thread of its own
        await host.settle()
        #expect(host.document == "t")
        try await host.type("aa")
        #expect(host.document == "ttt")
        try host.assertQuiet()
    }

    @Test func aTimerFollowsTheHostsClockExactly() async throws {
        let (host, counters) = try contract("contract-timer")
        try host.show()
        try host.tap("b")  // types "b" and sets timer 7: "!" in 500 ms
        await host.settle()
        #expect(host.document == "b")
        #expect(host.scheduler.pendingTimers.map(\.label) == ["C Keyboard timer 7"])
        #expect(throws: KeyboardTestHostError.notQuiet(["timer C Keyboard timer 7, due at 0.5 seconds"])) {
            try host.assertQuiet()
        }
        await host.advance(by: .milliseconds(499))
        #expect(host.document == "b")
        await host.advance(by: .milliseconds(1))
        #expect(host.document == "b!")
        #expect(counters().timersFired == 1)
        try host.assertQuiet()
    }

    @Test func nothingOfAnInstanceIsAppliedOrFiredOnceItIsDestroyed() async throws {
        let (host, counters) = try contract("contract-destroy")
        try host.show()
        try host.tap("b")  // timer 7 pending
        await host.settle()
        host.hide()  // destroy_instance inserts "late" from a thread and sets timer 99
        await host.advance(by: .seconds(10))
        #expect(host.document == "b")
        #expect(counters().destroyed == 1)
        #expect(counters().timersFired == 0)
        #expect(counters().timersFiredAfterDestroy == 0)
        #expect(host.scheduler.pendingTimers.isEmpty)
        try host.assertQuiet()
    }

    @Test func hidingDuringAWalkAnswersItAndTheWalkStops() async throws {
        let text = String(repeating: "walk ", count: 20)
        let (host, counters) = try contract("contract-walk", document: text, latency: .milliseconds(10))
        try host.show()
        host.userMovesCursor(to: 0)
        let read = host.send(.readFullDocument)
        await host.advance(by: .milliseconds(45))  // four steps of 10 ms
        #expect(host.session.isPending(read))
        #expect(host.cursor == 4)
        host.hide()  // the step it had posted is applied as it goes
        #expect(host.cursor == 5)
        let answer = await host.result(of: read)
        #expect(answer.error == "hidden")
        let steps = counters().walkSteps
        await host.advance(by: .seconds(5))
        #expect(counters().walkSteps == steps)  // no snapshot reached the destroyed instance
        #expect(host.cursor == 5)
        try host.assertQuiet()
    }

    @Test func aWalkLeftAloneRunsToItsEndInOneSettle() async throws {
        let text = String(repeating: "walk ", count: 200)
        let (host, counters) = try contract("contract-walk-whole", document: text, latency: .milliseconds(30))
        try host.show()
        host.userMovesCursor(to: 0)
        let read = host.send(.readFullDocument)
        await host.settle()
        #expect(await host.result(of: read).succeeded)
        #expect(host.cursor == text.count)
        #expect(counters().walkSteps == text.count)
        #expect(host.now == .milliseconds(30 * text.count))  // one latency per step, on virtual time
    }

    @Test func aCommandNeverAnsweredTimesOutOnTheHostsClockAndIsCancelled() async throws {
        let (host, counters) = try contract("contract-silent", ["FIXTURE_SILENT", "FIXTURE_CONTRACT"])
        try host.show()
        host.session.commandTimeout = .seconds(30)
        let answer = await host.perform(.readFullDocument)
        #expect(answer.error == "timedOut")
        #expect(host.now == .seconds(30))
        #expect(counters().cancelledCommands == 1)
        try host.assertQuiet()
    }

    @Test func aCommandTimeoutCountsSilenceNotTheWholeCommand() async throws {
        // The walk takes 200 steps of 1 s: far longer than the 30 s timeout, but never 30 s silent.
        let text = String(repeating: "x", count: 200)
        let (host, _) = try contract("contract-long-walk", document: text, latency: .seconds(1))
        try host.show()
        host.userMovesCursor(to: 0)
        host.session.commandTimeout = .seconds(30)
        let answer = await host.perform(.readFullDocument)
        #expect(answer.succeeded)
        #expect(host.now == .seconds(200))
    }

    /// The same contract with the extension in a child process, as the host sees it (the counters
    /// live in the child): the host's clock crosses the wire exactly, and so does a command's silence.
    @Test func commandsAndTheClockHoldInAChildProcessToo() async throws {
        let silentPath = try CFixture.build("contract-silent-child", defines: ["FIXTURE_SILENT", "FIXTURE_CONTRACT"])
        let silent = try KeyboardTestHost(extensionAt: silentPath, isolation: .process)
        try silent.show()
        silent.session.commandTimeout = .seconds(30)
        let answer = await silent.perform(.readFullDocument)
        #expect(answer.error == "timedOut")
        #expect(silent.now == .seconds(30))
        try silent.assertQuiet()

        let text = String(repeating: "x", count: 200)
        let walkerPath = try CFixture.build("contract-long-walk-child", defines: ["FIXTURE_CONTRACT"])
        let walker = try KeyboardTestHost(extensionAt: walkerPath, document: text, latency: .seconds(1), isolation: .process)
        try walker.show()
        walker.userMovesCursor(to: 0)
        walker.session.commandTimeout = .seconds(30)
        #expect(await walker.perform(.readFullDocument).succeeded)
        #expect(walker.now == .seconds(200))  // 200 steps of 1 s, never 30 s silent
        #expect(walker.fault == nil)
    }

    @Test func anExtensionOfTheFirstRevisionLoadsAndIsNeverAskedToCancel() async throws {
        let path = try CFixture.build("revision1", defines: ["FIXTURE_SILENT", "FIXTURE_STRUCT_SIZE=96"])
        let host = try KeyboardTestHost(extensionAt: path)
        try host.show()
        host.session.commandTimeout = .seconds(1)
        let answer = await host.perform(.deleteFullDocument)
        #expect(answer.error == "timedOut")
        #expect(answer.deletedCharacters == 0)
    }
}
