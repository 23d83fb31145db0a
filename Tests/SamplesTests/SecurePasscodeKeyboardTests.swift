import Foundation
import KeyboardHost
import KeyboardTesting
import Testing
import TestSupport

/// The secure passcode sample, built as `libSecurePasscodeKeyboard.so` and hosted by the testing
/// module as a host would: its flows, rules, attempts and lockout, and what it keeps where.
@MainActor
@Suite("Sample: SecurePasscodeKeyboard", .serialized)
final class SecurePasscodeKeyboardTests {
    let storage: URL

    init() throws {
        storage = FileManager.default.temporaryDirectory.appendingPathComponent("passcode-tests-\(UUID())")
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: storage)
    }

    private var record: URL { storage.appendingPathComponent("passcodes/default.json") }

    /// A fresh appearance of the keyboard (a new host each time: as a restart of the host would be).
    /// Each test runs in both modes: the library in a child process, and in the test's process.
    private func keyboard(_ options: [String: JSONValue] = [:], isolation: Isolation) throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(
            extensionAt: try BuildProducts.sample("SecurePasscodeKeyboard"),
            settings: HostSettings(options: options.merging(["scryptCost": 10]) { mine, _ in mine }, storage: storage.path),
            isolation: isolation
        )
        try host.show()
        return host
    }

    /// Types `digits` by tapping the keys that show them (wherever the shuffle put them), then done,
    /// checking after every tap that no digit is in the document.
    private func enter(_ digits: String, on host: KeyboardTestHost) async throws {
        for digit in digits {
            try host.tap(String(digit))
            await host.settle()
            #expect(host.document.allSatisfy { $0 == "⬤" }, "a digit reached the document: \(host.document)")
        }
        #expect(host.document == String(repeating: "⬤", count: digits.count))
        try host.tap(.done)
        await host.settle()
    }

    /// The events but "key received", which come with every key.
    private func flowEvents(_ host: KeyboardTestHost) -> [String] {
        host.events.filter { $0.name != "key received" }.map(\.description)
    }

    private func create(_ passcode: String, isolation: Isolation) async throws {
        let host = try keyboard(isolation: isolation)
        try await enter(passcode, on: host)
        try await enter(passcode, on: host)
        #expect(flowEvents(host).last == "passcode created (user: default)")
    }

    @Test(arguments: Isolation.allCases) func createAsksTwiceWithAUsageChangeBetweenAndKeepsOnlyASaltedHash(_ isolation: Isolation) async throws {
        let host = try keyboard(isolation: isolation)
        #expect(host.session.configuration?.requestsSecureEntry == true)
        #expect(host.session.configuration?.typing.keyFeedback.highlight == false)
        try await enter("482915", on: host)
        #expect(host.document == "")  // the ⬤s go when the entry is taken
        try await enter("482915", on: host)
        #expect(flowEvents(host) == [
            "usage changed (usage: create)", "usage changed (usage: confirm)", "passcode created (user: default)",
        ])
        #expect(host.events.filter { $0.name == "key received" }.map { $0.details["key"]! }
            == Array(repeating: "input", count: 6) + ["done"] + Array(repeating: "input", count: 6) + ["done"])
        let attributes = try FileManager.default.attributesOfItem(atPath: record.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOf: record, encoding: .utf8)
        #expect(text.contains("\"algorithm\":\"scrypt\""))
        #expect(!text.contains("482915"))
        // Every event the host saw, printed: no digits of the passcode in any.
        #expect(host.events.allSatisfy { !$0.description.contains(where: \.isNumber) })
    }

    @Test(arguments: Isolation.allCases) func eachRuleIsATypedFailure(_ isolation: Isolation) async throws {
        let host = try keyboard(isolation: isolation)
        for (passcode, rule) in [("4829", "minimumLength"), ("901234", "noSequentialDigits"), ("987521", "noSequentialDigits"),
                                 ("551117", "noRepeatedDigits")] {
            try await enter(passcode, on: host)
            #expect(host.events.last?.name == "passcode rule failed")
            #expect(host.events.last?.details["rule"] == rule, "\(passcode)")
            #expect(host.document == "")
        }
        try await enter("482915", on: host)
        try await enter("482916", on: host)  // not the same: back to the start
        #expect(Array(flowEvents(host).suffix(3)) == [
            "usage changed (usage: confirm)",
            "passcode rule failed (message: the confirmation does not match, rule: confirmationMismatch)",
            "usage changed (usage: create)",
        ])
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    @Test(arguments: Isolation.allCases) func fiveAttemptsThenALockoutThatSurvivesARestart(_ isolation: Isolation) async throws {
        try await create("482915", isolation: isolation)
        let host = try keyboard(isolation: isolation)
        #expect(flowEvents(host) == ["usage changed (usage: authenticate)"])
        for remaining in [4, 3, 2, 1] {
            try await enter("000001", on: host)
            #expect(host.events.last == KeyboardEvent("authentication failed", ["attemptsRemaining": "\(remaining)"]))
            #expect(host.document == "")  // the input is cleared
        }
        try await enter("482915", on: host)  // the fifth attempt, and the right passcode
        #expect(flowEvents(host).last == "authenticated (user: default)")

        // A success resets the count: four more failures, then the fifth locks out.
        let again = try keyboard(isolation: isolation)
        for _ in 0..<4 { try await enter("000001", on: again) }
        try await enter("000001", on: again)
        #expect(again.errors.last == "locked out after 5 failed attempts")
        #expect(Array(flowEvents(again).suffix(2)) == ["authentication failed (attemptsRemaining: 0)", "locked out (user: default)"])

        // The host restarts: still locked, even with the right passcode.
        let restarted = try keyboard(isolation: isolation)
        #expect(flowEvents(restarted) == ["locked out (user: default)"])
        try await restarted.type("482915{done}")
        #expect(restarted.document == "")  // a locked keyboard takes no input
        #expect(flowEvents(restarted) == ["locked out (user: default)"])
        #expect(try String(contentsOf: record, encoding: .utf8).contains("\"lockedOut\":true"))
    }

    @Test(arguments: Isolation.allCases) func aSuccessResetsTheAttemptCount(_ isolation: Isolation) async throws {
        try await create("482915", isolation: isolation)
        let first = try keyboard(isolation: isolation)
        try await enter("000001", on: first)
        try await enter("000002", on: first)
        #expect(first.events.last == KeyboardEvent("authentication failed", ["attemptsRemaining": "3"]))
        try await enter("482915", on: first)
        #expect(try String(contentsOf: record, encoding: .utf8).contains("\"failedAttempts\":0"))
        let second = try keyboard(isolation: isolation)
        try await enter("000001", on: second)
        #expect(second.events.last == KeyboardEvent("authentication failed", ["attemptsRemaining": "4"]))
    }

    @Test(arguments: Isolation.allCases) func changeAsksForTheCurrentThenTheNewTwice(_ isolation: Isolation) async throws {
        try await create("482915", isolation: isolation)
        let host = try keyboard(["flow": "change"], isolation: isolation)
        try await enter("000001", on: host)
        try await enter("482915", on: host)
        try await enter("739164", on: host)
        try await enter("739164", on: host)
        #expect(flowEvents(host) == [
            "usage changed (usage: current)", "authentication failed (attemptsRemaining: 4)", "usage changed (usage: new)",
            "usage changed (usage: confirm)", "passcode changed (user: default)",
        ])
        let old = try keyboard(isolation: isolation)
        try await enter("482915", on: old)
        #expect(old.events.last?.name == "authentication failed")
        let new = try keyboard(isolation: isolation)
        try await enter("739164", on: new)
        #expect(flowEvents(new).last == "authenticated (user: default)")
    }

    @Test(arguments: Isolation.allCases) func usersHaveTheirOwnPasscodes(_ isolation: Isolation) async throws {
        let alice = try keyboard(["user": "alice"], isolation: isolation)
        try await enter("482915", on: alice)
        try await enter("482915", on: alice)
        let bob = try keyboard(["user": "bob"], isolation: isolation)
        #expect(flowEvents(bob) == ["usage changed (usage: create)"])
        #expect(FileManager.default.fileExists(atPath: storage.appendingPathComponent("passcodes/alice.json").path))
        let nobody = try keyboard(["user": "../etc"], isolation: isolation)
        #expect(nobody.errors == ["user '../etc' is not a valid identifier (letters, digits, '.', '_', '-')"])
    }

    @Test(arguments: Isolation.allCases) func thePadIsShuffledOnEveryAppearanceAndUsedByPosition(_ isolation: Isolation) throws {
        var arrangements = Set<[String]>()
        for _ in 0..<4 {
            let host = try keyboard(isolation: isolation)
            let pad = try #require(host.session.configuration?.layout.subKeyboards.first)
            #expect(pad.tapByPosition)
            arrangements.insert(pad.rows.flatMap { $0.map(\.label) })
        }
        // 10! arrangements of the digits: four the same would be a broken shuffle.
        #expect(arrangements.count > 1)
        let fixed = try keyboard(["shuffle": .bool(false)], isolation: isolation)
        #expect(fixed.session.configuration?.layout.subKeyboards[0].rows[0].map(\.label) == ["1", "2", "3"])
    }

    @Test(arguments: Isolation.allCases) func thePadIsReshuffledOnTheHostsClockEvenFromASharedLibrary(_ isolation: Isolation) async throws {
        // The .so has its own copy of the SDK; its timer still runs on the test host's virtual clock.
        let host = try keyboard(isolation: isolation)
        func digits() -> [String] { host.session.configuration!.layout.subKeyboards[0].rows.flatMap { $0.map(\.label) } }
        let first = digits()
        await host.advance(by: .seconds(299))
        #expect(digits() == first)
        var changed = false
        for _ in 0..<3 where !changed {  // each reshuffle could, once in 10!, give the same pad
            await host.advance(by: .seconds(300))
            changed = digits() != first
        }
        #expect(changed)
        #expect(host.log.contains(.layoutChanged))
    }

    @Test(arguments: Isolation.allCases) func withoutStorageItSaysSo(_ isolation: Isolation) throws {
        let host = try KeyboardTestHost(extensionAt: try BuildProducts.sample("SecurePasscodeKeyboard"), isolation: isolation)
        try host.show()
        #expect(host.errors == ["the host gave no storage folder: passcodes cannot be kept"])
    }

    @Test(arguments: Isolation.allCases) func alphanumericPasscodesMeetTheStrengthAndRepeatRules(_ isolation: Isolation) async throws {
        let options: [String: JSONValue] = ["alphanumeric": .bool(true), "shuffle": .bool(false), "strength": .string("case")]
        let host = try keyboard(options, isolation: isolation)
        for (passcode, rule) in [("password", "strength"), ("pass7word", "strength"), ("Paaas7word", "repeatCount")] {
            try await host.type(passcode + "{return}")
            #expect(host.events.last?.details["rule"] == rule, "\(passcode)")
        }
        try await host.type("Pa55word{return}")
        #expect(flowEvents(host).last == "usage changed (usage: confirm)")
    }
}
