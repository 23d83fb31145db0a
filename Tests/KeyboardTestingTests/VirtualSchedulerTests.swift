import KeyboardTesting
import Testing

@Suite("VirtualScheduler")
@MainActor
struct VirtualSchedulerTests {
    @Test func workRunsInOrderOfDueTimeAndTimeOnlyMovesWhenAdvanced() {
        let scheduler = VirtualScheduler()
        var ran: [String] = []
        scheduler.schedule(after: .milliseconds(20)) { ran.append("b") }
        scheduler.schedule(after: .milliseconds(10)) { ran.append("a") }
        scheduler.schedule(after: .milliseconds(20)) { ran.append("c") }
        scheduler.advance(by: .milliseconds(15))
        #expect(ran == ["a"])
        #expect(scheduler.now == .milliseconds(15))
        scheduler.advance(by: .milliseconds(5))
        #expect(ran == ["a", "b", "c"])
    }

    @Test func aTimerThatRearmsItselfDoesNotKeepItBusy() {
        let scheduler = VirtualScheduler()
        var ticks = 0
        func arm() { scheduler.scheduleTimer(after: .seconds(60)) { ticks += 1; arm() } }
        arm()
        scheduler.schedule(after: .seconds(130)) {}
        #expect(!scheduler.isIdle)
        // Runs the work, and the timers that fall due before it, in order; then stops.
        #expect(scheduler.runUntilIdle() == 3)
        #expect(ticks == 2)
        #expect(scheduler.isIdle)
        scheduler.advance(by: .seconds(60))
        #expect(ticks == 3)
    }

    @Test func aCancelledTimerNeverRuns() {
        let scheduler = VirtualScheduler()
        var fired = false
        let cancel = scheduler.scheduleTimer(after: .seconds(1)) { fired = true }
        cancel()
        scheduler.advance(by: .seconds(2))
        #expect(!fired)
    }
}
