import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing
import TestSupport

/// A secure PIN pad, shuffled on every appearance and on a timer, used by position.
final class PinPad: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: .numericPad, requestsSecureEntry: true, inputType: .digits, layoutRefreshInterval: 60)
    }
}

@Suite("A shuffled keyboard")
@MainActor
struct ShuffledKeyboardTests {
    private func digits(_ layout: KeyboardLayout?) -> [String] {
        layout?.subKeyboards[0].rows.flatMap { $0 }.filter { $0.code == .input }.map(\.label) ?? []
    }

    @Test func everyAppearanceIsShuffledAndTheHostDrawsWhatTheKeyboardUses() throws {
        let host = try KeyboardTestHost(PinPad.self)
        var seen: Set<[String]> = []
        for _ in 0..<3 {
            try host.show()
            let drawn = host.session.configuration?.layout
            #expect(drawn == host.controller?.layout)  // host and keyboard agree on the keys
            #expect(digits(drawn).sorted() == ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
            seen.insert(digits(drawn))
            host.hide()
        }
        #expect(seen.count > 1)  // 10! orders: three equal in a row would be a broken shuffle
    }

    @Test func typingByPositionTypesWhatIsThere() async throws {
        let host = try KeyboardTestHost(PinPad.self)
        try host.show()
        let topLeft = try #require(host.session.configuration?.layout.subKeyboards[0].rows[0][0].label)
        try await host.type("1")  // the key where "1" sits on a standard pad
        #expect(host.document == topLeft)
    }

    @Test func theLayoutIsReshuffledWhenTheIntervalPasses() async throws {
        let host = try KeyboardTestHost(PinPad.self)
        try host.show()
        host.clearLog()
        await host.advance(by: .seconds(59))
        #expect(!host.log.contains(.layoutChanged))
        await host.advance(by: .seconds(1))
        #expect(host.log.contains(.layoutChanged))
        #expect(host.session.configuration?.layout == host.controller?.layout)
        await host.advance(by: .seconds(120))
        #expect(host.log.filter { $0 == .layoutChanged }.count == 3)
    }

    @Test func aForcedReshuffleReachesTheHost() throws {
        let host = try KeyboardTestHost(PinPad.self)
        try host.show()
        var orders: Set<[String]> = [digits(host.session.configuration?.layout)]
        for _ in 0..<3 {
            host.controller?.reshuffleLayout()
            #expect(host.session.configuration?.layout == host.controller?.layout)
            orders.insert(digits(host.session.configuration?.layout))
        }
        #expect(orders.count > 1)
    }

    @Test func anInvalidLayoutFromTheExtensionIsReportedAndChangesNothing() async throws {
        let path = try CFixture.build("pushesBadLayout", defines: ["FIXTURE_PUSHES_BAD_LAYOUT"])
        let host = try KeyboardTestHost(extensionAt: path)
        try host.show()
        let before = host.session.configuration?.layout
        try host.tap(at: KeyPosition(subKeyboard: 0, row: 0, column: 0))
        await host.settle()
        #expect(host.errors == ["sent an invalid layout: layout 'set_layout': subKeyboards: expected at least one sub-keyboard"])
        #expect(host.session.configuration?.layout == before)
        #expect(host.document == "a")
    }
}
