import ArgumentParser
import Foundation
import KeyboardHost

/// `kbhost render`: a layout as SVG — a built-in one, a layout file, or the one an extension shows.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a keyboard's layout as SVG: a built-in one, a layout file, or an extension's.",
        discussion: """
            Draws every sub-keyboard (or the one --page names), one under another, at --width points \
            (390, an iPhone's, by default), each key where the host resolves a touch to it: width \
            weights, left paddings, margins, gaps, row heights, and keys that span rows, as the \
            layouts documentation says. Labels are drawn as --shift shows them; a key's callouts are \
            drawn small in its corner.

            With an extension (lib<Name>.so, a bundle, an installed bundle's id), kbhost shows it once, \
            as run does, and draws the layout its configuration gives (a secure pad as shuffled for \
            that appearance), in its appearance's theme. Without one, it draws --layout: qwerty, \
            numericPad or a layout JSON file; --shuffled shuffles it as a secure keyboard does on one \
            appearance. Each key is a <g class="key"> with data-row, data-column and data-code \
            around the <rect> of its frame, for scripts and tests to read.

            Examples:
              kbhost render --layout qwerty > qwerty.svg
              kbhost render --layout numericPad --shuffled --output pad.svg
              kbhost render .build/debug/libQwertyKeyboard.so --page letters --shift caps-lock

            \(ExitStatus.pointer)
            """
    )

    @Argument(help: "The extension whose layout to draw: lib<Name>.so, a bundle's folder, or an installed bundle's id. Leave out to draw --layout.")
    var path: String?

    @OptionGroup var host: HostOptions

    @Option(help: ArgumentHelp("Draw only this sub-keyboard: its mode (letters, numbers, ...) or its index from 0.", valueName: "page"))
    var page: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The keyboard's width in points.", valueName: "points"))
    var width: Double = 390

    @Option(help: ArgumentHelp("The shift state the labels show: off, on or caps-lock.", valueName: "state"))
    var shift: ShiftArgument = .off

    @Flag(help: "Shuffle a secure layout as one appearance of the keyboard would (a layout that does not shuffle stays).")
    var shuffled = false

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the SVG to this file (default: standard output).", valueName: "file"))
    var output: String?

    func validate() throws {
        guard width.isFinite, width > 0, width <= 100_000 else {
            throw ValidationError("--width must be above 0 and at most 100000 points, not \(width)")
        }
        if path == nil, host.layout == nil {
            throw ValidationError("give an extension to draw, or --layout qwerty, numericPad or a layout file")
        }
    }

    func run() async throws {
        if let output { try OutputFile.check(output, option: "--output") }
        let setup = try host.setup()
        var (layout, appearance, title) = try await MainActor.run { () throws -> (KeyboardLayout, Appearance, String) in
            guard let path else {
                // Resolved, and a bad one refused with its field, by the host's settings.
                guard let layout = setup.flags.layout else { throw fail("--layout: no layout", ExitStatus.badArguments) }
                return (layout, Appearance(theme: .light), host.layout ?? "layout")
            }
            return try Self.shownLayout(path, setup: setup)
        }
        if shuffled { layout = layout.shuffled() }
        let pages = try Self.pages(page, of: layout)
        let svg = KeyboardSVG(width: width, shift: shift.state, appearance: appearance, title: title).svg(layout, pages: pages)
        guard let output else {
            print(svg, terminator: "")
            return
        }
        try OutputFile.write(svg, to: output, option: "--output")
    }

    /// The layout an extension shows on one appearance, its appearance and its name: shown and hidden
    /// on virtual time, as `run` does.
    @MainActor
    private static func shownLayout(_ path: String, setup: HostSetup) throws -> (KeyboardLayout, Appearance, String) {
        let loaded: LoadedExtension
        do {
            loaded = try setup.load(path)
        } catch {
            throw fail(error.description, ExitStatus.loadFailure)
        }
        let session = setup.session(for: loaded, field: TextField(), policy: .sentence, scheduler: VirtualScheduler())
        do {
            try session.show()
        } catch {
            throw fail(error.advice, ExitStatus.loadFailure)
        }
        defer { session.hide() }
        guard let configuration = session.configuration else { throw fail("\(loaded.name) showed no keyboard", ExitStatus.failure) }
        return (configuration.layout, configuration.appearance, loaded.name)
    }

    /// The pages `--page` names (all without it), or a one-line error naming those there are.
    static func pages(_ name: String?, of layout: KeyboardLayout) throws -> [Int]? {
        guard let name else { return nil }
        if let index = Int(name), layout.subKeyboards.indices.contains(index) { return [index] }
        if let mode = KeyboardMode(rawValue: name), let index = layout.subKeyboard(for: mode) { return [index] }
        let there = layout.subKeyboards.enumerated().map { "\($0.offset) \($0.element.mode.rawValue)" }.joined(separator: ", ")
        throw fail("--page \(name): the layout has no such sub-keyboard (it has \(there))", ExitStatus.badArguments)
    }
}

/// `--shift off|on|caps-lock`.
enum ShiftArgument: String, ExpressibleByArgument, CaseIterable {
    case off, on
    case capsLock = "caps-lock"

    var state: ShiftState {
        switch self {
        case .off: .off
        case .on: .on
        case .capsLock: .capsLock
        }
    }
}
