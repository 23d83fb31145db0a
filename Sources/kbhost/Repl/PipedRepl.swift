import Foundation
import KeyboardHost

/// The REPL when standard input is not a terminal (a pipe, a file): each line is typed through the
/// keyboard, key by key, then submitted with the return key; each submission is printed on standard
/// output, one per line; what the keyboard reports happening (its events) goes to standard error, as
/// `kbhost: <keyboard>: <event>`. Characters the keyboard cannot type are reported on standard error, with
/// their line and place, and skipped; the exit status is then 64, as `kbhost run`'s for the same (a
/// key that failed in the extension makes it 1).
@MainActor
struct PipedRepl {
    let session: KeyboardSession
    let secure: Bool

    func run() async -> Int32 {
        session.submitsOnLineBreak = true
        session.onSubmit = { text in
            let line = (secure ? String(repeating: "⬤", count: text.count) : text) + "\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        var failed = false, untypable = false
        var lineNumber = 0
        while let line = readLine(strippingNewline: true) {
            lineNumber += 1
            if session.fault != nil {
                // The keyboard failed (it was said on standard error): the lines go on, typed plainly.
                session.userInsertText(line)
                session.userSubmit()
                continue
            }
            for (offset, character) in line.enumerated() {
                do {
                    try await session.type(.character(character))
                } catch {
                    switch error {
                    case .noKey:
                        printError("kbhost: error: line \(lineNumber), character \(offset + 1): "
                            + "\(session.loadedExtension.name) has no key that types \(String(character).debugDescription); skipped")
                        untypable = true
                    case .tapFailed(let failure):
                        printError("kbhost: error: \(failure.description)")
                        failed = true
                    }
                }
            }
            // The return key submits; a keyboard without one taps its done key (a PIN pad's), and
            // one with neither, the field submits itself.
            do {
                do {
                    try await session.type(.key(.return))
                } catch .noKey {
                    try await session.type(.key(.done))
                }
            } catch {
                switch error {
                case .noKey:
                    session.userSubmit()
                case .tapFailed(let failure):
                    printError("kbhost: error: \(failure.description)")
                    failed = true
                }
            }
        }
        session.hide()
        if session.fault != nil { return ExitStatus.extensionFailed.rawValue }
        if failed { return ExitStatus.failure.rawValue }
        return untypable ? ExitStatus.badArguments.rawValue : 0
    }

    /// What a piped REPL says of a session's events, on standard error: what the keyboard reported
    /// (its errors and events) and how it failed; the first errors of a flood, then a count.
    static func reporter(for session: KeyboardSession) -> (SessionEvent) -> Void {
        let name = session.loadedExtension.name
        var errors = 0
        return { event in
            switch event {
            case .error(let message):
                errors += 1
                if errors <= BatchRun.printedErrorLimit { printError("kbhost: \(name): \(message)") }
                if errors == BatchRun.printedErrorLimit + 1 { printError("kbhost: \(name): … more errors, not shown") }
            case .extensionEvent(let reported): printError("kbhost: \(name): \(reported.description)")
            case .fault(let fault): printFault(fault, "; the lines go on without it")
            default: break
            }
        }
    }
}
