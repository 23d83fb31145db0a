import KeyboardHost
import Testing
import TestSupport

/// An extension that loads but fails when shown: one clear line each, and the host goes on.
@Suite("Showing: a failing extension is reported, not fatal")
@MainActor
struct SessionErrorTests {
    private func showError(_ fixture: String, _ defines: [String]) throws -> SessionError? {
        let session = KeyboardSession(extension: try ExtensionLoader.load(path: try CFixture.build(fixture, defines: defines)))
        defer { #expect(!session.isShown) }
        do {
            try session.show()
            return nil
        } catch {
            return error
        }
    }

    @Test func instanceNotCreated() throws {
        #expect(try showError("createFails", ["FIXTURE_CREATE_FAILS"])?.description
            == "C Keyboard could not create its keyboard: no memory for the dictionary")
    }

    @Test func notConfigured() throws {
        #expect(try showError("notConfigured", ["FIXTURE_NOT_CONFIGURED"])?.description
            == "C Keyboard does not configure itself: this C keyboard has no configuration yet")
    }

    @Test func configurationIsNotJSON() throws {
        let error = try showError("configNotJSON", [#"FIXTURE_CONFIGURATION="{layout""#])
        #expect(error?.description == "C Keyboard returned an invalid configuration: line 1, column 2: expected a key in quotes, found 'l'")
    }

    @Test func configurationNamesTheBadField() throws {
        let json = #"{\"layout\":{\"subKeyboards\":[{\"mode\":\"letters\",\"rows\":[[{\"code\":\"shiftt\",\"label\":\"x\"}]]}]}}"#
        let error = try showError("configBadCode", ["FIXTURE_CONFIGURATION=\"\(json)\""])
        #expect(error?.description.hasPrefix(
            "C Keyboard returned an invalid configuration: layout.subKeyboards[0].rows[0][0].code: unknown key code 'shiftt'"
        ) == true)
    }

    @Test func configurationWithoutKeys() throws {
        let json = #"{\"layout\":{\"subKeyboards\":[]}}"#
        #expect(try showError("configNoKeys", ["FIXTURE_CONFIGURATION=\"\(json)\""])?.description
            == "C Keyboard returned an invalid configuration: the layout has no keys")
    }

    @Test func aLayoutThatDoesNotFitItsInputType() throws {
        let json = #"{\"inputType\":\"digits\",\"layout\":{\"subKeyboards\":[{\"mode\":\"numbers\",\"rows\":[[{\"code\":\"input\",\"label\":\"1\"},{\"code\":\"input\",\"label\":\"a\"}]]}]}}"#
        #expect(try showError("digitsWithALetter", ["FIXTURE_CONFIGURATION=\"\(json)\""])?.description
            == "C Keyboard returned an invalid configuration: subKeyboards[0].rows[0][1]: \"a\" is not allowed for input type digits (expected 0-9)")
    }

    @Test func aKeyEventWhileHiddenIsRefused() throws {
        let session = KeyboardSession(extension: try ExtensionLoader.load(path: try CFixture.build("cKeyboard")))
        #expect(throws: SessionError.notShown(extension: "C Keyboard")) { try session.tap(.init(subKeyboard: 0, row: 0, column: 0)) }
    }
}
