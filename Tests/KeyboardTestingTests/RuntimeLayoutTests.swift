import Foundation
import KeyboardExtension
import KeyboardTesting
import Testing

/// A multi-tap key (a T9 pad's "abc"): each tap within a second moves to the next letter, which the
/// key's label shows as it is being cycled; the host clock commits it. Its layout changes at run
/// time from Swift, and the host draws and taps the new one.
final class CyclingLabelKeyboard: KeyboardViewController {
    private static let letters = ["a", "b", "c"]
    private var cycling: Int?
    private var commit: HostTimer?

    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: Self.layout(label: "abc"), inputType: .text)
    }

    private static func layout(label: String) -> KeyboardLayout {
        KeyboardLayout(subKeyboards: [SubKeyboard(mode: .letters, rows: [[
            Key(code: .action("abc"), label: label), Key(code: .delete, label: "⌫"),
        ]])])
    }

    override func keyTapped(_ key: Key) {
        guard key.code == .action("abc") else { return super.keyTapped(key) }
        let next = cycling.map { ($0 + 1) % Self.letters.count } ?? 0
        cycling = next
        layout = Self.layout(label: "[\(Self.letters[next])]")  // the key shows the letter it is on
        commit?.invalidate()
        commit = scheduleTimer(after: .seconds(1)) { [weak self] _ in self?.commitLetter() }
    }

    private func commitLetter() {
        guard let cycling else { return }
        textDocumentProxy.insertText(Self.letters[cycling])
        self.cycling = nil
        layout = Self.layout(label: "abc")
    }
}

/// The same keyboard on a digits field, where its layout may hold digits only.
final class DigitsOnlyKeyboard: KeyboardViewController {
    override func createConfiguration() -> KeyboardConfiguration {
        KeyboardConfiguration(layout: KeyboardLayout(subKeyboards: [SubKeyboard(mode: .numbers, rows: [[.input("1")]])]), inputType: .digits)
    }
}

@Suite("A layout changed at run time")
@MainActor
struct RuntimeLayoutTests {
    private func label(_ host: KeyboardTestHost) -> String? {
        host.session.configuration?.layout.subKeyboards.first?.rows.first?.first?.label
    }

    @Test func theHostDrawsTheLabelTheKeyboardSetsAndTheClockCommits() async throws {
        let host = try KeyboardTestHost(CyclingLabelKeyboard.self)
        try host.show()
        #expect(label(host) == "abc")
        try host.tap("abc")
        await host.settle()
        #expect(label(host) == "[a]")
        try host.tap("[a]")  // the host taps the key by its new label
        await host.settle()
        #expect(label(host) == "[b]")
        #expect(host.log.filter { $0 == .layoutChanged }.count == 2)
        #expect(host.document == "")
        await host.advance(by: .seconds(1))
        #expect(host.document == "b")
        #expect(label(host) == "abc")
        #expect(host.session.configuration?.layout == host.controller?.layout)
    }

    /// A layout the host would refuse is not sent: the keyboard says why, and both sides keep the old.
    @Test func aLayoutTheFieldDoesNotAllowIsReportedAndNotSent() throws {
        let host = try KeyboardTestHost(DigitsOnlyKeyboard.self)
        try host.show()
        let before = host.session.configuration?.layout
        host.controller?.layout = KeyboardLayout(subKeyboards: [SubKeyboard(mode: .numbers, rows: [[.input("x")]])])
        #expect(host.errors.last?.hasPrefix("layout not changed: ") == true, "\(host.errors)")
        #expect(host.errors.last?.contains("\"x\" is not allowed for input type digits") == true, "\(host.errors)")
        #expect(host.controller?.layout == before)
        #expect(host.session.configuration?.layout == before)
        host.controller?.layout = KeyboardLayout(subKeyboards: [])
        #expect(host.errors.last == "layout not changed: a layout needs at least one sub-keyboard")
        #expect(!host.log.contains(.layoutChanged))
    }
}
