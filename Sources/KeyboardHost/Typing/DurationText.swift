/// A duration written as a number and a unit — `800ms`, `1.5s`, `2min`; `ns`, `us` (`µs`), `ms`, `s`,
/// `min` — as `--advance` and `{hold:KEY:DURATION}` take it. The one reader of such text.
public enum DurationText {
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case noUnit, negative, tooLong

        public var description: String {
            switch self {
            case .noUnit: "give a number and a unit (ns, us, ms, s or min), e.g. 800ms or 1.5s"
            case .negative: "a duration cannot be negative"
            case .tooLong: "at most 1e9 seconds"
            }
        }
    }

    public static func parse(_ text: some StringProtocol) throws(Problem) -> Duration {
        let units: [(String, Double)] = [("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("min", 60), ("s", 1)]
        guard let (unit, scale) = units.first(where: { text.hasSuffix($0.0) }),
              let value = Double(String(text.dropLast(unit.count))), value.isFinite
        else { throw .noUnit }
        guard value >= 0 else { throw .negative }
        guard value * scale <= 1e9 else { throw .tooLong }
        return .nanoseconds(Int64((value * scale * 1e9).rounded()))
    }
}

extension DurationText {
    /// A duration written back in the largest unit under it, to the thousandth: `2 s`, `1.14 s`,
    /// `500 ms`, `2.5 ms`, `40 us`. `spaced: false` writes the form ``parse(_:)`` reads (`1.5s`, as
    /// `{hold:…}` takes it). The one writer of durations in messages and pictures.
    public static func text(_ duration: Duration, spaced: Bool = true) -> String {
        let nanoseconds = max(duration.nanosecondsClamped, 0)
        let (divisor, unit): (Int64, String) = switch nanoseconds {
        case 1_000_000_000...: (1_000_000_000, "s")
        case 1_000_000...: (1_000_000, "ms")
        case 1_000...: (1_000, "us")
        default: (1, "ns")
        }
        let whole = nanoseconds / divisor, thousandths = (nanoseconds % divisor) / max(divisor / 1000, 1)
        var number = "\(whole)"
        if divisor > 1, thousandths != 0 {
            var digits = String(thousandths + 1000).dropFirst()
            while digits.last == "0" { digits.removeLast() }
            number += ".\(digits)"
        }
        return number + (spaced ? " " : "") + (nanoseconds == 0 ? "s" : unit)
    }
}
