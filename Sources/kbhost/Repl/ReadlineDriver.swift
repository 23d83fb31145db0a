import CReadline
import Dispatch
import Foundation
import KeyboardHost

/// Runs the REPL on GNU readline in callback mode, on the main queue (docs/Architecture.md, "The REPL"):
/// stdin is a dispatch source whose handler feeds readline one character at a time, so extension
/// callbacks and full-document walks interleave with typing.
///
/// readline's line always mirrors the field (``Repl/lineText``). Keys the REPL binds (printable
/// characters, Backspace, Enter, C-d, C-t, C-x …) act through the keyboard or on the field; every other
/// readline command edits readline's line or moves its cursor, and ``reconcile()`` then applies that to
/// the field as the user's action, converting readline's byte offsets to Characters and never leaving
/// the cursor inside a cluster.
@MainActor
final class ReadlineDriver {
    /// The driver readline's C callbacks reach (they cannot capture).
    static var current: ReadlineDriver?

    let repl: Repl
    private var sources: [any DispatchSourceProtocol] = []
    /// readline's cursor (bytes) after the last reconciliation: tells which way a move went.
    private var lastPoint: Int32 = 0
    /// Bytes of a UTF-8 sequence typed so far.
    private var pendingUTF8: [UInt8] = []

    init(repl: Repl) {
        self.repl = repl
    }

    /// Takes over the terminal and returns; the main queue runs the REPL from here.
    func start() {
        Self.current = self
        setlocale(LC_ALL, "")
        kbx_guard_terminal()
        // Before anything is drawn: a SIGTERM between the first drawing and these would take the
        // default action and leave the terminal raw (a test that signalled once the keyboard showed
        // caught it, on a loaded machine).
        onSignal(SIGINT, orExit: 130) { $0.clearLine() }
        onSignal(SIGTERM, orExit: 143) { $0.exit(143) }
        onSignal(SIGHUP, orExit: 129) { $0.exit(129) }
        kbx_rl_configure()
        bindKeys()
        kbx_rl_set_redisplay { MainActor.assumeIsolated { ReadlineDriver.current?.repl.redraw() } }
        repl.cursorForDrawing = { [unowned self] in characterPoint(roundingUp: false) }
        repl.onFieldChanged = { [unowned self] in
            // A walk changes the field with every round trip, hundreds a second: then readline's line
            // and the screen follow once a frame, not once a change. A key first brings readline's
            // line up to date (readCharacter), so it is never edited against a stale copy.
            guard repl.running != nil else {
                followField()
                repl.redraw()
                return
            }
            guard !fieldChangePending else { return }
            fieldChangePending = true
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(40)) { [weak self] in
                MainActor.assumeIsolated { self?.catchUpWithField() }
            }
        }
        repl.onSubmitted = { text in add_history(text) }
        rl_callback_handler_install("", { line in
            // readline hands over a line only at end of input (the REPL binds Enter itself).
            if line == nil { MainActor.assumeIsolated { ReadlineDriver.current?.exit(0) } }
        })
        followField()
        repl.redraw()

        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { MainActor.assumeIsolated { ReadlineDriver.current?.readCharacter() } }
        input.resume()
        sources.append(input)
        onSignal(SIGWINCH) { driver in
            rl_resize_terminal()
            driver.repl.redraw()
        }
    }

    /// Handles `signalNumber` on the main queue. With `orExit`, the user can always leave: the signal
    /// is taken on a queue of its own, which hands it to the main queue and waits a second; if the
    /// main queue does not take it — an extension's callback in this process never returned — the
    /// terminal is restored here and kbhost exits with `orExit`.
    private func onSignal(
        _ signalNumber: Int32, orExit status: Int32? = nil, _ handler: @escaping @MainActor (ReadlineDriver) -> Void
    ) {
        signal(signalNumber, SIG_IGN)
        guard let status else {
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { ReadlineDriver.current.map(handler) } }
            source.resume()
            sources.append(source)
            return
        }
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: Self.signalQueue)
        source.setEventHandler(handler: Self.handOver(status: status, to: handler))
        source.resume()
        sources.append(source)
    }

    private static let signalQueue = DispatchQueue(label: "kbhost.signals")

    /// The signal queue's handler: not isolated to the main actor, for it runs while the main queue
    /// may be stuck.
    private nonisolated static func handOver(
        status: Int32, to handler: @escaping @MainActor (ReadlineDriver) -> Void
    ) -> @Sendable () -> Void {
        return {
            let taken = DispatchSemaphore(value: 0)
            DispatchQueue.main.async {
                MainActor.assumeIsolated { ReadlineDriver.current.map(handler) }
                taken.signal()
            }
            if taken.wait(timeout: .now() + 1) == .timedOut { leaveStuck(status) }
        }
    }

    /// The main queue is stuck in an extension's callback: restore the terminal from here and go.
    private nonisolated static func leaveStuck(_ status: Int32) -> Never {
        kbx_restore_terminal()
        let message = "\r\n\u{1B}[J\u{1B}[0mkbhost: the keyboard does not answer (a callback of an extension in kbhost's process never returned); the terminal was restored\r\n"
        FileHandle.standardError.write(Data(message.utf8))
        _exit(status)
    }

    private func readCharacter() {
        catchUpWithField()
        rl_callback_read_char()
        reconcile()
    }

    /// Whether the field changed since readline's line last followed it (during a walk).
    private var fieldChangePending = false

    private func catchUpWithField() {
        guard fieldChangePending else { return }
        fieldChangePending = false
        followField()
        repl.redraw()
    }

    /// Leaves readline and the terminal as they were, and exits.
    func exit(_ status: Int32) -> Never {
        sources.forEach { $0.cancel() }
        if repl.isSecure { kbx_rl_wipe() }
        rl_callback_handler_remove()
        repl.screen.finish(prompt: repl.prompt, text: repl.lineText, cursor: characterPoint(roundingUp: false))
        kbx_restore_terminal()
        Foundation.exit(status)
    }

    /// Ctrl-C: the line is abandoned and a new, empty document begins.
    private func clearLine() {
        if repl.cancelPick() { return }
        repl.session.replaceDocument(with: "")
        repl.message = "line cleared"
        repl.redraw()
    }

    // MARK: readline's line and the field

    /// The field changed (the keyboard's edits, a new document): readline's line follows.
    private func followField() {
        let text = repl.lineText
        let point = Int32(String(text.prefix(repl.field.cursor)).utf8.count)
        if String(cString: kbx_rl_line()) != text || kbx_rl_point() != point {
            text.withCString { kbx_rl_replace($0, point) }
        }
        lastPoint = point
    }

    /// After a readline command: what it changed is the user acting in the field.
    private func reconcile() {
        let bytes = Array(UnsafeBufferPointer(start: kbx_rl_line(), count: Int(kbx_rl_end())).map { UInt8(bitPattern: $0) })
        guard let line = String(validating: bytes, as: UTF8.self) else { return }  // mid-sequence: wait
        let point = kbx_rl_point()
        let shown = repl.lineText
        if line != shown {
            let (range, inserted) = Self.difference(from: shown, to: line)
            if repl.isSecure && !inserted.isEmpty {
                repl.message = "a secure field takes text only from its keyboard"
                followField()
                repl.redraw()
                return
            }
            repl.session.userReplace(range, with: inserted, caret: characterPoint(roundingUp: point > lastPoint))
        } else if point != lastPoint {
            repl.session.userMoveCursor(to: characterPoint(roundingUp: point > lastPoint))
        }
        followField()
        repl.redraw()
    }

    /// readline's cursor in Characters, rounded to a cluster boundary in the direction it moved.
    private func characterPoint(roundingUp: Bool) -> Int {
        let line = String(decoding: UnsafeBufferPointer(start: kbx_rl_line(), count: Int(kbx_rl_end())).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Self.characterOffset(in: line, utf8Offset: Int(kbx_rl_point()), roundingUp: roundingUp)
    }

    /// The Character offset of a UTF-8 offset in `text`; inside a Character, the boundary before or after.
    static func characterOffset(in text: String, utf8Offset: Int, roundingUp: Bool) -> Int {
        var bytes = 0
        for (offset, character) in text.enumerated() {
            if bytes >= utf8Offset { return offset }
            bytes += character.utf8.count
            if bytes > utf8Offset { return roundingUp ? offset + 1 : offset }
        }
        return text.count
    }

    /// Where two lines differ, in Characters of the first, and what the second has there instead.
    static func difference(from old: String, to new: String) -> (range: Range<Int>, inserted: String) {
        let a = Array(old), b = Array(new)
        var prefix = 0
        while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(a.count, b.count) - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        return (prefix..<(a.count - suffix), String(b[prefix..<(b.count - suffix)]))
    }

    // MARK: Keys

    private func bindKeys() {
        for key in Int32(32)...Int32(126) {
            kbx_rl_bind_key(key) { _, key in
                MainActor.assumeIsolated { ReadlineDriver.current?.repl.type(Character(Unicode.Scalar(UInt8(key)))) }
                return 0
            }
        }
        for key in Int32(128)...Int32(255) {
            kbx_rl_bind_key(key) { _, key in
                MainActor.assumeIsolated { ReadlineDriver.current?.typeUTF8Byte(UInt8(key)) }
                return 0
            }
        }
        for key: Int32 in [127, 8] {  // Backspace, C-h
            kbx_rl_bind_key(key) { _, _ in
                MainActor.assumeIsolated { ReadlineDriver.current?.repl.backspace() }
                return 0
            }
        }
        for key: Int32 in [13, 10] {  // Enter, C-j
            kbx_rl_bind_key(key) { _, _ in
                MainActor.assumeIsolated { ReadlineDriver.current?.repl.enter() }
                return 0
            }
        }
        kbx_rl_bind_key(9) { _, _ in  // Tab
            MainActor.assumeIsolated { ReadlineDriver.current?.repl.tabKey() }
            return 0
        }
        kbx_rl_bind_key(7) { _, _ in  // C-g: leave the key picker (readline's abort otherwise)
            MainActor.assumeIsolated { ReadlineDriver.current?.repl.cancelPick() ?? false } ? 0 : rl_abort(0, 7)
        }
        // Forward delete by Character (readline's deletes a code point, which can split a cluster);
        // on an empty line C-d ends the REPL, as in a shell.
        kbx_rl_bind_key(4) { _, _ in
            MainActor.assumeIsolated { ReadlineDriver.current?.controlD() }
            return 0
        }
        kbx_rl_bind_keyseq("\\e[3~") { _, _ in
            MainActor.assumeIsolated { ReadlineDriver.current?.repl.session.userDeleteForward() }
            return 0
        }
        // Transpose whole Characters, not code points.
        kbx_rl_bind_key(20) { _, _ in
            MainActor.assumeIsolated { ReadlineDriver.current?.transpose() }
            return 0
        }
        // A document of several lines is edited as one: Up and Down move between its lines (at the
        // same column, as far as the line goes), Home and End to its line's ends; in a document of
        // one line they are readline's own (history, the line's ends).
        bind(["\\e[A", "\\eOA"]) { count, key in
            MainActor.assumeIsolated { ReadlineDriver.current?.moveLine(by: -1) ?? false } ? 0 : rl_get_previous_history(count, key)
        }
        bind(["\\e[B", "\\eOB"]) { count, key in
            MainActor.assumeIsolated { ReadlineDriver.current?.moveLine(by: 1) ?? false } ? 0 : rl_get_next_history(count, key)
        }
        bind(["\\e[H", "\\eOH", "\\e[1~", "\\C-a"]) { count, key in
            MainActor.assumeIsolated { ReadlineDriver.current?.moveToLineEdge(end: false) ?? false } ? 0 : rl_beg_of_line(count, key)
        }
        bind(["\\e[F", "\\eOF", "\\e[4~", "\\C-e"]) { count, key in
            MainActor.assumeIsolated { ReadlineDriver.current?.moveToLineEdge(end: true) ?? false } ? 0 : rl_end_of_line(count, key)
        }
        ReplCommands.bind()
    }

    private func bind(_ sequences: [String], _ function: @convention(c) (Int32, Int32) -> Int32) {
        for sequence in sequences {
            _ = kbx_rl_bind_keyseq(sequence, function)
        }
    }

    /// Where the cursor's line begins and ends in the field's text, and the cursor's column in it
    /// (Characters); `nil` for a document of one line (or a secure field, whose text is not shown).
    private func cursorLine() -> (text: String, start: Int, end: Int, column: Int)? {
        let text = repl.lineText
        guard !repl.isSecure, text.contains(where: \.isNewline) else { return nil }
        let caret = text.index(text.startIndex, offsetBy: repl.field.cursor, limitedBy: text.endIndex) ?? text.endIndex
        let lineStart = text[..<caret].lastIndex(where: \.isNewline).map { text.index(after: $0) } ?? text.startIndex
        let lineEnd = text[caret...].firstIndex(where: \.isNewline) ?? text.endIndex
        let column = text.distance(from: lineStart, to: caret)
        let cursor = repl.field.cursor
        return (text, cursor - column, cursor + text.distance(from: caret, to: lineEnd), column)
    }

    /// Up (-1) or Down (1) a line, to the same column or the line's end; `false` if the document has
    /// one line (readline's history then).
    private func moveLine(by delta: Int) -> Bool {
        guard let line = cursorLine() else { return false }
        let text = line.text
        let target: Int
        if delta < 0 {
            guard line.start > 0 else { return true }  // the first line: stay
            let end = text.index(text.startIndex, offsetBy: line.start - 1)  // the line break before
            let start = text[..<end].lastIndex(where: \.isNewline).map { text.index(after: $0) } ?? text.startIndex
            let length = text.distance(from: start, to: end)
            target = line.start - 1 - length + min(line.column, length)
        } else {
            guard line.end < repl.field.count else { return true }  // the last line: stay
            let start = text.index(text.startIndex, offsetBy: line.end + 1)
            let end = text[start...].firstIndex(where: \.isNewline) ?? text.endIndex
            target = line.end + 1 + min(line.column, text.distance(from: start, to: end))
        }
        repl.session.userMoveCursor(to: target)
        followField()
        repl.redraw()
        return true
    }

    /// Home or End of the cursor's line; `false` if the document has one line.
    private func moveToLineEdge(end: Bool) -> Bool {
        guard let line = cursorLine() else { return false }
        repl.session.userMoveCursor(to: end ? line.end : line.start)
        followField()
        repl.redraw()
        return true
    }

    private func typeUTF8Byte(_ byte: UInt8) {
        pendingUTF8.append(byte)
        if let text = String(validating: pendingUTF8, as: UTF8.self) {
            pendingUTF8.removeAll()
            text.forEach(repl.type)
        } else if pendingUTF8.count >= 4 || (pendingUTF8.first.map { $0 < 0xC0 } ?? false) {
            pendingUTF8.removeAll()  // not UTF-8: dropped, never half-inserted
        }
    }

    private func controlD() {
        if repl.field.count == 0 { exit(0) }
        repl.session.userDeleteForward()
    }

    private func transpose() {
        let field = repl.field
        guard field.count >= 2, field.selection.isEmpty else { return }
        let caret = min(max(field.cursor, 1), field.count - 1)
        let characters = Array(field.text)
        repl.session.userReplace((caret - 1)..<(caret + 1), with: String([characters[caret], characters[caret - 1]]), caret: caret + 1)
    }
}
