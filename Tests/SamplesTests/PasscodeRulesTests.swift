@testable import SecurePasscodeKeyboard
import Testing

@Suite("Sample: passcode rules and the secret buffer")
struct PasscodeRulesTests {
    private func check(_ passcode: String, _ rules: PasscodeRules = PasscodeRules()) -> PasscodeRuleError? {
        Array(passcode.utf8).withUnsafeBytes { rules.problem(with: $0) }
    }

    @Test func digits() {
        #expect(check("48291") == .tooShort(minimum: 6))
        #expect(check("482915") == nil)
        #expect(check("412345") == .sequentialDigits(runLength: 3))
        #expect(check("498765") == .sequentialDigits(runLength: 3))
        #expect(check("481290") == nil)  // 1-2 is a pair, not a run of three
        #expect(check("480009") == .repeatedDigits(runLength: 3))
        #expect(check("448899") == nil)
        var lenient = PasscodeRules()
        lenient.forbidsSequentialDigits = false
        lenient.forbidsRepeatedDigits = false
        #expect(check("123456", lenient) == nil)
        #expect(check("000000", lenient) == nil)
    }

    @Test func strengthLevels() {
        let rules = PasscodeRules()
        func level(_ text: String) -> PasscodeRules.Strength { Array(text.utf8).withUnsafeBytes { rules.strength(of: $0) } }
        #expect(level("aaaaaa") == .none)
        #expect(level("abcdef") == .simple)
        #expect(level("abc123") == .letter)
        #expect(level("Abc123") == .case)
        #expect(level("Abc12!") == .symbol)
        var strict = PasscodeRules()
        strict.strength = .symbol
        strict.forbidsSequentialDigits = false
        #expect(check("Abc123", strict) == .tooWeak(required: .symbol))
        #expect(check("Abc12!", strict) == nil)
        strict.repeatCount = 2
        #expect(check("Abbbc12!", strict) == .repeatedCharacters(maximum: 2))
    }

    @Test func theSecretBufferIsZeroedWhenCleared() {
        let digits = SecretDigits()
        for byte in Array("482915".utf8) { digits.append(byte) }
        #expect(!digits.isZeroed)
        digits.removeLast()
        #expect(digits.withBytes { Array($0) } == Array("48291".utf8))
        let other = SecretDigits()
        digits.move(to: other)
        #expect(digits.isZeroed && digits.isEmpty)
        #expect(other.withBytes { Array($0) } == Array("48291".utf8))
        other.clear()
        #expect(other.isZeroed)
    }
}
