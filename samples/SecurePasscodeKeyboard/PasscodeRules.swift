/// The rules a new passcode must meet, as the passcode keyboards of banking and FIDO2 SDKs set them.
/// Each failure is a typed ``PasscodeRuleError`` the keyboard reports (never the passcode).
///
/// - A run is `runLength` (default 3) or more characters in a row: `123`, `987` are sequential runs,
///   `777` a repeated one.
/// - ``strength`` is for alphanumeric passcodes: `none` checks nothing; `simple` asks for two
///   different characters at least; `letter` for a letter and a digit; `case` adds an upper- and a
///   lower-case letter; `symbol` adds a character that is neither.
/// - ``repeatCount``, for alphanumeric passcodes: no character more than this many times in a row.
struct PasscodeRules: Sendable, Equatable {
    enum Strength: String, Sendable, CaseIterable, Comparable {
        case none, simple, letter, `case`, symbol

        static func < (lhs: Strength, rhs: Strength) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    var minimumLength = 6
    var forbidsSequentialDigits = true
    var forbidsRepeatedDigits = true
    var runLength = 3
    var strength = Strength.none
    var repeatCount: Int?

    /// The first rule `passcode` breaks, or `nil`.
    func problem(with passcode: UnsafeRawBufferPointer) -> PasscodeRuleError? {
        if passcode.count < minimumLength { return .tooShort(minimum: minimumLength) }
        if forbidsSequentialDigits, hasRun(passcode, step: 1) || hasRun(passcode, step: -1) {
            return .sequentialDigits(runLength: runLength)
        }
        if forbidsRepeatedDigits, hasRun(passcode, step: 0) { return .repeatedDigits(runLength: runLength) }
        if let repeatCount, longestRepeat(passcode) > repeatCount { return .repeatedCharacters(maximum: repeatCount) }
        if strength(of: passcode) < strength { return .tooWeak(required: strength) }
        return nil
    }

    /// A run of `runLength` digits, each `step` from the one before.
    private func hasRun(_ bytes: UnsafeRawBufferPointer, step: Int) -> Bool {
        guard runLength > 1 else { return false }
        var run = 1
        for index in bytes.indices.dropFirst() {
            let previous = bytes[index - 1], current = bytes[index]
            if isDigit(previous), isDigit(current), Int(current) - Int(previous) == step {
                run += 1
                if run >= runLength { return true }
            } else {
                run = 1
            }
        }
        return false
    }

    private func longestRepeat(_ bytes: UnsafeRawBufferPointer) -> Int {
        var longest = bytes.isEmpty ? 0 : 1, run = 1
        for index in bytes.indices.dropFirst() {
            run = bytes[index] == bytes[index - 1] ? run + 1 : 1
            longest = max(longest, run)
        }
        return longest
    }

    /// The highest level `bytes` reaches.
    func strength(of bytes: UnsafeRawBufferPointer) -> Strength {
        let hasDigit = bytes.contains(where: isDigit)
        let hasUpper = bytes.contains { (65...90).contains($0) }
        let hasLower = bytes.contains { (97...122).contains($0) }
        let hasSymbol = bytes.contains { !isDigit($0) && !(65...90).contains($0) && !(97...122).contains($0) }
        var distinct = Set<UInt8>()
        bytes.forEach { distinct.insert($0) }
        guard distinct.count >= 2 else { return .none }
        guard hasDigit, hasUpper || hasLower else { return .simple }
        guard hasUpper, hasLower else { return .letter }
        return hasSymbol ? .symbol : .case
    }

    private func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}

/// A rule a new passcode broke.
enum PasscodeRuleError: Error, Equatable, CustomStringConvertible {
    case tooShort(minimum: Int)
    case sequentialDigits(runLength: Int)
    case repeatedDigits(runLength: Int)
    case repeatedCharacters(maximum: Int)
    case tooWeak(required: PasscodeRules.Strength)
    case confirmationMismatch

    /// The rule's name, as the keyboard reports it.
    var rule: String {
        switch self {
        case .tooShort: "minimumLength"
        case .sequentialDigits: "noSequentialDigits"
        case .repeatedDigits: "noRepeatedDigits"
        case .repeatedCharacters: "repeatCount"
        case .tooWeak: "strength"
        case .confirmationMismatch: "confirmationMismatch"
        }
    }

    var description: String {
        switch self {
        case .tooShort(let minimum): "at least \(minimum) digits"
        case .sequentialDigits(let run): "no \(run) sequential digits (such as 123 or 987)"
        case .repeatedDigits(let run): "no digit \(run) times in a row"
        case .repeatedCharacters(let maximum): "no character more than \(maximum) times in a row"
        case .tooWeak(let required): "strength \(required.rawValue) required"
        case .confirmationMismatch: "the confirmation does not match"
        }
    }
}
