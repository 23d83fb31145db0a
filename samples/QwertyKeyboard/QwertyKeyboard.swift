import KeyboardExtension

/// The everyday keyboard: the built-in QWERTY (letters with shift and caps lock, numbers, symbols,
/// delete, space, return, the globe key) under a toolbar of actions, with autocapitalization at the
/// start of a sentence and the double-space full stop.
///
/// The toolbar: delete the word before the cursor, undo what the last touch typed or deleted, and
/// four actions on the whole document through the full-document reader — read all (the keyboard
/// reports the counts), clear all, and move to the beginning or the end. A walk reports its outcome,
/// or why it stopped (the user typed, say).
///
/// Gestures, with the SDK's defaults: the Latin letters that have accents offer them on a long-press
/// (`kbhost run … --type 'caf{longpress:e:é}'`), delete repeats while held and then takes words, and
/// a drag on the space bar moves the caret (`{drag:space:-5}`).
///
/// Under the toolbar, a suggestion row: the words that complete the one being typed, from what the
/// proxy shows of the document and from the supplementary lexicon (the user's words and text
/// replacements); a tap puts the word in place of what was typed of it. The globe key is there only
/// where `needsInputModeSwitchKey` says so (the host has other keyboards); elsewhere the space bar
/// takes its room.
final class QwertyKeyboard: KeyboardViewController {
    /// The accents iOS's English keyboard offers on each letter's long-press.
    static let callouts: [String: [String]] = [
        "a": ["à", "á", "â", "ä", "æ", "ã", "å", "ā"], "c": ["ç", "ć", "č"],
        "e": ["è", "é", "ê", "ë", "ē", "ė", "ę"], "i": ["î", "ï", "í", "ī", "į", "ì"], "l": ["ł"],
        "n": ["ñ", "ń"], "o": ["ô", "ö", "ò", "ó", "œ", "ø", "ō", "õ"], "s": ["ß", "ś", "š"],
        "u": ["û", "ü", "ù", "ú", "ū"], "y": ["ÿ"], "z": ["ž", "ź", "ż"],
    ]

    override func createConfiguration() -> KeyboardConfiguration {
        let toolbar = [
            Key(code: .action("readAll"), label: "read all", width: 2),
            Key(code: .action("clearAll"), label: "clear all", width: 2),
            Key(code: .action("moveToStart"), label: "⇤ start", width: 2),
            Key(code: .action("moveToEnd"), label: "end ⇥", width: 2),
            Key(code: .action("deleteWord"), label: "⌫ word", width: 2),
            Key(code: .action("undo"), label: "↶ undo", width: 2),
        ]
        var layout = KeyboardLayout.qwerty
        for row in layout.subKeyboards[0].rows.indices {
            for column in layout.subKeyboards[0].rows[row].indices {
                let key = layout.subKeyboards[0].rows[row][column]
                layout.subKeyboards[0].rows[row][column].callouts = Self.callouts[key.label] ?? []
            }
        }
        layout.subKeyboards[0].rows.insert(toolbar, at: 0)
        layout.subKeyboards[0].rows.insert(Self.suggestionRow([]), at: Self.suggestionRowIndex)
        if !needsInputModeSwitchKey {
            for page in layout.subKeyboards.indices {
                for row in layout.subKeyboards[page].rows.indices {
                    let keys = layout.subKeyboards[page].rows[row]
                    guard let globe = keys.firstIndex(where: { $0.code == .nextKeyboard }),
                          let space = keys.firstIndex(where: { $0.code == .space }) else { continue }
                    layout.subKeyboards[page].rows[row][space].width += keys[globe].width
                    layout.subKeyboards[page].rows[row].remove(at: globe)
                }
            }
        }
        return KeyboardConfiguration(
            license: Self.license, layout: layout,
            typing: TypingOptions(autocapitalization: true, doubleSpacePeriod: true)
        )
    }

    override func keyPressed(_ key: Key) {
        wordDeletion = nil  // any key ends a word deletion under way
        super.keyPressed(key)
    }

    override func keyTapped(_ key: Key) {
        wordDeletion = nil  // any key ends a word deletion under way
        guard case .action(let action) = key.code else { return super.keyTapped(key) }
        switch action {
        case "suggestion": accept(key.label)
        case "undo": if !undoManager.undo() { reportEvent(KeyboardEvent("nothing to undo")) }
        case "deleteWord": deleteWordBackward()
        case "readAll": walk("read all") { try await self.readAll() }
        case "clearAll":
            walk("clear all") { ["deletedCharacters": "\(try await self.deleteFullDocumentContext().deletedCharacters)"] }
        case "moveToStart": walk("move to start") { try await self.moveCursorToBeginningOfDocument(); return [:] }
        case "moveToEnd": walk("move to end") { try await self.moveCursorToEndOfDocument(); return [:] }
        default: reportError("no action '\(action)'")
        }
    }

    /// A "delete word" under way: the proxy shows only part of the document (the host's context
    /// policy: at a sentence start, perhaps only a space), so it deletes what it sees and goes on after
    /// the next snapshot until it has taken a word.
    private enum WordDeletion { case spaces, word }
    private var wordDeletion: WordDeletion?

    /// Deletes the spaces before the cursor and the word before them (or one other character, such
    /// as a full stop), as iOS's delete key does when held.
    func deleteWordBackward() {
        wordDeletion = .spaces
        continueWordDeletion()
    }

    private func continueWordDeletion() {
        guard var phase = wordDeletion else { return }
        let before = textDocumentProxy.documentContextBeforeInput ?? ""
        guard !before.isEmpty else {
            // Nothing shown before the cursor: the start of the document, or (under the sentence
            // policy) a sentence end the proxy does not show. Still looking for the word, that end is
            // the "word": one delete (nothing, at the start).
            if phase == .spaces, textDocumentProxy.hasText { textDocumentProxy.deleteBackward() }
            wordDeletion = nil
            return
        }
        var count = 0, finished = false
        for character in before.reversed() {
            if phase == .spaces {
                if character.isWhitespace {
                    count += 1
                    continue
                }
                phase = .word
                if !Self.isWordCharacter(character) {
                    count += 1  // punctuation alone is a word of its own
                    finished = true
                    break
                }
            }
            guard Self.isWordCharacter(character) else {
                finished = true
                break
            }
            count += 1
        }
        wordDeletion = finished ? nil : phase
        for _ in 0..<count { textDocumentProxy.deleteBackward() }
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "'"
    }

    /// Goes on once its deletes have landed. Not on `textDidChange`: iOS sends none for a keyboard's
    /// own edits, and the deletion would stop after what the first window showed.
    override func editsDidApply() {
        super.editsDidApply()
        continueWordDeletion()
        updateSuggestions()
    }

    // MARK: Suggestions

    static let suggestionRowIndex = 1
    static let suggestionCount = 3
    /// How many Characters either side of the caret the suggestions look through.
    static let suggestionContext = 2000

    /// The user's words and text replacements, once the host's lexicon has come.
    private var lexicon: [LexiconEntry] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        requestSupplementaryLexicon { [weak self] lexicon in
            self?.lexicon = lexicon.entries
            self?.updateSuggestions()
        }
    }

    override func textDidChange() {
        super.textDidChange()
        updateSuggestions()
    }

    override func selectionDidChange() {
        super.selectionDidChange()
        updateSuggestions()
    }

    /// The row's keys: one per suggestion, the rest blank.
    static func suggestionRow(_ words: [String]) -> [Key] {
        (0..<suggestionCount).map { index in
            Key(code: .action("suggestion"), label: index < words.count ? words[index] : "", width: 10 / Double(suggestionCount))
        }
    }

    /// The part of a word just before the caret.
    private var typedPart: Substring {
        let before = textDocumentProxy.documentContextBeforeInput ?? ""
        return before.suffix(before.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "'" }.count)
    }

    /// Shows the suggestions for the word being typed (none in a secure field, or between words),
    /// as the host redraws a layout the keyboard changes.
    private func updateSuggestions() {
        guard !isWalkingFullDocument, layout.subKeyboards.first?.rows.indices.contains(Self.suggestionRowIndex) == true else { return }
        let prefix = textDocumentProxy.isSecureTextEntry ? "" : String(typedPart)
        // The words near the caret, as far as the proxy shows (at most suggestionContext each side):
        // a keystroke must not walk a whole document a wide window shows.
        let words = prefix.isEmpty ? [] : Self.suggestions(
            completing: prefix,
            document: (textDocumentProxy.documentContextBeforeInput ?? "").suffix(Self.suggestionContext) + " "
                + (textDocumentProxy.documentContextAfterInput ?? "").prefix(Self.suggestionContext),
            lexicon: lexicon
        )
        let row = Self.suggestionRow(words)
        guard layout.subKeyboards[0].rows[Self.suggestionRowIndex] != row else { return }
        var changed = layout
        changed.subKeyboards[0].rows[Self.suggestionRowIndex] = row
        layout = changed
    }

    /// Up to ``suggestionCount`` words for `prefix`: the lexicon's entries whose input starts with it
    /// (a text replacement's text, a word of the user's), then the document's words that start with
    /// it, most frequent first (then in alphabetical order); never the prefix itself.
    static func suggestions(completing prefix: String, document: String, lexicon: [LexiconEntry]) -> [String] {
        guard !prefix.isEmpty else { return [] }
        let lowered = prefix.lowercased()
        var found: [String] = []
        func add(_ word: String) {
            if word.lowercased() != lowered, !found.contains(word), found.count < suggestionCount { found.append(word) }
        }
        for entry in lexicon where entry.userInput.lowercased().hasPrefix(lowered) { add(entry.documentText) }
        var counts: [String: Int] = [:]
        for word in document.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }) where word.lowercased().hasPrefix(lowered) {
            counts[String(word), default: 0] += 1
        }
        for word in counts.keys.sorted(by: { (counts[$0]!, $1) > (counts[$1]!, $0) }) { add(word) }
        return found
    }

    /// A suggestion tapped: it takes the place of what was typed of the word, and a space follows.
    private func accept(_ word: String) {
        guard !word.isEmpty else { return }
        for _ in 0..<typedPart.count { textDocumentProxy.deleteBackward() }
        textDocumentProxy.insertText(word + " ")
    }

    /// The counts of the whole document: characters, words (runs between spaces with a letter or digit),
    /// sentences and lines.
    private func readAll() async throws(FullDocumentContext.Error) -> [String: String] {
        let context = try await readFullDocumentContext()
        let text = context.fullDocumentContextBeforeInput + (context.selectedText ?? "") + context.fullDocumentContextAfterInput
        let words = text.split(whereSeparator: \.isWhitespace).filter { $0.contains { $0.isLetter || $0.isNumber } }.count
        let lines = text.isEmpty ? 0 : text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        return [
            "characters": "\(text.count)", "words": "\(words)", "sentences": "\(Self.sentenceCount(text))", "lines": "\(lines)",
            "roundTrips": "\(context.roundTrips)",
        ]
    }

    /// Sentences: runs of text that hold a letter or digit, ended by `.`, `!`, `?` or a line break
    /// (or the end of the text). Foundation on Linux has no sentence enumeration.
    static func sentenceCount(_ text: String) -> Int {
        var count = 0, hasContent = false
        for character in text {
            if character.isLetter || character.isNumber { hasContent = true }
            if ".!?".contains(character) || character.isNewline {
                if hasContent { count += 1 }
                hasContent = false
            }
        }
        return count + (hasContent ? 1 : 0)
    }

    /// Runs a full-document action and reports how it ended: its details, or the error that stopped it.
    private func walk(_ name: String, _ body: @escaping @MainActor () async throws -> [String: String]) {
        Task { @MainActor in
            do {
                reportEvent(KeyboardEvent(name, try await body()))
            } catch {
                reportEvent(KeyboardEvent(name + " stopped", ["error": "\(error)"]))
            }
        }
    }

    /// Issued by the sample issuer (samples/SampleIssuer: sample-only) to this extension until 2099.
    static let license = LicenseConfiguration(
        licenseKey: "eyJleHBpcmVzIjoiMjA5OS0xMi0zMSIsImV4dGVuc2lvbklkZW50aWZpZXIiOiJkZXYua2Job3N0LnNhbXBsZXMucXdlcnR5IiwiZmVhdHVyZXMiOltdLCJpc3N1ZXIiOiJTYW1wbGUgSXNzdWVyIiwiaXNzdWVyS2V5IjoiOGE5Y2JkYTlhZGM1MDQ0NCIsImxpY2Vuc2VlIjoiS2V5Ym9hcmRIb3N0IHNhbXBsZXMifQ",
        licenseSecret: "X3BXHMWo7b-gNyC7Se4i2_qa4BgvF5VpVZn9a47iP87haWsHzSB8RUr5zRTcV-9q_-IJx-KROmaZaBuK-GqlAg"
    )
}

@_cdecl("kbx_extension_entry")
public func kbxExtensionEntry() -> UnsafeRawPointer? {
    QwertyKeyboard.export(id: "dev.kbhost.samples.qwerty", name: "QWERTY", version: "1.0.0")
}
