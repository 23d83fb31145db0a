import Foundation
import Testing
import TestSupport

/// `kbhost render`, as a user runs it: what it draws, read back from the SVG.
@Suite("kbhost render")
struct RenderCommandTests {
    private func kbhost(_ arguments: [String]) throws -> Command.Result {
        try Command.run(try BuildProducts.kbhost(), arguments)
    }

    private var trust: [String] {
        ["--trust", BuildProducts.packageRoot.appendingPathComponent("samples/SampleIssuer/sample-issuer.public.json").path]
    }

    /// Issue 19's "done means": QWERTY's 26 letter keys plus its function keys, every page.
    @Test func qwertyIsDrawnWithEveryKey() throws {
        let result = try kbhost(["render", "--layout", "qwerty"])
        #expect(result.status == 0, "\(result.standardError)")
        let drawn = try RenderedKeys.read(result.standardOutput)
        let letters = drawn.keys.filter { $0.page == 0 }
        #expect(Set(letters.filter { $0.code == "input" }.map(\.label)) == Set("abcdefghijklmnopqrstuvwxyz".map(String.init)))
        #expect(letters.filter { $0.code != "input" }.map(\.code) == ["shift", "delete", "modeChange:numbers", "nextKeyboard", "space", "return"])
        #expect(Set(drawn.keys.map(\.page)) == [0, 1, 2])
        #expect(drawn.svgSize.width == 390)
        for key in drawn.keys { #expect(key.x >= 0 && key.x + key.width <= 390.01) }
    }

    /// An extension's own layout, as one appearance shows it: the QWERTY sample's toolbar, suggestion
    /// row and callouts, at the width asked for; --page picks a page by its mode.
    @Test func anExtensionsLayoutIsTheOneItShows() throws {
        let result = try kbhost(["render", try BuildProducts.sample("QwertyKeyboard"), "--page", "letters", "--width", "320"] + trust)
        #expect(result.status == 0, "\(result.standardError)")
        let drawn = try RenderedKeys.read(result.standardOutput)
        #expect(drawn.keys.allSatisfy { $0.page == 0 })
        #expect(drawn.keys.filter { $0.row == 0 }.map(\.label) == ["read all", "clear all", "⇤ start", "end ⇥", "⌫ word", "↶ undo"])
        #expect(drawn.keys.filter { $0.row == 1 }.count == 3)  // the suggestion row, empty
        #expect(!drawn.keys.contains { $0.code == "nextKeyboard" })  // one keyboard: no globe
        #expect(drawn.svgSize.width == 320)
        #expect(result.standardOutput.contains("èéêë"))  // e's callouts, in its corner
    }

    /// A bundle is drawn as the host would show it: with the layout file it carries, laid over the
    /// extension's own.
    @Test func aBundleIsDrawnWithItsLayout() throws {
        let folder = try TemporaryFolder("render-bundle")
        let layout = folder.appendingPathComponent("pad.json")
        try Data(#"{"subKeyboards": [{"mode": "numbers", "rows": [[{"code": "input", "label": "1"}, {"code": "input", "label": "2", "width": 3}]]}]}"#.utf8).write(to: layout)
        let bundled = try kbhost(["bundle", try BuildProducts.sample("HelloKeyboard"), "--layout", layout.path, "--out", folder.path])
        #expect(bundled.status == 0, "\(bundled.standardError)")
        let result = try kbhost(["render", folder.appendingPathComponent("dev.kbhost.samples.hello.kbx").path, "--width", "400"])
        #expect(result.status == 0, "\(result.standardError)")
        let keys = try RenderedKeys.read(result.standardOutput).keys
        #expect(keys.map(\.label) == ["1", "2"])
        #expect(keys.map(\.width) == [100, 300])  // weights 1 and 3 across 400 points
    }

    /// A secure pad shuffled for one appearance: the same frames, the digits in other places.
    @Test func aShuffledPadKeepsItsGeometry() throws {
        let plain = try RenderedKeys.read(try kbhost(["render", "--layout", "numericPad"]).standardOutput).keys
        let shuffled = try RenderedKeys.read(try kbhost(["render", "--layout", "numericPad", "--shuffled"]).standardOutput).keys
        #expect(plain.map { [$0.x, $0.y, $0.width, $0.height] } == shuffled.map { [$0.x, $0.y, $0.width, $0.height] })
        #expect(Set(plain.map(\.label)) == Set(shuffled.map(\.label)))
    }

    /// The shift states, on the labels.
    @Test func capsLockShowsUpperCase() throws {
        let drawn = try RenderedKeys.read(try kbhost(["render", "--layout", "qwerty", "--page", "0", "--shift", "caps-lock"]).standardOutput)
        #expect(drawn.keys.contains { $0.label == "Q" } && drawn.keys.contains { $0.label == "⇧⇪" })
    }

    /// Each refusal is one line; a bad layout file gets exactly the error the host gives it in a run.
    @Test func refusalsAreOneLine() throws {
        let folder = try TemporaryFolder("render")
        let bad = folder.appendingPathComponent("bad.json").path
        try Data(#"{"subKeyboards": [{"mode": "letters", "rows": [[{"code": "input", "label": "a", "height": 0}]]}]}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let rendered = try kbhost(["render", "--layout", bad])
        let ran = try kbhost(["run", try BuildProducts.sample("HelloKeyboard"), "--layout", bad])
        #expect(rendered.status == 64 && rendered.standardError == ran.standardError)
        #expect(rendered.standardError == "kbhost: error: --layout: layout '\(bad)': subKeyboards[0].rows[0][0].height: expected a number above 0\n")
        let page = try kbhost(["render", "--layout", "numericPad", "--page", "letters"])
        #expect(page.status == 64 && page.standardError == "kbhost: error: --page letters: the layout has no such sub-keyboard (it has 0 numbers)\n")
        let width = try kbhost(["render", "--layout", "qwerty", "--width", "0"])
        #expect(width.status == 64 && width.standardError.hasPrefix("kbhost: error: --width must be above 0"))
        let nothing = try kbhost(["render"])
        #expect(nothing.status == 64 && nothing.standardError.hasPrefix("kbhost: error: give an extension to draw, or --layout"))
        let nowhere = folder.appendingPathComponent("missing/q.svg").path
        let unwritable = try kbhost(["render", "--layout", "qwerty", "--output", nowhere])
        #expect(unwritable.status == 64 && unwritable.standardError.hasPrefix("kbhost: error: --output '\(nowhere)': its folder "))
        let output = folder.appendingPathComponent("q.svg").path
        #expect(try kbhost(["render", "--layout", "qwerty", "--output", output]).status == 0)
        #expect(try RenderedKeys.read(String(contentsOfFile: output, encoding: .utf8)).keys.count == 94)
    }

    /// The README's pictures are what kbhost draws now, with the arguments `docs/images/pictures.tsv`
    /// gives each (what `scripts/pictures` runs): the QWERTY sample's layout, and a read walked on it.
    @Test func theReadmePicturesAreCurrent() throws {
        let images = BuildProducts.packageRoot.appendingPathComponent("docs/images")
        let list = try String(contentsOf: images.appendingPathComponent("pictures.tsv"), encoding: .utf8)
        let folder = try TemporaryFolder("pictures")
        let lines = list.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.map(\.first) == ["qwerty-sample.svg", "read-walk-ios.svg"])
        for line in lines {
            // The samples as this build made them (a sanitizer's build folder, say), not .build/debug's.
            let arguments = try line.dropFirst().map { argument in
                if argument.hasPrefix("samples/") { return BuildProducts.packageRoot.appendingPathComponent(argument).path }
                guard argument.hasPrefix(".build/debug/lib"), argument.hasSuffix(".so") else { return argument }
                return try BuildProducts.sample(String(argument.dropFirst(".build/debug/lib".count).dropLast(3)))
            }
            let drawn = folder.appendingPathComponent(line[0]).path
            let result = try Command.run(try BuildProducts.kbhost(), arguments + [drawn])
            #expect(result.status == 0, "\(result.standardError)")
            let committed = try String(contentsOf: images.appendingPathComponent(line[0]), encoding: .utf8)
            #expect(try String(contentsOfFile: drawn, encoding: .utf8) == committed, "run scripts/pictures to draw \(line[0]) again")
        }
    }
}
