import Foundation
import KeyboardHost

/// The REPL when standard input is not a terminal (a pipe, a file): each line is typed through the
/// keyboard, key by key, then submitted with the return key; each submission is printed on standard
/// output, one per line. Characters the keyboard cannot type are reported on standard error, with
/// their line and place, and skipped; the exit status is then 1.
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
        session.onError = { [name = session.loadedExtension.name] in printError("kbhost: \(name): \($0)") }
        var failed = false
        var lineNumber = 0
        while let line = readLine(strippingNewline: true) {
            lineNumber += 1
            for (offset, character) in line.enumerated() {
                guard let layout = session.configuration?.layout,
                      let taps = KeyPlanner.taps(for: .character(character), layout: layout, state: session.keyboardState)
                else {
                    printError("kbhost: line \(lineNumber), character \(offset + 1): "
                        + "\(session.loadedExtension.name) has no key that types \(String(character).debugDescription)")
                    failed = true
                    continue
                }
                for position in taps { await tap(position) }
            }
            if let layout = session.configuration?.layout,
               let taps = KeyPlanner.taps(for: .key(.return), layout: layout, state: session.keyboardState) {
                for position in taps { await tap(position) }
            } else {
                session.userSubmit()
            }
        }
        session.hide()
        return failed ? 1 : 0
    }

    private func tap(_ position: KeyPosition) async {
        do {
            try session.tap(position)
        } catch {
            printError("kbhost: \(error.description)")
        }
        await session.settle()
    }
}
