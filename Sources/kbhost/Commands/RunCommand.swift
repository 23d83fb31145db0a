import ArgumentParser
import Foundation
import KeyboardHost

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Type into a text field through an extension's keys, headless, and print the result as JSON.",
        discussion: """
            Loads the extension, shows its keyboard on a text field (empty, or seeded with --text or \
            --document, the cursor at --cursor), taps the key for each character of --type, lets the \
            host apply what the extension posted and the extension finish what it started, and prints \
            the field:

              {"cursor": 11, "document": "hello world", "documentIdentifier": "...", "selection": [11, 11],
             "policy": "sentence", "platform": "exact", "extension": {...}, "errors": [...], "events": [...], "actions": [...]}

            With --platform other than exact, "platformNotes" lists what the platform decided where it \
            leaves a behaviour unsaid (a caret move stopped before a Character, a delete took part of \
            one, iOS kept its old windows) and this host's extras it refused.

            Each --action runs after the typing, on the extension's full-document walker, and reports \
            what it read (before, after, selected), deleted (deletedCharacters), its snapshot round \
            trips and whether it is certain ("exact"), or its error. --timeline FILE draws the actions' \
            walks as SVG: a column per round trip (the document, what the snapshot's windows showed, the \
            caret) over the host's clock. A text longer than --text-limit bytes is printed as \
            {"characters": N, "utf8Bytes": N, "sha256": "..."}. If an action fails, the output is still \
            printed and the exit status is 1.

            Positions (cursor, selection) count Characters (extended grapheme clusters). In --type, a \
            character taps the key that types it, and a named key goes in braces: {delete}, {return}, \
            {space}, {shift}, {done}, {cancel}, {collapse}, {globe}, {modeChange:numbers}, and \
            {action:NAME} for a key whose code is the layout's own action NAME (a toolbar's "read all", \
            say); '{{' types a '{'. A character or name the keyboard has no key for stops the run with \
            exit status 64 before anything is printed.

            Gestures name a key (a character or a key name) in braces too, for keyboards that take \
            them (ABI revision 5): {longpress:e:X} holds e until its callouts show and lifts on the \
            callout X ({longpress:e} lifts on none); {hold:delete:2s} holds delete still for 2 s of \
            the host's clock (500ms works too): a key with callouts long-presses, another repeats, \
            every 0.1 s after 0.5 s; {drag:space:-5} drags the space bar five steps left (one \
            Character each, with the SDK's default). A gesture takes the clock on by its length.

            The run is on virtual time: --latency, the extension's timers and the host's timeouts take \
            no real time, and the run ends when the host is quiet -- nothing posted and not applied, \
            nothing the extension started still runnable, no action unanswered. Timers still to come are \
            left alone, unless --advance moves the clock on after the typing (to let a multi-tap letter \
            commit, say); an action unanswered moves it on to the next timer until it is answered.

            Examples:
              kbhost run .build/debug/libHelloKeyboard.so --type 'hello{space}world'
              kbhost run .build/debug/libHelloKeyboard.so --text "a dog" --cursor 2 --type "big "
              kbhost run .build/debug/libQwertyKeyboard.so --text "hello world" --type '{hold:delete:2s}'
              kbhost run .build/debug/libQwertyKeyboard.so --text "hello world" --type '{drag:space:-5}X'
              kbhost run .build/debug/libQwertyKeyboard.so --document notes.txt --action read-full-document
              kbhost run .build/debug/libQwertyKeyboard.so --document notes.txt --action read-full-document --timeline walk.svg
              printf 1234 | kbhost run .build/debug/libSecurePasscodeKeyboard.so --type -
              kbhost run dev.kbhost.samples.qwerty --platform ios --type "ok{return}"   (an installed bundle)

            \(ExitStatus.help)
            """
    )

    @Argument(help: "The extension: lib<Name>.so, a bundle's folder, or an installed bundle's id.")
    var path: String

    @Option(name: .customLong("type"), parsing: .unconditional, help: ArgumentHelp(
        "What to type, as key taps; '-' reads them from standard input (a passcode then stays out of the arguments).",
        valueName: "keys"
    ))  // `--type -5` types a minus and a 5
    var keys: String = ""

    @Option(help: ArgumentHelp(
        "What to type, read from a UTF-8 file (one final line break is dropped: {return} types one).", valueName: "file"
    ))
    var typeFile: String?

    @OptionGroup var seed: DocumentOptions

    @Option(parsing: .unconditional, help: "Where the cursor starts, in Characters from the start (default: the end).")
    var cursor: Int?

    @OptionGroup var host: HostOptions

    @OptionGroup var sessionOptions: SessionOptions

    @Option(name: .customLong("action"), help: ArgumentHelp(
        "After typing, ask the extension to: \(HostCommand.allCases.map(\.rawValue).joined(separator: ", ")). Repeatable; in order.",
        valueName: "action"
    ))
    var actions: [HostCommand] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "After the typing, move the host's clock on by this much (e.g. 800ms, 2s, 1.5s), firing the timers that fall due.",
        valueName: "duration"
    ), transform: { text in try DurationArgument.parse(text) })
    var advance: DurationArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Texts longer than this many UTF-8 bytes are printed as their length and SHA-256 (0: always the text).",
        valueName: "bytes"
    ))
    var textLimit: Int = 4096

    @Option(help: ArgumentHelp(
        "Draw the --action walks as SVG in this file: each round trip's caret, windows and time on the host's clock.",
        valueName: "file"
    ))
    var timeline: String?

    func validate() throws {
        if typeFile != nil && !keys.isEmpty {
            throw ValidationError("give the keys either with --type or with --type-file, not both")
        }
        if timeline != nil && actions.isEmpty {
            throw ValidationError("--timeline draws the walks of --action; give one, e.g. --action read-full-document")
        }
        if textLimit < 0 {
            throw ValidationError("--text-limit must be 0 or more bytes, not \(textLimit)")
        }
    }

    func run() async throws {
        let keys = try keysToType(), field = try startingField()
        if let timeline { try OutputFile.check(timeline, option: "--timeline") }
        Timings.mark("read")
        let setup = try host.setup(platform: sessionOptions.profile)
        setup.trace = try await MainActor.run { try sessionOptions.makeTrace() }
        Timings.mark("configured")
        // The field goes to the session (consume): a copy kept here would keep the document's first
        // version alive beside the one the extension edits, all of it once a walk deletes it.
        let result = try await BatchRun(
            path: path, keys: keys, policy: sessionOptions.window,
            latency: sessionOptions.editLatency, advance: advance?.duration ?? .zero, setup: setup,
            actions: actions, textLimit: textLimit, timeline: timeline
        ).perform(on: consume field)
        print(try JSONOutput.encode(result))
        Timings.mark("printed")
        if result.fault != nil { throw ExitStatus.extensionFailed }
        if result.actions.contains(where: { !$0.succeeded }) { throw ExitStatus.failure }
    }

    /// The field the run starts with: the document, and the cursor checked against it. The document
    /// is held once, by the field: the text read is let go as soon as the field has it.
    private func startingField() throws -> TextField {
        var field = TextField(text: try seed.seed())
        guard let cursor else { return field }
        let characters = field.count
        guard (0...characters).contains(cursor) else {
            throw fail(
                "--cursor \(cursor) is outside the document, which has \(characters) characters (0…\(characters))",
                ExitStatus.badArguments
            )
        }
        field.moveCursor(to: cursor)
        return field
    }

    /// --type's keys, or the file's (--type-file, or standard input for --type -), less one final line
    /// break: a file ends with one, and typing it would press return.
    private func keysToType() throws -> String {
        let source: String
        if let typeFile {
            do {
                source = try DocumentFile.read(typeFile, limit: 1 << 20)
            } catch {
                throw fail("--type-file: \(error.description)", ExitStatus.badArguments)
            }
        } else if keys == "-" {
            // At most 1 MiB of keys, read no further: standard input may never end.
            var data = Data()
            while data.count <= 1 << 20, let chunk = try? FileHandle.standardInput.read(upToCount: 64 << 10), !chunk.isEmpty {
                data += chunk
            }
            if data.count > 1 << 20 {
                throw fail("--type -: more than 1 MiB of keys on standard input", ExitStatus.badArguments)
            }
            do {
                source = try DocumentFile.text(of: data, path: "standard input")
            } catch {
                throw fail("--type -: \(error.description)", ExitStatus.badArguments)
            }
        } else {
            return keys
        }
        return source.hasSuffix("\n") || source.hasSuffix("\r\n") ? String(source.dropLast()) : source
    }
}

/// One batch run: load, show, type, settle, advance, act, hide. On the main actor, where the host runs
/// extensions, and on virtual time (a ``VirtualScheduler``): it ends when the host is quiet.
struct BatchRun {
    let path: String
    let keys: String
    let policy: ContextPolicy
    let latency: Duration
    let advance: Duration
    let setup: HostSetup
    let actions: [HostCommand]
    let textLimit: Int
    /// Where to draw the actions' walks (--timeline), if anywhere.
    let timeline: String?

    struct Result: Encodable {
        let `extension`: ExtensionSummary
        let document: TextOutput
        let documentIdentifier: String
        let cursor: Int
        /// Lower and upper bound; equal when nothing is selected.
        let selection: [Int]
        let policy: String
        /// The platform the host behaved as (`--platform`).
        let platform: String
        /// What the platform decided where it leaves a behaviour unsaid, and the extras it refused, as
        /// the session noted them (the latest 1000); absent if none.
        let platformNotes: [String]?
        /// The latest errors the extension reported (at most 1000), and how many more there were.
        let errors: [String]
        let errorsDropped: Int?
        /// What the extension reported happening (report_event), in order (at most 1000).
        let events: [KeyboardEvent]
        let eventsDropped: Int?
        let actions: [ActionOutput]
        /// How the extension failed in its own process, if it did (then the exit status is 70).
        let fault: String?
    }

    /// One --action's outcome.
    struct ActionOutput: Encodable {
        let action: String
        let succeeded: Bool
        let before: TextOutput?
        let after: TextOutput?
        let selected: TextOutput?
        let deletedCharacters: Int?
        let roundTrips: Int?
        let exact: Bool?
        let error: String?

        init(_ result: CommandResult, textLimit: Int) {
            action = result.command.rawValue
            succeeded = result.succeeded
            before = result.before.map { TextOutput($0, limit: textLimit) }
            after = result.after.map { TextOutput($0, limit: textLimit) }
            selected = result.selected.map { TextOutput($0, limit: textLimit) }
            deletedCharacters = result.deletedCharacters
            roundTrips = result.roundTrips
            exact = result.exact
            error = result.error?.rawValue
        }
    }

    /// Runs on `field`, the document as the run starts with the caret where --cursor put it; the
    /// session takes it.
    @MainActor
    func perform(on field: consuming TextField) async throws -> Result {
        let strokes: [(stroke: KeyStroke, place: Int)]
        do {
            strokes = try KeyStroke.parse(keys)
        } catch {
            throw fail("--type: \(error.description)", ExitStatus.badArguments)
        }

        let loaded: LoadedExtension
        do {
            loaded = try setup.load(path)
        } catch {
            throw fail(error.description, ExitStatus.loadFailure)
        }
        Timings.mark("loaded")
        let scheduler = VirtualScheduler()
        let session = setup.session(for: loaded, field: field, policy: policy, scheduler: scheduler)
        session.latency = latency
        var printedErrors = 0
        var platformNotes = RecentLog<String>()
        session.onEvent = { event in
            switch event {
            case .error(let message):
                // The first errors as they come; a flood of them is counted, not printed.
                printedErrors += 1
                if printedErrors <= Self.printedErrorLimit { printError("kbhost: \(loaded.name): \(message)") }
            case .platformNote(let note):
                platformNotes.append(note)
            default:
                break
            }
        }
        do {
            try session.show()
        } catch {
            throw fail(error.advice, ExitStatus.loadFailure)
        }
        defer { session.hide() }
        // Shown: the first snapshot is the extension's.
        Timings.mark("shown")

        typing: for (stroke, place) in strokes {
            do {
                try await session.type(stroke)
            } catch {
                switch error {
                case .tapFailed(.failed):
                    break typing  // the extension's process failed: reported with the field
                case .noKey where session.fault != nil:
                    break typing
                case .noKey:
                    throw fail("--type: " + KeyStrokeError.noKey(stroke, place: place, keyboard: loaded.name).description, ExitStatus.badArguments)
                case .tapFailed(.gestureRefused(_, _, let problem)):
                    throw fail("--type: \(stroke) (character \(place)): \(problem)", ExitStatus.badArguments)
                case .tapFailed(.gesturesUnsupported(let name, let gesture)):
                    let refusal = SessionError.gesturesUnsupported(extension: name, gesture: gesture)
                    throw fail("--type: character \(place): \(refusal)", ExitStatus.badArguments)
                case .tapFailed(let failure):
                    throw fail(failure.description, ExitStatus.failure)
                }
            }
        }
        // A key may have started work the keyboard does on its own (a full-document walk): settled.
        await scheduler.settle()
        if advance > .zero { await scheduler.advance(by: advance) }
        Timings.mark("typed")
        var outputs: [ActionOutput] = []
        if timeline != nil { session.timeline = WalkTimeline() }
        for action in actions {
            outputs.append(ActionOutput(await session.perform(action), textLimit: textLimit))
        }
        Timings.mark("acted")
        if let path = timeline, let recorded = session.timeline {
            session.timeline = nil
            let title = "\(loaded.name) · --policy \(policy) · --platform \(setup.platform) · --latency \(DurationText.text(latency))"
            try OutputFile.write(WalkTimelineSVG(title: title).svg(recorded), to: path, option: "--timeline")
        }
        session.hide()
        await scheduler.settle()
        if printedErrors > Self.printedErrorLimit {
            printError("kbhost: \(loaded.name): … and \(printedErrors - Self.printedErrorLimit) more errors")
        }
        if let fault = session.fault { printFault(fault) }
        let ended = session.textField
        return Result(
            extension: ExtensionSummary(loaded), document: TextOutput(ended, limit: textLimit),
            documentIdentifier: ended.documentIdentifier.uuidString, cursor: ended.cursor,
            selection: [ended.selection.lowerBound, ended.selection.upperBound], policy: policy.description,
            platform: setup.platform.description, platformNotes: platformNotes.isEmpty ? nil : Array(platformNotes), errors: Array(session.reportedErrors), errorsDropped: session.reportedErrors.dropped > 0 ? session.reportedErrors.dropped : nil,
            events: Array(session.reportedEvents), eventsDropped: session.reportedEvents.dropped > 0 ? session.reportedEvents.dropped : nil,
            actions: outputs, fault: session.fault?.description
        )
    }

    /// Errors printed on standard error as they come; the rest are counted.
    static let printedErrorLimit = 20
}

extension ContextPolicy: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }

    public var defaultValueDescription: String { description }
}

extension HostCommand: ExpressibleByArgument {}

extension PlatformProfile: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(named: argument)
    }

    public static var allValueStrings: [String] { all.map(\.description) }
    public var defaultValueDescription: String { description }
}

/// A duration on the command line: a number and a unit, `ns`, `us`, `ms`, `s` or `min` (`800ms`,
/// `1.5s`, `2min`).
struct DurationArgument: ExpressibleByArgument {
    let duration: Duration

    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    private init(duration: Duration) { self.duration = duration }

    /// Reads `800ms`, `1.5s`, …, or says what is wrong.
    static func parse(_ argument: String) throws -> DurationArgument {
        do {
            return DurationArgument(duration: try DurationText.parse(argument))
        } catch {
            throw ValidationError(error.description)
        }
    }

    var defaultValueDescription: String { "\(duration)" }
}
