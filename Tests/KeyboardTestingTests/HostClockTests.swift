import KeyboardExtension
import KeyboardTesting
import Testing
import TestSupport

/// A keyboard that keeps time only with what the SDK gives it: `clock` and `scheduleTimer`. What it
/// notes it reports as events, which the host sees in both modes (in a child process, there is no
/// controller to read).
final class TimingKeyboard: KeyboardViewController {
    var sleeper: Task<Void, Never>?
    var ticker: HostTimer?

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [
            ["sleep", "cancel", "once", "tick", "stop", "now"].map { Key(code: .input, label: $0) },
        ])]))
    }

    override func keyTapped(_ key: Key) {
        switch key.label {
        case "sleep":
            let start = clock.now
            sleeper = Task {
                do {
                    try await clock.sleep(for: .seconds(2))
                    note("woke after \(start.duration(to: clock.now))")
                } catch {
                    note("sleep cancelled: \(type(of: error))")
                }
            }
        case "cancel": sleeper?.cancel()
        case "once": scheduleTimer(after: .milliseconds(300)) { [weak self] timer in self?.note("once, valid \(timer.isValid)") }
        case "tick":
            ticker = scheduleTimer(after: .seconds(1), repeatingEvery: .seconds(1)) { [weak self] _ in
                guard let self else { return }
                note("tick at \(clock.now.offset)")
            }
        case "stop": ticker?.invalidate()
        case "now": note("now \(clock.now.offset)")
        default: break
        }
    }

    private func note(_ entry: String) {
        reportEvent(KeyboardEvent(entry))
    }
}

@Suite("The host's clock in the SDK")
@MainActor
struct HostClockTests {
    /// What the keyboard noted, in order.
    private func log(_ host: KeyboardTestHost) -> [String] {
        host.events.map(\.name)
    }

    @Test(arguments: Isolation.allCases)
    func aSleepOnTheClockEndsExactlyWhenTheHostsTimeReachesIt(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(TimingKeyboard.self, isolation: isolation)
        try host.show()
        await host.advance(by: .milliseconds(250))
        try host.tap("sleep")
        await host.settle()
        #expect(host.scheduler.pendingTimers.map(\.due) == [.milliseconds(2250)])
        await host.advance(by: .nanoseconds(1_999_999_999))
        #expect(log(host).isEmpty)
        await host.advance(by: .nanoseconds(1))
        #expect(log(host) == ["woke after 2.0 seconds"])
        try host.assertQuiet()
    }

    @Test(arguments: Isolation.allCases)
    func cancellingTheSleepingTaskEndsItAtOnceAndDropsItsTimer(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(TimingKeyboard.self, isolation: isolation)
        try host.show()
        try host.tap("sleep")
        await host.settle()
        try host.tap("cancel")
        await host.settle()
        #expect(log(host) == ["sleep cancelled: CancellationError"])
        #expect(host.scheduler.pendingTimers.isEmpty)
        #expect(host.now == .zero)
    }

    @Test(arguments: Isolation.allCases)
    func timersFireOnceOrRepeatUntilInvalidated(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(TimingKeyboard.self, isolation: isolation)
        try host.show()
        try host.tap("once")
        try host.tap("tick")
        await host.advance(by: .milliseconds(3500))
        #expect(log(host) == ["once, valid false", "tick at 1.0 seconds", "tick at 2.0 seconds", "tick at 3.0 seconds"])
        // A repeating timer is the keyboard's background, not work left undone.
        #expect(host.scheduler.pendingTimers.map(\.repeats) == [true])
        try host.assertQuiet()
        try host.tap("stop")
        await host.advance(by: .seconds(5))
        #expect(log(host).count == 4)
        #expect(host.scheduler.pendingTimers.isEmpty)
    }

    @Test(arguments: Isolation.allCases)
    func theClockReadsTheHostsTime(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(TimingKeyboard.self, isolation: isolation)
        try host.show()
        await host.advance(by: .seconds(42))
        try host.tap("now")
        #expect(log(host) == ["now 42.0 seconds"])
    }

    @Test(arguments: Isolation.allCases)
    func timersEndWithTheInstance(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(TimingKeyboard.self, isolation: isolation)
        try host.show()
        try host.tap("tick")
        try host.tap("sleep")
        await host.settle()
        host.hide()
        await host.advance(by: .seconds(10))
        #expect(log(host).isEmpty)
        #expect(host.scheduler.pendingTimers.isEmpty)
    }

    @Test func aSecureLayoutIsReshuffledEveryIntervalByARepeatingTimer() async throws {
        let host = try KeyboardTestHost(extensionAt: try BuildProducts.sample("SecurePasscodeKeyboard"))
        try host.show()
        #expect(host.scheduler.pendingTimers.map(\.repeats) == [true])
        #expect(host.scheduler.pendingTimers.first?.due == .seconds(300))
        try host.assertQuiet()  // a periodic reshuffle is the keyboard's background
    }
}

/// Walks that always end, and tell the truth about it.
@Suite("Walks end when the keyboard goes")
@MainActor
struct WalkEndTests {
    @Test func hidingDuringAReadEndsItWithKeyboardHiddenAndAnswersTheCommand() async throws {
        let text = String(repeating: "Some. ", count: 60)
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: text, cursor: 180, latency: .milliseconds(10))
        try host.show()
        let keyboard = host.walkerKeyboard
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        let read = host.send(.deleteFullDocument)  // a second walk: refused by the keyboard
        await host.advance(by: .milliseconds(35))
        #expect(await host.result(of: read).error == "operationInProgress")
        #expect(keyboard.isWalkingFullDocument)
        host.hide()
        await host.settle()
        #expect(await walk.value == .failure(.keyboardHidden))
        #expect(!keyboard.isWalkingFullDocument)
        #expect(host.document == text)
        try host.assertQuiet()
    }

    @Test(arguments: Isolation.allCases)
    func aDeleteTheHostAnswersHiddenSaysHowMuchWasDeletedAndDeletesNoMore(_ isolation: Isolation) async throws {
        let text = String(repeating: "Gone. ", count: 80)
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: text, latency: .milliseconds(10), isolation: isolation)
        try host.show()
        let delete = host.send(.deleteFullDocument)
        await host.advance(by: .milliseconds(45))
        host.hide()
        let answer = await host.result(of: delete)
        #expect(answer.error == "hidden")
        let deleted = try #require(answer.deletedCharacters)
        #expect(deleted > 0 && deleted < text.count)
        await host.advance(by: .seconds(10))
        #expect(host.document == String(text.prefix(text.count - deleted)))  // from the end, nothing more
        try host.assertQuiet()
    }

    @Test(arguments: Isolation.allCases)
    func aWalkInAKeyboardLoadedFromASharedLibraryEndsToo(_ isolation: Isolation) async throws {
        let text = String(repeating: "word ", count: 300)
        let host = try KeyboardTestHost(
            extensionAt: try BuildProducts.sample("QwertyKeyboard"), document: text, policy: .characters(10),
            latency: .milliseconds(20), isolation: isolation
        )
        try host.show()
        try host.tap("read all")
        await host.advance(by: .milliseconds(100))
        #expect(host.pendingWork.contains { $0.contains("timer") })  // the walker's step timeout waits
        host.hide()
        await host.settle()
        try host.assertQuiet()
        #expect(host.scheduler.extensionWorkInFlight == 0)
    }

    @Test func aHandlerMayReadTheFieldWhileTheHostAppliesEdits() async throws {
        // The host tells its user of each applied edit once the field is no longer borrowed.
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: "ab")
        var seen: [String] = []
        let logger = host.session.onEvent
        host.session.onEvent = { [session = host.session] event in
            logger?(event)
            if case .applied = event { seen.append(session.textField.text) }
        }
        try host.show()
        try host.tap("a")
        try host.tap("⌫")
        await host.settle()
        #expect(seen == ["ab", "ab"])  // both applied in one turn: the field as it is after the turn
        #expect(host.document == "ab")
    }
}
