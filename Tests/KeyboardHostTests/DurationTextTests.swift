import KeyboardHost
import PropertyBased
import Testing

/// Durations as the host reads them (`--advance`, `{hold:…}`) and writes them (messages, pictures).
@Suite("Duration text")
struct DurationTextTests {
    @Test func durationsAreWrittenInTheLargestUnitUnderThem() {
        #expect(DurationText.text(.zero) == "0 s")
        #expect(DurationText.text(.nanoseconds(1)) == "1 ns")
        #expect(DurationText.text(.microseconds(40)) == "40 us")
        #expect(DurationText.text(.microseconds(2500)) == "2.5 ms")
        #expect(DurationText.text(.milliseconds(500)) == "500 ms")
        #expect(DurationText.text(.milliseconds(1140)) == "1.14 s")
        #expect(DurationText.text(.seconds(600), spaced: false) == "600s")
        #expect(DurationText.text(.seconds(-3)) == "0 s")  // no negative durations here
    }

    /// What the host writes unspaced, it reads back, short by less than a thousandth of the unit.
    @Test func whatIsWrittenIsReadBack() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...2_000_000_000_000)) { nanoseconds in
            let duration = Duration.nanoseconds(nanoseconds)
            let text = DurationText.text(duration, spaced: false)
            let read = try #require(try? DurationText.parse(text), "\(text)")
            #expect(read <= duration && duration - read < duration / 999 + .nanoseconds(1), "\(text)")
        }
    }
}
