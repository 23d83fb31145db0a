import KeyboardTesting
import Testing

@Suite("VirtualScheduler")
@MainActor
struct VirtualSchedulerTests {
    @Test func workRunsInOrderOfDueTimeAndTimeOnlyMovesWhenAdvanced() async {
        let scheduler = VirtualScheduler()
        var ran: [String] = []
        scheduler.schedule(after: .milliseconds(20)) { ran.append("b") }
        scheduler.schedule(after: .milliseconds(10)) { ran.append("a") }
        scheduler.schedule(after: .milliseconds(20)) { ran.append("c") }
        await scheduler.advance(by: .milliseconds(15))
        #expect(ran == ["a"])
        #expect(scheduler.now == .milliseconds(15))
        await scheduler.advance(by: .milliseconds(5))
        #expect(ran == ["a", "b", "c"])
    }

    @Test func settleRunsWorkAndTheTimersOnItsWayButLeavesLaterTimers() async {
        let scheduler = VirtualScheduler()
        var ticks = 0
        // The timer's work holds the scheduler, and the scheduler its queue: cancelled at the end, or
        // the two would keep each other alive (LeakSanitizer reports the cycle).
        var cancel: @MainActor () -> Void = {}
        func arm() { cancel = scheduler.scheduleTimer(after: .seconds(60), label: "tick") { ticks += 1; arm() } }
        arm()
        var workRan = false
        scheduler.schedule(after: .seconds(130)) { workRan = true }
        #expect(scheduler.hasWork)
        // Runs the work, and the timers that fall due before it, in order; then stops: a timer that
        // re-arms itself does not keep it busy.
        await scheduler.settle()
        #expect(workRan)
        #expect(ticks == 2)
        #expect(scheduler.now == .seconds(130))
        #expect(!scheduler.hasWork)
        #expect(scheduler.pendingTimers.map(\.label) == ["tick"])
        #expect(scheduler.pendingTimers.first?.due == .seconds(180))
        await scheduler.advance(by: .seconds(60))
        #expect(ticks == 3)
        cancel()
        #expect(scheduler.pendingTimers.isEmpty)
    }

    @Test func aCancelledTimerNeverRuns() async {
        let scheduler = VirtualScheduler()
        var fired = false
        let cancel = scheduler.scheduleTimer(after: .seconds(1), label: "never") { fired = true }
        cancel()
        await scheduler.advance(by: .seconds(2))
        #expect(!fired)
        #expect(scheduler.pendingTimers.isEmpty)
    }

    @Test func advancingToTheNextTimerStopsThere() async {
        let scheduler = VirtualScheduler()
        var fired: [String] = []
        scheduler.scheduleTimer(after: .seconds(5), label: "b") { fired.append("b") }
        scheduler.scheduleTimer(after: .seconds(2), label: "a") { fired.append("a") }
        #expect(await scheduler.advanceToNextTimer())
        #expect(fired == ["a"])
        #expect(scheduler.now == .seconds(2))
        #expect(await scheduler.advanceToNextTimer())
        #expect(await !scheduler.advanceToNextTimer())
        #expect(fired == ["a", "b"])
    }
}
