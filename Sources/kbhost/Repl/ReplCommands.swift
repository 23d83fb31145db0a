import CReadline
import KeyboardHost

/// The REPL's commands, after the C-x prefix. One table: the bindings and the help come from it.
@MainActor
enum ReplCommands {
    struct Command {
        let key: Character
        let help: String
        let run: @MainActor (Repl) -> Void
    }

    static let commands: [Command] = [
        Command(key: "n", help: "next keyboard (the globe key)") { $0.nextKeyboard() },
        Command(key: "r", help: "read the whole document") { $0.run(.readFullDocument) },
        Command(key: "d", help: "delete the whole document") { $0.run(.deleteFullDocument) },
        Command(key: "b", help: "move to the beginning") { $0.run(.moveToBeginning) },
        Command(key: "e", help: "move to the end") { $0.run(.moveToEnd) },
        Command(key: "t", help: "tap any key: type part of its label, Tab, Enter") { $0.pickKey() },
        Command(key: "L", help: "long-press a key: its character, then the callout's number") { $0.beginGesture(.longPress) },
        Command(key: "H", help: "hold a key 1 s: its character, or Backspace (delete repeats)") { $0.beginGesture(.hold) },
        Command(key: "<", help: "drag the space bar a step left (the caret follows)") { $0.dragSpace(by: -1) },
        Command(key: ">", help: "drag the space bar a step right") { $0.dragSpace(by: 1) },
        Command(key: "p", help: "next context policy") { $0.nextPolicy() },
        Command(key: "i", help: "proxy inspector") { $0.inspect() },
        Command(key: "l", help: "the event log: all the status row said") { $0.printLog() },
        Command(key: "k", help: "show or hide the keyboard; show one that dismissed itself") { $0.showOrHideKeyboard() },
        Command(key: "R", help: "restart a keyboard that failed") { $0.restart() },
        Command(key: "h", help: "this help") { $0.help() },
    ]

    static func bind() {
        for command in commands {
            _ = "\\C-x\(command.key)".withCString { sequence in
                kbx_rl_bind_keyseq(sequence) { _, key in
                    MainActor.assumeIsolated {
                        guard let repl = ReadlineDriver.current?.repl,
                              let command = ReplCommands.commands.first(where: { $0.key == Character(Unicode.Scalar(UInt8(key))) })
                        else { return }
                        command.run(repl)
                    }
                    return 0
                }
            }
        }
    }
}

extension Repl {
    /// Runs a host command on the keyboard; the status row shows its progress, then its result. Keys
    /// keep working meanwhile: typing ends a walk (userCancelled).
    func run(_ command: HostCommand) {
        guard running == nil else {
            message = "\(running!.command) is still running"
            redraw()
            return
        }
        running = (command, 0)
        redraw()
        Task { @MainActor in
            let result = await session.perform(command)
            running = nil
            message = Self.summary(result)
            if result.succeeded, command == .readFullDocument, !isSecure { printRead(result) }
            onFieldChanged?()
            redraw()
        }
    }

    /// The most lines of a read the REPL prints above the field; `kbhost run --action
    /// read-full-document` gives it all.
    static let printedReadLines = 20

    /// What a read returned, above the field, where the terminal keeps it: the text before the
    /// cursor, a dim "│" where the cursor was, the selection and the text after; at most
    /// ``printedReadLines`` lines, each cut to the width.
    private func printRead(_ result: CommandResult) {
        let width = screen.width - 1
        let cursor = screen.style("│", "2")
        let selected = result.selected.map { $0.isEmpty ? "" : screen.style(screen.safe($0), "7") } ?? ""
        let lines = [screen.style(Self.summary(result) + ":", "1")]
        // Split before escaping, so a line break ends a line rather than showing as \n.
        let before = (result.before ?? "").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let after = (result.after ?? "").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var text = before.dropLast().map { DisplayWidth.fitted(screen.safe($0), columns: width) }
        // The cursor's line: at most half the width before the cursor, the rest after; styled
        // after cutting.
        var head = screen.safe(before.last ?? "")
        if DisplayWidth.columns(of: head) > width / 2 { head = "…" + DisplayWidth.suffix(of: head, fitting: width / 2 - 1) }
        let tail = screen.safe(after.first ?? "")
        let room = max(width - 1 - DisplayWidth.columns(of: head), 0)
        text.append(head + cursor + selected + DisplayWidth.fitted(tail, columns: room))
        text += after.dropFirst().map { DisplayWidth.fitted(screen.safe($0), columns: width) }
        if text.count > Self.printedReadLines {
            let more = text.count - Self.printedReadLines
            text = Array(text.prefix(Self.printedReadLines)) + [screen.style("… \(more) more line\(more == 1 ? "" : "s") (kbhost run --action read-full-document prints them all)", "2")]
        }
        screen.printAbove(lines + text.map { "  " + $0 })
    }

    static func summary(_ result: CommandResult) -> String {
        guard result.succeeded else {
            let deleted = result.deletedCharacters.map { $0 > 0 ? " after deleting \($0) characters" : "" } ?? ""
            return "\(result.command): \(result.error ?? "failed")\(deleted)"
        }
        let trips = roundTrips(result.roundTrips ?? 0) + (result.exact == false ? ", not certain" : "")
        switch result.command {
        case .readFullDocument:
            let before = result.before?.count ?? 0, after = result.after?.count ?? 0
            let selected = result.selected?.count ?? 0
            return "read \(before + selected + after) characters (\(before) before, \(after) after the cursor) in \(trips)"
        case .deleteFullDocument:
            return "deleted \(result.deletedCharacters ?? 0) characters in \(trips)"
        case .moveToBeginning, .moveToEnd:
            return "\(result.command) in \(trips)"
        }
    }

    /// "1 round trip", "2 round trips".
    static func roundTrips(_ count: Int) -> String {
        "\(count) round trip\(count == 1 ? "" : "s")"
    }

    static let policies: [ContextPolicy] = [.sentence, .paragraph, .wayland, .characters(64), .unlimited]

    func nextPolicy() {
        let index = Self.policies.firstIndex(of: session.policy).map { ($0 + 1) % Self.policies.count } ?? 0
        session.policy = Self.policies[index]
        options.policy = session.policy
        message = "context policy: \(session.policy)"
        redraw()
    }

    /// What the extension's proxy sees now, and the latest calls between host and extension: at most
    /// ``inspectorCallbacks`` of them, each line cut to the width, so it fits an 80 × 24 terminal
    /// with the field and the keyboard.
    func inspect() {
        let field = self.field
        let policy = session.policy
        let width = screen.width - 1
        func shown(_ text: String) -> String {
            isSecure ? String(repeating: "⬤", count: text.count) : text.debugDescription
        }
        let traits = field.traits
        let state = session.keyboardState
        let page = session.configuration?.layout.subKeyboards[safe: state.subKeyboard]?.mode.rawValue ?? "none shown"
        var lines = [
            "policy                     \(policy)",
            "documentContextBeforeInput \(shown(field.contextBefore(policy)))",
            "documentContextAfterInput  \(shown(field.contextAfter(policy)))",
            "selectedText               \(field.selection.isEmpty ? "nil" : shown(field.selectedText))",
            "selection                  \(field.selection) of \(field.count) characters",
            "documentIdentifier         \(field.documentIdentifier)",
            "traits                     \(traits.keyboardType), return \(traits.returnKeyType), "
                + "autocapitalization \(traits.autocapitalizationType)\(isSecure ? ", secure" : "")",
            "keyboard                   \(page) (sub-keyboard \(state.subKeyboard)), shift \(state.shift)\(isDismissed ? ", dismissed" : "")",
            "last callbacks",
        ].map { DisplayWidth.fitted("  " + screen.safe($0), columns: width) }
        lines += recentEvents.suffix(Self.inspectorCallbacks).map { DisplayWidth.fitted("    " + screen.safe($0.description), columns: width) }
        screen.printAbove([screen.style(DisplayWidth.fitted("proxy inspector: " + screen.safe(session.loadedExtension.description), columns: width), "1")] + lines)
        redraw()
    }

    /// The callbacks the inspector lists; C-x l has everything the status row said.
    static let inspectorCallbacks = 6

    /// The event log above the field, where the terminal scrolls back through it.
    func printLog() {
        let width = screen.width - 1
        var lines = [screen.style("event log: \(log.total) entr\(log.total == 1 ? "y" : "ies")" + (log.dropped > 0 ? ", the latest \(log.count)" : ""), "1")]
        let first = log.total - log.count + 1
        lines += log.enumerated().map { index, entry in
            DisplayWidth.fitted("  \(first + index)  " + screen.safe(entry), columns: width)
        }
        if log.isEmpty { lines.append("  nothing yet") }
        screen.printAbove(lines)
        redraw()
    }

    func help() {
        var lines = [
            screen.style("kbhost — the line is a text field; typed keys tap the keyboard below", "1"),
            "  printable keys  tap the key that types them     Backspace  the delete key",
            "  Enter           the return key (submits)        C-c        clear the line",
            "  arrows, Home/End, C-a, C-e, C-k, C-w, M-b, M-f …  edit the field as the user",
            "  Up/Down         a line up or down (several lines), else history",
            "  C-d             delete forward; on an empty line: exit",
        ]
        lines += ReplCommands.commands.map { "  C-x \($0.key)           \($0.help)" }
        lines = lines.map { DisplayWidth.fitted($0, columns: screen.width - 1) }
        screen.printAbove(lines)
        redraw()
    }
}
