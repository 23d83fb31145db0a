import KeyboardExtension
import KeyboardTesting
import Testing

/// The full-document walker, by example: Fleksy's documented behaviours, each error, and the edges.
@Suite("Full document context")
@MainActor
struct FullDocumentTests {
    private func host(_ document: String, cursor: Int? = nil, policy: ContextPolicy = .sentence,
                      latency: Duration = .zero) throws -> KeyboardTestHost {
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: document, cursor: cursor, policy: policy, latency: latency)
        try host.show()
        return host
    }

    // MARK: What Fleksy's documentation states

    @Test func readsTheWholeDocumentByMovingTheTextCursor() async throws {
        let host = try host("First line.\nSecond. Third!\n\nLast", cursor: 15)
        host.clearLog()
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(result.fullDocumentContextBeforeInput == "First line.\nSec")
        #expect(result.fullDocumentContextAfterInput == "ond. Third!\n\nLast")
        // It moved the cursor (the log shows the moves the host applied) and put it back.
        #expect(host.log.contains { if case .applied(.setSelectedRange) = $0 { true } else { false } })
        #expect(host.cursor == 15)
        #expect(host.document == "First line.\nSecond. Third!\n\nLast")
    }

    @Test func returnsAFullDocumentContextWithTheTextBeforeAndAfterTheInsertionPoint() async throws {
        let host = try host("héllo 👩‍👩‍👧 wörld", cursor: 7)
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(result == FullDocumentContext(
            fullDocumentContextBeforeInput: "héllo 👩‍👩‍👧", fullDocumentContextAfterInput: " wörld",
            selectedText: nil, roundTrips: result.roundTrips
        ))
    }

    @Test func theUserInteractingWithTheKeyboardCancelsWithUserCancelled() async throws {
        let host = try host(String(repeating: "One. Two. ", count: 40), latency: .milliseconds(20))
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(50))
        try host.tap("noop")
        await host.settle()
        #expect(await walk.value == .failure(.userCancelled))
        #expect(host.document == String(repeating: "One. Two. ", count: 40))
    }

    @Test func deletesTheFullDocument() async throws {
        let text = "Delete. All of this!\nAnd this 👍🏽."
        let host = try host(text, cursor: 3)
        let deletion = try await host.walk { try await $0.deleteFullDocumentContext() }.get()
        #expect(host.document == "")
        #expect(deletion.deletedCharacters == text.count)
    }

    @Test func isAsynchronousTheKeyboardKeepsWorkingDuringAWalk() async throws {
        let host = try host(String(repeating: "Words here. ", count: 30), cursor: 0, latency: .milliseconds(30))
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(30))
        try host.tap("a")        // the key works at once: the walk ends, the letter is typed
        await host.settle()
        #expect(await walk.value == .failure(.userCancelled))
        #expect(host.document.hasPrefix("a"))
        #expect(host.document.count == 30 * 12 + 1)
    }

    // MARK: Exactness at the edges

    @Test(arguments: [ContextPolicy.sentence, .paragraph, .characters(1), .utf8Bytes(5), .wayland, .unlimited])
    func emptyWindowsAtBlankLinesAndLoneBreaksDoNotStopIt(_ policy: ContextPolicy) async throws {
        let text = "....\n\n\n. .\r\n\nA.\n👩‍👩‍👧👩‍👩‍👧\n\n"
        for cursor in [0, 1, 2, 5, 9, text.count] {
            let host = try host(text, cursor: cursor, policy: policy)
            let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
            #expect(result.fullDocumentContextBeforeInput + result.fullDocumentContextAfterInput == text, "\(policy) at \(cursor)")
            #expect(result.fullDocumentContextBeforeInput.count == cursor)
            #expect(host.cursor == cursor)
        }
    }

    @Test func aSelectionIsReadAroundAndRestored() async throws {
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: "keep THIS selected. ok", policy: .sentence)
        try host.show()
        host.userSelects(5..<9)
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(result.fullDocumentContextBeforeInput == "keep ")
        #expect(result.selectedText == "THIS")
        #expect(result.fullDocumentContextAfterInput == " selected. ok")
        #expect(host.selection == 5..<9)
    }

    @Test func anEmptyDocument() async throws {
        let host = try host("")
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(result.fullDocumentContextBeforeInput == "" && result.fullDocumentContextAfterInput == "")
        let deletion = try await host.walk { try await $0.deleteFullDocumentContext() }.get()
        #expect(deletion.deletedCharacters == 0)
    }

    @Test func editsPostedJustBeforeTheReadAreIncluded() async throws {
        let host = try host("xy", cursor: 1)
        let keyboard = host.walkerKeyboard
        let result = await host.walk { _ in
            keyboard.textDocumentProxy.insertText("abc")  // posted, not yet applied
            return try await keyboard.readFullDocumentContext()
        }
        #expect(try result.get().fullDocumentContextBeforeInput == "xabc")
    }

    @Test func movesToTheBeginningAndTheEnd() async throws {
        let host = try host("one. two. three", cursor: 6)
        _ = try await host.walk { try await $0.moveCursorToBeginningOfDocument() }.get()
        #expect(host.cursor == 0)
        _ = try await host.walk { try await $0.moveCursorToEndOfDocument() }.get()
        #expect(host.cursor == 15)
    }

    // MARK: Errors

    @Test func theUserMovingTheCursorCancelsAndTheCursorStaysWhereTheyPutIt() async throws {
        let text = String(repeating: "Sentence. ", count: 50)
        let host = try host(text, cursor: 250, latency: .milliseconds(25))
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(40))
        host.userMovesCursor(to: 3)
        await host.settle()
        #expect(await walk.value == .failure(.userCancelled))
        #expect(host.cursor == 3)
        #expect(host.document == text)
    }

    @Test func aNewDocumentEndsTheWalkWithDocumentChanged() async throws {
        let host = try host(String(repeating: "Text. ", count: 50), latency: .milliseconds(25))
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(40))
        host.userSubmits()
        await host.settle()
        #expect(await walk.value == .failure(.documentChanged))
        #expect(host.document == "")
    }

    @Test func cancellingTheTaskStopsAndPutsTheCursorBack() async throws {
        let host = try host(String(repeating: "Text. ", count: 50), cursor: 100, latency: .milliseconds(25))
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(40))
        walk.cancel()
        await host.settle()
        #expect(await walk.value == .failure(.cancelled))
        #expect(host.cursor == 100)
    }

    @Test func aSecondWalkWhileOneRunsIsRefused() async throws {
        let host = try host(String(repeating: "Text. ", count: 20), latency: .milliseconds(25))
        let first = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(10))
        let second = host.startWalk { try await $0.deleteFullDocumentContext() }
        #expect(await second.value == .failure(.operationInProgress))
        await host.settle()
        #expect(try await first.value.get().fullDocumentContextBeforeInput.count == 120)
        #expect(host.document.count == 120)
    }

    @Test func noSnapshotInTimeIsProxyUnresponsive() async throws {
        let host = try host("One. Two.", latency: .seconds(60))
        host.walkerKeyboard.fullDocumentContextTimeout = .milliseconds(50)
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        // The host answers after 60 s of (virtual) time; the walker gives up after 50 ms.
        await host.advance(by: .milliseconds(49))
        #expect(host.walkerKeyboard.isWalkingFullDocument)
        await host.advance(by: .milliseconds(1))
        #expect(await walk.value == .failure(.proxyUnresponsive))
        #expect(host.now == .milliseconds(50))
        // The move it posted is still applied when the host gets to it; then all is quiet.
        #expect(throws: KeyboardTestHostError.notQuiet(["edits posted and not applied"])) { try host.assertQuiet() }
        await host.settle()
        #expect(host.now == .seconds(60))
        try host.assertQuiet()
    }

    /// The timeout is each step's, not the walk's: a walk far longer than it ends well when every step
    /// is answered in time (the walker's one timer is set again for the step in flight).
    @Test func aWalkLongerThanTheTimeoutEndsWellWhenEveryStepIsInTime() async throws {
        let document = String(repeating: "Step. ", count: 40)
        let host = try host(document, cursor: 120, latency: .milliseconds(40))
        host.walkerKeyboard.fullDocumentContextTimeout = .milliseconds(50)
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(result.fullDocumentContextBeforeInput + result.fullDocumentContextAfterInput == document)
        #expect(result.roundTrips > 10)
        #expect(host.now >= .milliseconds(40) * result.roundTrips)
        #expect(host.scheduler.pendingTimers.isEmpty)
    }

    /// A step that stalls after the timer was set again for an earlier one still ends the walk at its
    /// own deadline: posted at 40 ms (the fifth step, each taking 10 ms), given up at 90 ms.
    @Test func aStepThatStallsMidWalkEndsItAtItsOwnDeadline() async throws {
        let host = try host(String(repeating: "Step. ", count: 40), cursor: 120, latency: .milliseconds(10))
        host.walkerKeyboard.fullDocumentContextTimeout = .milliseconds(50)
        let walk = host.startWalk { try await $0.readFullDocumentContext() }
        await host.advance(by: .milliseconds(35))
        host.latency = .seconds(60)  // the host stops answering from the next step on
        await host.advance(by: .milliseconds(54))
        #expect(host.walkerKeyboard.isWalkingFullDocument)
        await host.advance(by: .milliseconds(1))
        try #require(!host.walkerKeyboard.isWalkingFullDocument, "still walking at 90 ms")  // not a hang if not
        #expect(await walk.value == .failure(.proxyUnresponsive))
        #expect(host.now == .milliseconds(90))
        await host.settle()  // the stalled step is still applied when the host gets to it
        try host.assertQuiet()
    }

    @Test func aSlowHostWithinTheTimeoutIsWaitedFor() async throws {
        let host = try host("One. Two.", latency: .milliseconds(1500))
        let result = try await host.walk { try await $0.readFullDocumentContext() }.get()
        #expect(result.fullDocumentContextBeforeInput == "One. Two.")
    }

    @Test func aDeleteCancelledMidwayReportsHowMuchItDeleted() async throws {
        let text = String(repeating: "Gone. ", count: 40)
        let host = try host(text, cursor: 0, latency: .milliseconds(25))
        let walk = host.startWalk { try await $0.deleteFullDocumentContext() }
        await host.advance(by: .milliseconds(120))
        host.userMovesCursor(to: 0)
        await host.settle()
        guard case .failure(let error) = await walk.value else {
            Issue.record("the delete should have been cancelled")
            return
        }
        #expect(error.reason == .userCancelled)
        #expect(error.deletedCharacters > 0 && error.deletedCharacters < text.count)
        // Deleted from the end backward: what is left is the start, untouched.
        #expect(host.document == String(text.prefix(text.count - error.deletedCharacters)))
    }

    // MARK: From the host

    /// In both modes: the keyboard class runs in the test's process, or in a child process (the test
    /// binary started again, which finds WalkerKeyboard by its name).
    @Test(arguments: Isolation.allCases)
    func theHostCanAskForAReadAndADelete(_ isolation: Isolation) async throws {
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: "Host asks. It answers.", cursor: 4, isolation: isolation)
        try host.show()
        // A main-actor task: it runs before the test's next turn, so the command is under way before
        // settle() looks for quiet. (An `async let` child starts on the global executor and, on a busy
        // machine, could send the command after settle() had finished: a hang.)
        let read = Task { @MainActor in await host.session.perform(.readFullDocument) }
        await host.settle()
        let answer = await read.value
        #expect(answer.succeeded)
        #expect(answer.before == "Host")
        #expect(answer.after == " asks. It answers.")
        #expect((answer.roundTrips ?? 0) > 0)

        let delete = Task { @MainActor in await host.session.perform(.deleteFullDocument) }
        await host.settle()
        #expect(await delete.value.deletedCharacters == 22)
        #expect(host.document == "")
    }
}
