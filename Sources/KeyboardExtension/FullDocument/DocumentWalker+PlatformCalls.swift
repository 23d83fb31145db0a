// The walks under a platform without this host's extras (ABI section 7): iOS, Android and Wayland
// give a keyboard the windows around the caret and UIKit's calls, nothing more. So these walks move
// with `adjustTextPosition` in the platform's units and delete with `deleteBackward`, and still wait
// for the acknowledgement of each step, never a sleep.
//
// What they cannot be told, they work out:
// - Where the caret is. Every move crosses text the walk has already seen, so its length in the
//   platform's units is known, and the walk keeps the caret's offset from where it began (`offset`).
// - Where the document ends. A window after the caret is empty only at the end, under every policy, so
//   the end is certain; the walk reads forward first.
// - Where it starts. A window before the caret can be empty at a sentence or line boundary too, so an
//   empty one is probed with a move of one Character's units (1, then 2 for CRLF under UTF-16). If the
//   windows change, it moved; if not, it is at the start — unless the text there is one boundary
//   after another ("....", blank lines), where a move and no move look the same. Then the walk asks
//   the end, which is certain: from the start of the probe, the end is `D` units away; moved there, an
//   empty window after means the probe had not moved.
// Every step checks that the windows it sees agree with the text it has read; if they ever do not
// (a platform that moved the caret elsewhere than asked), the result says it is not exact.
extension DocumentWalker {
    func readWithPlatformCalls() async throws(Failure) -> FullDocumentContext {
        let origin = seen
        guard origin.selectedText.isEmpty else {
            // Without the extras a selection cannot be made again, and any move collapses it: the
            // walk would lose the user's selection. Say what is known, and that it is not everything.
            return FullDocumentContext(
                fullDocumentContextBeforeInput: origin.contextBefore, fullDocumentContextAfterInput: origin.contextAfter,
                selectedText: origin.selectedText, roundTrips: 0, isExact: false
            )
        }
        offsetFromOrigin = 0
        do throws(Failure) {
            let (before, after) = try await readBothWays(from: origin)
            if offsetFromOrigin != 0 { try await moveBy(-offsetFromOrigin) }  // back to where the caret was
            if !sameWindows(seen, origin) { consistent = false }
            return FullDocumentContext(
                fullDocumentContextBeforeInput: before, fullDocumentContextAfterInput: after,
                selectedText: nil, roundTrips: roundTrips, isExact: consistent
            )
        } catch where error.reason == .cancelled {
            try await moveBy(-offsetFromOrigin, honouringCancellation: false)
            throw error
        }
    }

    /// Reads forward to the end, comes back, then reads backward to the start; the caret ends at the
    /// start (`offsetFromOrigin` is minus the text before).
    private func readBothWays(from origin: TextSnapshot) async throws(Failure) -> (before: String, after: String) {
        let unit = origin.platform.caretMoveUnit

        // Forward: the window after is empty only at the end.
        var after = origin.contextAfter
        var window = origin.contextAfter
        while !window.isEmpty {
            let snapshot = try await moveBy(unit.count(of: window))
            if !agrees(before: snapshot.contextBefore, endingWith: window) { consistent = false }
            window = snapshot.contextAfter
            after += window
        }
        let afterUnits = offsetFromOrigin
        endFromOrigin = afterUnits
        if afterUnits != 0 {
            try await moveBy(-afterUnits)
            if !sameWindows(seen, origin) { consistent = false }
        }

        // Backward: window by window, probing where a window is empty.
        var chunks = [origin.contextBefore]
        window = origin.contextBefore
        var here = seen
        while true {
            if !window.isEmpty {
                let snapshot = try await moveBy(-unit.count(of: window))
                let shown = snapshot.contextAfter
                if !(shown.hasPrefix(window) || window.hasPrefix(shown)) { consistent = false }
                window = snapshot.contextBefore
                chunks.append(window)
                here = snapshot
                continue
            }
            guard let crossed = try await probeBack(from: here, unit: unit, endsAfter: afterUnits) else { break }
            chunks.append(String(crossed))
            here = seen
            window = here.contextBefore
            chunks.append(window)
        }
        return (chunks.reversed().joined(), after)
    }

    /// At an empty window before the caret: moves back over the Character before it, if there is one,
    /// and returns it; `nil` at the start of the document. The caret is where it was, or before that
    /// Character.
    private func probeBack(from here: TextSnapshot, unit: TextUnit, endsAfter afterUnits: Int) async throws(Failure) -> Character? {
        // Every boundary a window stops at is one UTF-16 unit, but CRLF, which is two.
        for units in unit == .utf16 ? [1, 2] : [1] {
            // Until the probe is settled, the caret is one of two places: a tapped key finds its way
            // back from the end (returnToOrigin), and the steps that settle it run even if cancelled.
            positionUncertain = true
            defer { positionUncertain = false }
            let snapshot = try await moveBy(-units)
            if !sameWindows(snapshot, here) {
                guard let crossed = snapshot.contextAfter.first, unit.count(of: String(crossed)) == units else {
                    consistent = false
                    return snapshot.contextAfter.first
                }
                return crossed
            }
            // The same windows: no move, or a move over one boundary Character just like the next.
            if let next = here.contextAfter.first, here.contextAfter.count == 1, unit.count(of: String(next)) == units {
                if try await probeMoved(units, from: here, endsAfter: afterUnits) { return next }
            } else {
                offsetFromOrigin += units  // it did not move
            }
        }
        return nil
    }

    /// Whether the probe of `units` moved the caret, when the windows cannot say: asks the end. The
    /// end is `distance` units from where the probe began; moved there, the window after is empty if
    /// and only if the probe had not moved. Puts the caret back where the probe left it.
    private func probeMoved(_ units: Int, from here: TextSnapshot, endsAfter afterUnits: Int) async throws(Failure) -> Bool {
        let probeStart = offsetFromOrigin + units
        let distance = afterUnits - probeStart
        let snapshot = try await moveBy(distance, honouringCancellation: false)
        if snapshot.contextAfter.isEmpty {
            offsetFromOrigin = afterUnits  // at the end: the probe did not move
            try await moveBy(-distance, honouringCancellation: false)  // back where it began
            if !sameWindows(seen, here) { consistent = false }
            return false
        }
        // Short of the end: the probe moved. Go on to the end, then back to before the Character.
        _ = try await moveToEnd(from: snapshot, honouringCancellation: false)
        offsetFromOrigin = afterUnits
        try await moveBy(probeStart - units - afterUnits, honouringCancellation: false)
        if !sameWindows(seen, here) { consistent = false }
        return true
    }

    func deleteWithPlatformCalls() async throws(Failure) -> FullDocumentDeletion {
        var deleted = 0
        let platform = seen.platform
        do throws(Failure) {
            // To the end, so that everything is before the caret.
            var snapshot = try await moveToEnd(from: try await collapsingSelection())
            // Then back, a window at a time, until the field is empty: with the caret at the end, a
            // field that has text has it before the caret, so every deleteBackward deletes something.
            while snapshot.hasText {
                let window = snapshot.contextBefore.suffix(Self.largestDeletion)
                let presses: Int
                if window.isEmpty {
                    // A boundary the window stops at: one press deletes it — all of it but CRLF, under
                    // a platform that deletes UTF-16 units (then the count may be one too many).
                    presses = 1
                    if platform.deleteUnit == .utf16 { consistent = false }
                } else {
                    presses = platform.deleteUnit.count(of: window)
                }
                do throws(Failure) {
                    snapshot = try await step { _ in
                        for _ in 0..<presses { self.proxy.deleteBackward() }
                    }
                } catch {
                    if tappedDuringStep { deleted += max(window.count, 1) }  // it will still be applied
                    throw error
                }
                deleted += max(window.count, 1)
                if !snapshot.contextAfter.isEmpty { consistent = false }
            }
        } catch {
            throw Failure(error.reason, deletedCharacters: deleted)
        }
        return FullDocumentDeletion(deletedCharacters: deleted, roundTrips: roundTrips, isExact: consistent)
    }

    /// The most `deleteBackward`s one step posts: a window can be the whole document (`unlimited`).
    private static let largestDeletion = 4096

    func moveWithPlatformCalls(toEnd: Bool) async throws(Failure) {
        offsetFromOrigin = 0
        let origin = try await collapsingSelection()
        if toEnd {
            _ = try await moveToEnd(from: origin)
        } else {
            // The start is only certain from the end (see probeMoved): read the way there.
            _ = try await readBothWays(from: origin)
        }
    }

    /// The snapshot with no text selected: the one seen, or after a move of 0, which collapses the
    /// selection (no platform call selects text again, so only walks that leave the caret elsewhere
    /// do this).
    private func collapsingSelection() async throws(Failure) -> TextSnapshot {
        seen.selectedText.isEmpty ? seen : try await moveBy(0)
    }

    /// Moves on from `snapshot`, a window at a time, until the window after is empty: the end, the one
    /// place every policy makes certain.
    private func moveToEnd(from snapshot: TextSnapshot, honouringCancellation: Bool = true) async throws(Failure) -> TextSnapshot {
        var snapshot = snapshot
        while !snapshot.contextAfter.isEmpty {
            snapshot = try await moveBy(
                snapshot.platform.caretMoveUnit.count(of: snapshot.contextAfter), honouringCancellation: honouringCancellation
            )
        }
        return snapshot
    }

    /// Moves the caret by `units` of the platform's and returns the snapshot that acknowledges it.
    @discardableResult
    private func moveBy(_ units: Int, honouringCancellation: Bool = true) async throws(Failure) -> TextSnapshot {
        inFlightMove = units
        defer { inFlightMove = 0 }
        let snapshot = try await step(honouringCancellation: honouringCancellation) { _ in
            self.proxy.adjustTextPosition(byCharacterOffset: units)
        }
        offsetFromOrigin += units
        return snapshot
    }

    private func sameWindows(_ a: TextSnapshot, _ b: TextSnapshot) -> Bool {
        a.contextBefore == b.contextBefore && a.contextAfter == b.contextAfter
    }

    /// Whether a window before the caret agrees with having just crossed `crossed`: it ends with it,
    /// or, cut shorter, is its end.
    private func agrees(before window: String, endingWith crossed: String) -> Bool {
        window.count <= crossed.count ? crossed.hasSuffix(window) : window.hasSuffix(crossed)
    }
}
