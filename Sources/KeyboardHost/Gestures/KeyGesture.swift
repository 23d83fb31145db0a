import KeyboardExtensionABI
import KeyboardModel

/// What a finger does to one key beyond a tap (ABI section 11), as a user of the host names it:
/// `kbhost run --type '{longpress:e:é}'`, `{hold:delete:2s}`, `{drag:space:-5}`; the REPL's chords;
/// ``KeyboardTestHost``'s `longPress`, `hold(for:)` and `drag`.
///
/// ``events(on:at:)`` turns it into the key events the host sends and when: the one place the
/// gestures' timing is decided, on the host's clock.
public enum KeyGesture: Hashable, Sendable, CustomStringConvertible {
    /// Holds the key until its callouts show, then lifts on `callout` (one of the key's callouts;
    /// `nil`: lifts without choosing one).
    case longPress(callout: String?)
    /// Holds the key still for a duration: a key with callouts long-presses; another repeats.
    case hold(Duration)
    /// Drags from the key a number of steps sideways (negative: left).
    case drag(steps: Int)

    /// How long a finger stays still before a key with callouts long-presses (UIKit's 0.5 s).
    public static let longPressDelay = Duration.nanoseconds(Int64(KBX_LONG_PRESS_DELAY_NS))
    /// How long before a held key without callouts first repeats, and how often after.
    public static let repeatDelay = Duration.nanoseconds(Int64(KBX_REPEAT_DELAY_NS))
    public static let repeatInterval = Duration.nanoseconds(Int64(KBX_REPEAT_INTERVAL_NS))
    /// How long the finger takes to slide onto the callout it lifts on, after they show.
    public static let calloutSlide = Duration.milliseconds(100)
    /// How long one step of a drag takes (a frame at 60 Hz).
    public static let dragStep = Duration.milliseconds(16)
    /// The longest hold and the longest drag a host makes: every repeat and step is an event made in
    /// advance, so `{hold:delete:1000000s}` must be refused, not planned.
    public static let longestHold = Duration.seconds(600)
    public static let mostDragSteps = 10_000

    /// The events this gesture makes on `key` at `position`, each with its time from the first
    /// (which is at zero and is always `.down`; the last is always `.up`).
    public func events(on key: Key, at position: KeyPosition) throws(GestureError) -> [(at: Duration, event: KeyEvent)] {
        var events: [(at: Duration, event: KeyEvent)] = [(.zero, KeyEvent(.down, at: position))]
        switch self {
        case .longPress(let callout):
            guard !key.callouts.isEmpty else { throw .noCallouts(key: key.label) }
            var index: Int?
            if let callout {
                guard let found = key.callouts.firstIndex(of: callout) ?? key.callouts.firstIndex(where: { $0.uppercased() == callout }) else {
                    throw .noSuchCallout(callout, key: key.label, callouts: key.callouts)
                }
                index = found
            }
            events.append((Self.longPressDelay, KeyEvent(.longPress, at: position)))
            events.append((Self.longPressDelay + Self.calloutSlide, KeyEvent(.up, at: position, callout: index)))
        case .hold(let duration):
            guard duration > .zero else { throw .notPositive("a hold's duration", "\(duration)") }
            guard duration <= Self.longestHold else { throw .tooLong("a hold", "\(DurationText.text(Self.longestHold, spaced: false))") }
            if key.callouts.isEmpty {
                var count = 0
                var time = Self.repeatDelay
                // Repeats strictly before the lift: a finger that lifts as a repeat falls due repeats no more.
                while time < duration {
                    count += 1
                    events.append((time, KeyEvent(.repeat, at: position, repeatCount: count)))
                    time += Self.repeatInterval
                }
            } else if Self.longPressDelay < duration {
                events.append((Self.longPressDelay, KeyEvent(.longPress, at: position)))
            }
            events.append((duration, KeyEvent(.up, at: position)))
        case .drag(let steps):
            guard steps != 0 else { throw .notPositive("a drag's number of steps", "0") }
            guard steps.magnitude <= Self.mostDragSteps else { throw .tooLong("a drag", "\(Self.mostDragSteps) steps") }
            let direction = steps < 0 ? -1 : 1
            for step in 1...abs(steps) {
                events.append((Self.dragStep * step, KeyEvent(.drag, at: position, dragX: step * direction)))
            }
            events.append((Self.dragStep * (abs(steps) + 1), KeyEvent(.up, at: position, dragX: steps)))
        }
        return events
    }

    /// How long the gesture lasts, down to up.
    public var duration: Duration {
        switch self {
        case .longPress: Self.longPressDelay + Self.calloutSlide
        case .hold(let duration): duration
        case .drag(let steps): Self.dragStep * Int(min(steps.magnitude, UInt(Self.mostDragSteps)) + 1)
        }
    }

    public var description: String {
        switch self {
        case .longPress(let callout): "long-press" + (callout.map { " choosing \($0)" } ?? "")
        case .hold(let duration): "hold for \(DurationText.text(duration, spaced: false))"
        case .drag(let steps): "drag \(steps.magnitude) step\(steps.magnitude == 1 ? "" : "s") \(steps < 0 ? "left" : "right")"
        }
    }
}

/// Why a gesture cannot be made on a key.
public enum GestureError: Error, Equatable, Sendable, CustomStringConvertible {
    case noCallouts(key: String)
    case noSuchCallout(String, key: String, callouts: [String])
    case notPositive(String, String)
    case tooLong(String, String)

    public var description: String {
        switch self {
        case .noCallouts(let key):
            "the key \"\(key)\" has no callouts to long-press for; hold it instead"
        case .noSuchCallout(let callout, let key, let callouts):
            "the key \"\(key)\" has no callout \"\(callout)\" (it has \(callouts.joined(separator: " ")))"
        case .notPositive(let what, let value):
            "\(what) must be more than 0, not \(value)"
        case .tooLong(let what, let limit):
            "\(what) may last at most \(limit)"
        }
    }
}
