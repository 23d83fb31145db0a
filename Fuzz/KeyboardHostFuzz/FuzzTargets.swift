import Foundation
import KeyboardHost

// libFuzzer targets for every decoder of outside bytes (issue 15). One executable, the target chosen by
// KBHOST_FUZZ_TARGET, so that one sanitized build serves them all; `scripts/fuzz` builds and runs it.
// Each target feeds the bytes to a decoder and checks what must hold whatever they are: no trap, no
// memory error (AddressSanitizer), and where there is a second opinion to ask, agreement with it.

/// The decoders, by the name `scripts/fuzz` and the corpus folders (`Fuzz/corpus/<name>`, one per
/// case: the script takes its list of targets from them) use.
enum FuzzTarget: String, CaseIterable {
    /// JSONInput's checks, against Foundation's parser: what JSONInput passes, Foundation parses.
    case json
    /// An extension's configuration (its layout, typing, appearance, license), as create_configuration
    /// returns it.
    case configuration
    /// A layout file, or set_layout's JSON.
    case layout
    /// A license file, then the verifier on what it holds.
    case license
    /// `kbhost.json`.
    case hostConfiguration = "host-configuration"
    /// A bundle's manifest.json.
    case manifest
    /// A document (--document): UTF-8 checked, loaded into a text field, cut into windows.
    case document
    /// --type's keys.
    case keys
    /// --set's assignments, one per line, then the settings they make.
    case settings
    /// What an extension sends as JSON besides its configuration: report_event, command answers.
    case extensionJSON = "extension-json"
    /// The isolation wire's messages, both ways; what decodes must survive a round trip.
    case wire

    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["KBHOST_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError("KBHOST_FUZZ_TARGET must be one of \(allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
        }
        return target
    }()

    static let verifier = LicenseVerifier(trusting: [LicenseIssuer(name: "Fuzz Issuer").trusted])

    func run(_ data: Data) {
        switch self {
        case .json:
            if (try? JSONInput.check(data)) != nil {
                precondition((try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil,
                             "JSONInput passed what Foundation cannot parse")
            }
        case .configuration:
            _ = try? JSONInput.decode(KeyboardConfiguration.self, from: data)
        case .layout:
            if let layout = try? KeyboardLayout(json: data) {
                // What was read writes out and reads back the same.
                precondition((try? KeyboardLayout(json: layout.json())) == layout, "a layout does not survive its round trip")
            }
        case .license:
            if let license = try? JSONInput.decode(LicenseConfiguration.self, from: data) {
                _ = try? Self.verifier.verify(license, for: "dev.kbhost.fuzz")
            }
        case .hostConfiguration:
            _ = try? HostConfiguration.parse(data, path: "/fuzz/kbhost.json")
        case .manifest:
            _ = try? JSONInput.decode(BundleManifest.self, from: data)
        case .document:
            guard let text = try? DocumentFile.text(of: data, path: "fuzz") else { return }
            var field = TextField(text: text)
            field.moveCursor(to: field.count / 2)
            for policy in [ContextPolicy.sentence, .wayland, .characters(7)] {
                _ = field.contextBefore(policy)
                _ = field.contextAfter(policy)
            }
            precondition(field.text == text, "a document changed on the way into a field")
        case .keys:
            _ = try? KeyStroke.parse(String(decoding: data, as: UTF8.self))
        case .settings:
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").prefix(16)
            let assignments = lines.compactMap { try? SettingAssignment(String($0)) }
            _ = try? SettingAssignment.settings(assignments)
        case .extensionJSON:
            _ = try? JSONInput.decode(KeyboardEvent.self, from: data)
            for command in HostCommand.allCases {
                _ = CommandResult(command: command, succeeded: true, json: String(decoding: data, as: UTF8.self))
            }
        case .wire:
            _ = WireCodec.checkDecoding(Array(data))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.current.run(data)
    return 0
}

// SwiftPM links an executable's entry point as `<module>_main` (and defines `main` as it), which a
// library-style module like this one (-parse-as-library) does not have: this is it, and it hands
// over to libFuzzer's driver, as libFuzzer's own `main` would.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("KeyboardHostFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { start, size in fuzzOneInput(start, size) }
}
