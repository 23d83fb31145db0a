import KeyboardExtension
import KeyboardTesting
import PropertyBased
import Testing
import TestSupport

/// Through the C boundary and back: what the extension's proxy shows is the field's windows under the
/// session's policy, after any mix of the user's actions and the keyboard's edits, at any latency.
@Suite("The proxy over random Unicode")
@MainActor
struct ProxyPropertyTests {
    static let policies: [ContextPolicy] = [.characters(3), .utf8Bytes(9), .wayland, .sentence, .paragraph, .unlimited]

    @Test func theProxyShowsTheFieldsWindows() async {
        await propertyCheck(
            count: 150, input: UnicodeSamples.document(), Gen.element(of: Self.policies), Gen.int(in: 0...40),
            Gen.int(in: 0...9).array(of: 1...15), Gen.element(of: UnicodeSamples.atoms)
        ) { text, policy, latency, steps, atom in
            let host = try! KeyboardTestHost(
                ProbeKeyboard.self, document: text, policy: policy ?? .unlimited, latency: .milliseconds(latency)
            )
            try! host.show()
            let proxy = (host.controller as! ProbeKeyboard).textDocumentProxy
            for step in steps {
                switch step {
                case 0: host.userTypes(atom ?? "a")
                case 1: host.userDeletesBackward()
                case 2: host.userMovesCursor(to: step * 7 % (host.textField.count + 1))
                case 3: host.userSelects(1..<4)
                case 4: try! host.tap("←")
                case 5: try! host.tap("→")
                case 6: try! host.tap("a")
                case 7: try! host.tap("⌫")
                case 8: try! host.tap("mark")
                default: try! host.tap(".")
                }
                await host.settle()
                let field = host.textField
                let policy = host.policy
                #expect(proxy.documentContextBeforeInput ?? "" == field.contextBefore(policy))
                #expect(proxy.documentContextAfterInput ?? "" == field.contextAfter(policy))
                #expect(proxy.selectedText ?? "" == (field.selection.isEmpty ? "" : field.selectedText))
                #expect(proxy.hasText == field.hasText)
                #expect(proxy.documentIdentifier == field.documentIdentifier)
            }
        }
    }
}
