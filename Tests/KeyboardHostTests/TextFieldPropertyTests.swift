import KeyboardHost
import KeyboardTesting
import PropertyBased
import Testing
import TestSupport

/// Random Unicode documents with every kind of cluster, random selections and random edits.
@Suite("TextField: properties over random Unicode")
struct TextFieldPropertyTests {
    static let policies: [ContextPolicy] = [
        .characters(1), .characters(7), .utf8Bytes(1), .utf8Bytes(10), .wayland, .sentence, .paragraph, .unlimited,
    ]

    /// What the field sees or does to its text, as the tests generate it.
    enum Action: Sendable, CustomStringConvertible {
        case edit(TextOperation)
        case select(Range<Int>)

        var description: String {
            switch self {
            case .edit(let operation): "\(operation)"
            case .select(let range): "select(\(range))"
            }
        }
    }

    static let actions = zip(
        Gen.int(in: 0...9), Gen.int(in: -6...6), Gen.int(in: 0...6), Gen.element(of: UnicodeSamples.atoms)
    ).map { value -> Action in
        let (kind, number, length, atom) = value
        let text = atom ?? "a"
        switch kind {
        case 0, 1: return .edit(.insertText(text))
        case 2: return .edit(.deleteBackward)
        case 3: return .edit(.adjustTextPosition(byCharacterOffset: number))
        case 4: return .edit(.setMarkedText(text, selectedRange: length..<(length + 1)))
        case 5: return .edit(.unmarkText)
        case 6: return .select(abs(number) * 3..<(abs(number) * 3 + length))
        case 7: return .edit(.setSelectedRange(abs(number) * 2..<(abs(number) * 2 + length), ifSnapshot: 0))
        case 8: return .edit(.deleteRange(abs(number) * 2..<(abs(number) * 2 + length), ifSnapshot: 0))
        default: return .edit(.insertText(text + text))
        }
    }.array(of: 0...25)

    static func perform(_ action: Action, on field: inout TextField, and reference: inout ReferenceField) {
        switch action {
        case .edit(let operation):
            operation.apply(to: &field)
            reference.apply(operation)
        case .select(let range):
            field.select(range)
            reference.select(range)
        }
    }

    /// Equal as Unicode scalars, not just canonically equivalent ("é" and "e\u{301}" differ here).
    private func same(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    @Test func windowsAreExactlyThePolicysDefinition() async {
        await propertyCheck(
            count: 400, input: UnicodeSamples.document(), Gen.int(in: 0...80), Gen.int(in: 0...8), Gen.element(of: Self.policies)
        ) { text, start, length, policy in
            let policy = policy ?? .unlimited
            let characters = Array(text)
            let lower = min(start, characters.count)
            let selection = lower..<min(lower + length, characters.count)
            let field = TextField(text: text, selection: selection)

            let before = field.contextBefore(policy), after = field.contextAfter(policy)
            #expect(same(before, PolicyDefinition.before(characters, end: selection.lowerBound, policy)), "\(policy) before")
            #expect(same(after, PolicyDefinition.after(characters, start: selection.upperBound, policy)), "\(policy) after")
            // Whole Characters of the document: a window's own clusters are the document's.
            #expect(before.count <= selection.lowerBound)
            #expect(Array(before).elementsEqual(characters[(selection.lowerBound - before.count)..<selection.lowerBound]) { same(String($0), String($1)) })
            #expect(Array(after).elementsEqual(characters[selection.upperBound..<(selection.upperBound + after.count)]) { same(String($0), String($1)) })
            if case .utf8Bytes(let limit) = policy {
                #expect(before.utf8.count <= limit || before.count == 1)
                #expect(after.utf8.count <= limit || after.count == 1)
            }
            // Only the end of the document has an empty window after the cursor.
            #expect(after.isEmpty == (selection.upperBound == characters.count))
        }
    }

    @Test func editsMatchTheReferenceAndNeverSplitACluster() async {
        await propertyCheck(count: 400, input: UnicodeSamples.document(), Gen.int(in: 0...60), Self.actions) { text, cursor, actions in
            var field = TextField(text: text, cursor: cursor)
            var reference = ReferenceField(text: text, cursor: cursor)
            for action in actions {
                Self.perform(action, on: &field, and: &reference)
                let now = field.text
                #expect(same(now, reference.text), "text after \(action)")
                #expect(field.selection == reference.selection, "selection after \(action)")
                #expect(field.markedRange == reference.marked, "marked range after \(action)")
                #expect(field.count == now.count)
                // No cut inside a cluster: the parts around the selection have exactly the document's
                // Characters (a split cluster would count as more).
                let before = field.contextBefore(.unlimited), selected = field.selectedText, after = field.contextAfter(.unlimited)
                #expect(before.count + selected.count + after.count == now.count, "split cluster after \(action)")
                #expect(same(before + selected + after, now))
                if let marked = field.markedRange { #expect(marked.upperBound <= field.count) }
            }
        }
    }

    @Test func largeDocumentsSpanningManyRopeChunks() async {
        await propertyCheck(count: 40, input: UnicodeSamples.document(pieces: 300...600), Gen.int(in: 0...2000), Self.actions) { text, cursor, actions in
            var field = TextField(text: text, cursor: cursor)
            var reference = ReferenceField(text: text, cursor: cursor)
            for action in actions {
                // Selections spread over the larger document.
                let spread: Action = if case .select(let range) = action {
                    .select(range.lowerBound * 40..<(range.upperBound * 40))
                } else { action }
                Self.perform(spread, on: &field, and: &reference)
            }
            #expect(same(field.text, reference.text))
            #expect(field.selection == reference.selection)
            for policy in Self.policies {
                let characters = Array(field.text)
                #expect(same(field.contextBefore(policy), PolicyDefinition.before(characters, end: field.selection.lowerBound, policy)))
                #expect(same(field.contextAfter(policy), PolicyDefinition.after(characters, start: field.selection.upperBound, policy)))
            }
        }
    }

    /// Sentences and paragraphs many times longer than the blocks the windows are scanned in (256
    /// bytes, doubling): boundaries are rare, so a window's edge falls anywhere in a block or at its
    /// seam, and a CR LF or a "." with a mark may straddle one.
    @Test func longSentencesSpanningTheScanBlocks() async {
        let breaking: Set<Unicode.Scalar> = [".", "!", "?", "。", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        let plain = UnicodeSamples.atoms.filter { atom in !atom.unicodeScalars.contains(where: breaking.contains) }
        let boundaries = UnicodeSamples.atoms.filter { !plain.contains($0) }
        let pieces = zip(Gen.int(in: 0...60), Gen.element(of: plain), Gen.element(of: boundaries)).map { roll, piece, boundary in
            roll == 0 ? boundary ?? "." : piece ?? "a"
        }
        await propertyCheck(count: 60, input: pieces.array(of: 200...3000), Gen.int(in: 0...3000)) { pieces, cursor in
            let text = pieces.joined()
            let characters = Array(text)
            let field = TextField(text: text, cursor: min(cursor, characters.count))
            for policy in [ContextPolicy.sentence, .paragraph] {
                #expect(same(field.contextBefore(policy), PolicyDefinition.before(characters, end: field.selection.lowerBound, policy)))
                #expect(same(field.contextAfter(policy), PolicyDefinition.after(characters, start: field.selection.upperBound, policy)))
            }
        }
    }

    /// Every boundary at every position around the first seams of the scan blocks (256 and 768 bytes
    /// from the cursor), with fillers of 1 to 4 bytes so that a seam falls inside a scalar too.
    @Test(arguments: ["a", "é", "漢", "🙂"])
    func boundariesAtTheSeamsOfTheScanBlocks(filler: String) {
        let boundaries = [".", "!", "\n", "\r\n", "\u{2029}", "。", ".\u{301}", "\u{600}.", "\r", "\u{85}"]
        let bytes = filler.utf8.count
        for boundary in boundaries {
            for seam in [256, 768] {
                for count in (seam / bytes - 6)...(seam / bytes + 6) {
                    let run = String(repeating: filler, count: count)
                    for text in ["x" + boundary + run, run + boundary + "x"] {
                        let characters = Array(text)
                        for cursor in [0, characters.count] {
                            let field = TextField(text: text, cursor: cursor)
                            for policy in [ContextPolicy.sentence, .paragraph] {
                                #expect(same(field.contextBefore(policy), PolicyDefinition.before(characters, end: cursor, policy)))
                                #expect(same(field.contextAfter(policy), PolicyDefinition.after(characters, start: cursor, policy)))
                            }
                        }
                    }
                }
            }
        }
    }
}
