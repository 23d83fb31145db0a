import KeyboardExtension

/// A secure passcode keyboard, as the FIDO2 and banking SDKs ship: a shuffled PIN pad typed by
/// position, a field that shows ⬤ per digit, and create / authenticate / change flows whose passcodes
/// are kept only as salted scrypt hashes (``PasscodeStore``) in the folder the host gives the extension.
///
/// The digits never enter the text document (it holds ⬤s), the host's history or log (the keyboard
/// reports what happened — "key received", "usage changed", "passcode rule failed", "authentication
/// failed" — never which key), or long-lived memory (``SecretDigits``, zeroed after use). The tapped key
/// is not lit (it would show the digit) and the pad is reshuffled on every appearance.
///
/// Host settings (`options`): `user` (default `"default"`), `flow` (`create`, `authenticate`,
/// `change`; default: `create` when the user has no passcode, else `authenticate`), `minimumLength`
/// (default 6), `alphanumeric` (a shuffled QWERTY instead of the pad, with `strength` and
/// `repeatCount`), and `shuffle: false` for scripted tests (never in use: a pad that does not move
/// lets keystrokes tell the digits).
final class SecurePasscodeKeyboard: KeyboardViewController {
    enum Flow: String { case create, authenticate, change }
    /// Which passcode the user is typing now.
    enum Stage: String { case current, new, confirm, finished }

    private let entry = SecretDigits()
    /// The new passcode, kept until it is confirmed.
    private let firstEntry = SecretDigits()
    /// ⬤s this keyboard put in the field, so it can take them out again.
    private var dots = 0
    private(set) var flow = Flow.authenticate
    private(set) var stage = Stage.current

    private var options: [String: JSONValue] { hostSettings.options }
    private var user: String { options["user"]?.stringValue ?? "default" }
    private var alphanumeric: Bool { options["alphanumeric"]?.boolValue ?? false }

    var rules: PasscodeRules {
        var rules = PasscodeRules()
        if let minimum = options["minimumLength"]?.numberValue { rules.minimumLength = Int(minimum) }
        if alphanumeric {
            rules.forbidsSequentialDigits = options["noSequentialDigits"]?.boolValue ?? true
            rules.forbidsRepeatedDigits = options["noRepeatedDigits"]?.boolValue ?? true
            rules.strength = options["strength"]?.stringValue.flatMap(PasscodeRules.Strength.init) ?? .letter
            rules.repeatCount = options["repeatCount"]?.numberValue.map { Int($0) } ?? 2
        }
        return rules
    }

    /// The store, with scrypt's cost from `options.scryptCost` (log2 N, 10–20; default 15). Lower it
    /// only for tests: it is what makes a stolen record slow to guess.
    private func store(_ storage: String) -> PasscodeStore {
        let cost = options["scryptCost"]?.numberValue.map { min(max(Int($0), 10), 20) } ?? PasscodeStore.defaultCost
        return PasscodeStore(storage: storage, cost: cost)
    }

    override func createConfiguration() -> KeyboardConfiguration {
        var layout = alphanumeric ? KeyboardLayout(subKeyboards: KeyboardLayout.qwerty.subKeyboards, secure: true) : .numericPad
        if options["shuffle"]?.boolValue == false {
            // For scripted tests only: a pad that does not move, so a key's place is its digit.
            for index in layout.subKeyboards.indices { layout.subKeyboards[index].shuffle = Shuffle.none }
        }
        return KeyboardConfiguration(
            license: Self.license, layout: layout, requestsSecureEntry: true, inputType: alphanumeric ? .text : .digits,
            typing: TypingOptions(keyFeedback: KeyFeedback(highlight: false))
        )
    }

    override func viewDidAppear() {
        guard let storage = storageDirectory else {
            reportError("the host gave no storage folder: passcodes cannot be kept")
            stage = .finished
            return
        }
        guard PasscodeStore.isValidUser(user) else {
            reportError("user '\(user)' is not a valid identifier (letters, digits, '.', '_', '-')")
            stage = .finished
            return
        }
        let store = self.store(storage)
        let exists = store.exists(user: user)
        switch options["flow"]?.stringValue {
        case nil: flow = exists ? .authenticate : .create
        case let name?:
            guard let chosen = Flow(rawValue: name) else {
                reportError("flow '\(name)' is not create, authenticate or change")
                stage = .finished
                return
            }
            flow = chosen
        }
        if flow != .create, !exists {
            reportError("no passcode for '\(user)': create one first")
            stage = .finished
            return
        }
        if flow == .create, exists {
            // Creating over a passcode would reset it without knowing it: changing asks for it first.
            reportError("'\(user)' already has a passcode: change it with --set options.flow=change")
            stage = .finished
            return
        }
        if flow != .create {
            do {
                guard try !store.status(user: user).lockedOut else {
                    finish(KeyboardEvent("locked out", ["user": user]), dismiss: false)
                    return
                }
            } catch {
                reportError(error.description)
                finish(KeyboardEvent("locked out", ["user": user]), dismiss: false)
                return
            }
        }
        if options["shuffle"]?.boolValue == false {
            // Said on every appearance: a pad that does not move lets keystrokes tell the digits.
            reportEvent(KeyboardEvent("insecure", ["reason": "shuffling is off (options.shuffle=false): for scripted tests only"]))
        }
        stage = flow == .create ? .new : .current
        reportUsage()
    }

    override func viewDidDisappear() {
        entry.clear()
        firstEntry.clear()
    }

    override func keyTapped(_ key: Key) {
        switch key.code {
        case .input:
            guard stage != .finished, let text = key.typedText(shift: keyboardState.shift), text.utf8.count == 1,
                  let byte = text.utf8.first, !entry.isFull
            else { return }
            entry.append(byte)
            textDocumentProxy.insertText("⬤")
            dots += 1
            if keyboardState.shift == .on { keyboardState.shift = .off }
            reportEvent(KeyboardEvent("key received", ["key": "input"]))
        case .delete:
            reportEvent(KeyboardEvent("key received", ["key": "delete"]))
            guard !entry.isEmpty else { return }
            entry.removeLast()
            textDocumentProxy.deleteBackward()
            dots -= 1
        case .done, .return:
            reportEvent(KeyboardEvent("key received", ["key": "done"]))
            submit()
        case .cancel, .collapse:
            clearEntry()
            firstEntry.clear()
            dismissKeyboard()
        default:
            super.keyTapped(key)  // shift and mode keys of the alphanumeric layout
        }
    }

    // MARK: Flows

    private func submit() {
        guard stage != .finished, let storage = storageDirectory else { return }
        let store = self.store(storage)
        switch stage {
        case .current:
            do {
                try store.authenticate(entry, user: user)
                clearEntry()
                if flow == .authenticate {
                    finish(KeyboardEvent("authenticated", ["user": user]))
                } else {
                    stage = .new
                    reportUsage()
                }
            } catch .authenticationFailed(let remaining) {
                clearEntry()
                reportEvent(KeyboardEvent("authentication failed", ["attemptsRemaining": "\(remaining)"]))
            } catch .lockedOut {
                clearEntry()
                reportEvent(KeyboardEvent("authentication failed", ["attemptsRemaining": "0"]))
                reportError(PasscodeStoreError.lockedOut.description)
                finish(KeyboardEvent("locked out", ["user": user]), dismiss: false)
            } catch .tampered(let what) {
                clearEntry()
                reportError(PasscodeStoreError.tampered(what).description)
                finish(KeyboardEvent("locked out", ["user": user]), dismiss: false)
            } catch {
                // The attempt could not be counted (an unwritable record, say): it is refused.
                clearEntry()
                reportEvent(KeyboardEvent("authentication failed", ["attemptsRemaining": "unknown"]))
                reportError(error.description)
            }
        case .new:
            if let problem = entry.withBytes({ rules.problem(with: $0) }) {
                clearEntry()
                reportRuleFailure(problem)
                return
            }
            entry.move(to: firstEntry)
            clearField()
            stage = .confirm
            reportUsage()
        case .confirm:
            let matches = entry.matches(firstEntry)
            clearEntry()
            guard matches else {
                firstEntry.clear()
                reportRuleFailure(.confirmationMismatch)
                stage = .new
                reportUsage()
                return
            }
            do {
                try store.setPasscode(firstEntry, for: user)
                firstEntry.clear()
                finish(KeyboardEvent(flow == .create ? "passcode created" : "passcode changed", ["user": user]))
            } catch {
                firstEntry.clear()
                reportError(error.description)
            }
        case .finished:
            break
        }
    }

    private func finish(_ event: KeyboardEvent, dismiss: Bool = true) {
        stage = .finished
        reportEvent(event)
        if dismiss { dismissKeyboard() }
    }

    /// "usage changed": what the user is asked for now.
    private func reportUsage() {
        let usage = switch (flow, stage) {
        case (.create, .new): "create"
        case (.change, .new): "new"
        case (_, .confirm): "confirm"
        case (.change, .current): "current"
        default: "authenticate"
        }
        reportEvent(KeyboardEvent("usage changed", ["usage": usage]))
    }

    private func reportRuleFailure(_ problem: PasscodeRuleError) {
        reportEvent(KeyboardEvent("passcode rule failed", ["rule": problem.rule, "message": problem.description]))
    }

    /// Zeroes what was typed and takes its ⬤s out of the field.
    private func clearEntry() {
        entry.clear()
        clearField()
    }

    private func clearField() {
        for _ in 0..<dots { textDocumentProxy.deleteBackward() }
        dots = 0
    }

    /// Issued by the sample issuer (samples/SampleIssuer: sample-only) to this extension until 2099.
    static let license = LicenseConfiguration(
        licenseKey: "eyJleHBpcmVzIjoiMjA5OS0xMi0zMSIsImV4dGVuc2lvbklkZW50aWZpZXIiOiJkZXYua2Job3N0LnNhbXBsZXMucGFzc2NvZGUiLCJmZWF0dXJlcyI6W10sImlzc3VlciI6IlNhbXBsZSBJc3N1ZXIiLCJpc3N1ZXJLZXkiOiI4YTljYmRhOWFkYzUwNDQ0IiwibGljZW5zZWUiOiJLZXlib2FyZEhvc3Qgc2FtcGxlcyJ9",
        licenseSecret: "7j5A5nZ0G9rLRsWfp5XlgtJQWnzyqG4dDhPa_rZo1jhdiZB8vo6i5uvx_eHsreC-4WJkLfdxb3hUFppTEsRQCg"
    )
}

@_cdecl("kbx_extension_entry")
public func kbxExtensionEntry() -> UnsafeRawPointer? {
    SecurePasscodeKeyboard.export(id: "dev.kbhost.samples.passcode", name: "Secure Passcode", version: "1.0.0")
}
