import FileTransfer
import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI
import Testing

@testable import DashboardApp

/// Size, bytes done, rate and ETA come from the driver's size and the samples the runtime passes in.
@Suite struct TransferColumnsTests {
    /// A row that learned something keeps it in one box, and a copy dashboard has one for each row started:
    /// the driver's status in it takes 32 bytes (its two flags in the padding after the optional size), the
    /// box's contents 160 (issue 23, item 6).
    @Test func whatARowLearnedIsCompact() {
        #expect(MemoryLayout<TransferDriverStatus>.stride <= 32)
        #expect(MemoryLayout<TransferActivity>.stride <= 160)
        // A row's size without an optional's tag byte: 80 bytes a row in the rows' array, not 88.
        #expect(MemoryLayout<TransferRow>.stride <= 80)
        var row = TransferRow(name: "a")
        let sizes = [nil, 0, 1 << 40, Int64.max, -1].map { size -> Int64? in
            row.driverStatus = TransferDriverStatus(totalBytes: size)
            return row.totalBytes
        }
        #expect(sizes == [nil, 0, 1 << 40, Int64.max, -1])
    }

    /// Once nothing is under way (its driver's status holds no text, no progress is measured and no timeout is
    /// armed), a row keeps what it learned in a box of 38 bytes rather than 160 (issue 23, item 6), and reads back
    /// exactly as a row that kept the whole; a restart boxes the whole again.
    @Test func aRowWithNothingUnderWayKeepsAHalfSizedBox() {
        let running = TransferModel(phase: .running(request: 1, percent: 40), lastRequest: 1)
        let completed = TransferModel(phase: .completed(file: "d/a"), lastRequest: 1)
        var row = TransferRow(name: "a", driverStatus: TransferDriverStatus(totalBytes: 1_000, copyingFromPercent: 0))
        row.take(running, TransferSample(at: .seconds(2), visit: 2, timeout: .seconds(9)))
        row.tally = RecordTally(lastSequence: 3, stale: 1)
        #expect(row.boxedBytes == MemoryLayout<TransferActivity>.size)

        row.take(completed, TransferSample(at: .seconds(5), visit: 3))
        row.take(completed, TransferSample(at: .seconds(8), visit: 3))
        #expect(row.boxedBytes == 38)
        #expect(
            [row.sample, row.enteredAt, row.tally, row.driverStatus, row.progress] as [AnyHashable] == [
                Optional(TransferSample(at: .seconds(8), visit: 3)), Optional(Duration.seconds(5)),
                RecordTally(lastSequence: 3, stale: 1), TransferDriverStatus(totalBytes: 1_000, copyingFromPercent: 0),
                ProgressWindow(),
            ])
        #expect(
            TransfersFeature.detailLines(row, width: 80).map(\.plainText).filter { $0.hasPrefix("Visit") } == [
                "Visit      3 · in this state 0:03 (at the last update)"
            ])
        var found = row
        found.driverStatus.alreadyThere = "same content"
        #expect(found.boxedBytes == MemoryLayout<TransferActivity>.size)
        #expect(
            found.driverStatus
                == TransferDriverStatus(totalBytes: 1_000, alreadyThere: "same content", copyingFromPercent: 0)
        )

        row.take(running, TransferSample(at: .seconds(6), visit: 4))
        #expect(row.boxedBytes == MemoryLayout<TransferActivity>.size)
        #expect(row.progress.points == [ProgressWindow.Point(at: .seconds(6), percent: 40)])
    }

    /// A quiet row whose times are not whole nanoseconds, or whose counts do not fit in 32 bits, keeps the whole in
    /// its box and reads back exactly; one whose do keeps the small box, negative times among them.
    @Test(arguments: [
        (Duration.seconds(5), Duration.seconds(8), RecordTally(lastSequence: 3, stale: 1), true),
        (.nanoseconds(-7), .nanoseconds(-1), RecordTally(lastSequence: Int(UInt32.max), missed: 2), true),
        (.seconds(5) + .nanoseconds(1), .seconds(8), RecordTally(lastSequence: 3), true),
        (Duration(secondsComponent: 5, attosecondsComponent: 1), .seconds(8), RecordTally(lastSequence: 3), false),
        (.seconds(5), .seconds(8) / 3, RecordTally(lastSequence: 3), false),
        (.seconds(Int64.max / 2), .seconds(Int64.max / 2), RecordTally(lastSequence: 3), false),
        (.seconds(5), .seconds(8), RecordTally(lastSequence: Int(UInt32.max) + 1), false),
        (.seconds(5), .seconds(8), RecordTally(lastSequence: 3, stale: -1), false),
    ])
    func aQuietRowKeepsTheSmallBoxOnlyWhenItHoldsExactly(
        entered: Duration, sampled: Duration, tally: RecordTally, keepsSmallBox: Bool
    ) {
        let completed = TransferModel(phase: .completed(file: "d/a"), lastRequest: 1)
        var row = TransferRow(name: "a", driverStatus: TransferDriverStatus(copyingFromPercent: 0))
        row.take(completed, TransferSample(at: entered, visit: 3))
        row.take(completed, TransferSample(at: sampled, visit: 3))
        row.tally = tally
        #expect(
            [row.boxedBytes, row.sample, row.enteredAt, row.tally, row.driverStatus] as [AnyHashable] == [
                keepsSmallBox ? 38 : MemoryLayout<TransferActivity>.size,
                Optional(TransferSample(at: sampled, visit: 3)), Optional(entered), tally,
                TransferDriverStatus(copyingFromPercent: 0),
            ])
    }

    /// A quiet row's small box keeps whether its copy ran (from 0%, or never); one that continued from past 0%
    /// keeps the whole, and each reads back exactly.
    @Test(arguments: [(nil, 38), (0, 38), (50, MemoryLayout<TransferActivity>.size)] as [(UInt8?, Int)])
    func aQuietRowKeepsThePercentItsCopyBeganAt(copyingFrom: UInt8?, boxedBytes: Int) {
        let completed = TransferModel(phase: .completed(file: "d/a"), lastRequest: 1)
        var row = TransferRow(name: "a", driverStatus: TransferDriverStatus(copyingFromPercent: copyingFrom))
        row.take(completed, TransferSample(at: .seconds(5), visit: 3))
        row.take(completed, TransferSample(at: .seconds(8), visit: 3))
        #expect(
            [row.boxedBytes, row.driverStatus] as [AnyHashable] == [
                boxedBytes, TransferDriverStatus(copyingFromPercent: copyingFrom),
            ])
    }

    @Test(arguments: [
        (Int64(0), "0 B"), (999, "999 B"), (1_000, "1.0 KB"), (1_536, "1.5 KB"), (12_345_678, "12 MB"),
        (4_200_000_000, "4.2 GB"),
    ])
    func sizesReadInDecimalUnits(bytes: Int64, expected: String) {
        #expect(TransferFigures.size(bytes) == expected)
    }

    @Test(arguments: [
        (0.0, "0:00"), (41.2, "0:42"), (725, "12:05"), (7_500, "2h05m"), (400_000, ">99h"), (-1, "–"),
        (Double.infinity, "–"),
    ])
    func durationsReadAsClockTime(seconds: Double, expected: String) {
        #expect(TransferFigures.duration(seconds: seconds) == expected)
    }

    /// Two samples a second apart, 10% of a 1 MB file between them: 100 KB/s, 7 seconds left at 30%.
    @Test func rateAndETAAreMeasuredFromTheSamples() {
        var row = TransferRow(name: "a", driverStatus: TransferDriverStatus(totalBytes: 1_000_000))
        row.take(
            TransferModel(phase: .running(request: 1, percent: 20), lastRequest: 1),
            TransferSample(at: .seconds(4), visit: 2))
        #expect(row.rate == nil)
        row.take(
            TransferModel(phase: .running(request: 1, percent: 30), lastRequest: 1),
            TransferSample(at: .seconds(5), visit: 2))
        #expect(row.rate == 100_000)
        #expect(row.bytesDone == 300_000)
        #expect(row.secondsLeft == 7)
        #expect(row.enteredAt == .seconds(4))
    }

    /// The state in words, cut in advance to each width the State column takes, draws the cells the table's
    /// own cut of the whole text would.
    @Test(arguments: TransfersFeature.stateWidths)
    func theStateCutInAdvanceDrawsWhatTheTableWouldCut(width: Int) {
        let model = TransferModel(
            phase: .failed(message: "the server closed the connection"), lastRequest: 2, retainedPercent: 41)
        let row = TransferRow(name: "a", model: model)
        let area = Rect(x: 0, y: 0, width: width, height: 1)
        var cut = Canvas(size: area.size)
        var whole = Canvas(size: area.size)
        cut.render(row.stateLine(canonical: false, width: width), in: area)
        whole.render(Line([Span(model.presentation.text, style: model.presentation.phase.style)]), in: area)
        #expect(cut == whole)
        #expect(row.stateLine(canonical: false, width: width).width <= width)
    }

    /// A pause ends the measurement; a new request starts it over.
    @Test func theRateWindowStartsOverWithEachRequest() {
        var window = ProgressWindow()
        window.add(.running(request: 1, percent: 10), at: .seconds(1))
        window.add(.running(request: 1, percent: 20), at: .seconds(2))
        window.add(.paused(request: 1, percent: 20), at: .seconds(3))
        #expect(window == ProgressWindow())
        window.add(.running(request: 2, percent: 20), at: .seconds(4))
        #expect(window.points == [ProgressWindow.Point(at: .seconds(4), percent: 20)])
        #expect(window.request == 2)
    }

    @Test func theWindowKeepsItsNewestPoints() {
        var window = ProgressWindow()
        for percent in 1...20 { window.add(.running(request: 1, percent: percent), at: .seconds(percent)) }
        #expect(window.points.map(\.percent) == Array(13...20))
        #expect(window.rate(totalBytes: nil) == nil)
    }

    /// The name gets what the fixed columns leave; the figures are dropped on narrow terminals.
    @Test(arguments: [
        (40, [TransferColumn.name, .eta, .state(18)]), (80, [.name, .size, .done, .rate, .eta, .state(26)]),
        (200, [.name, .progress, .size, .done, .rate, .eta, .state(40)]),
    ])
    func columnsShareTheWidth(width: Int, expected: [TransferColumn]) {
        #expect(TransfersFeature.columns(width: width) == expected)
    }

    /// Enter opens the selected row's pane, Esc closes it, moving the selection starts its text at the top.
    @Test func theDetailPaneOpensClosesAndFollowsTheSelection() {
        var state = DashboardFixtures.screen(selected: 4)
        let enter = TransfersFeature.bindings.action(for: .enter, in: state)
        #expect(enter == .toggleDetail)
        #expect(TransfersFeature.bindings.action(for: .escape, in: state) == nil)
        _ = TransfersFeature.reduce(&state, .toggleDetail)
        #expect(state.detail == TransferDetail())
        _ = TransfersFeature.reduce(&state, .scrollDetail(to: 3))
        #expect(state.detail == TransferDetail(offset: 3))
        _ = TransfersFeature.reduce(&state, .selectPrevious)
        #expect(state.detail == TransferDetail())
        #expect(TransfersFeature.bindings.action(for: .escape, in: state) == .closeDetail)
        _ = TransfersFeature.reduce(&state, .closeDetail)
        #expect(state == DashboardFixtures.screen(selected: 3))
    }

    /// A state's words quote outside text: the copied file's path is shown escaped in the row's State, its detail
    /// pane and History, as in the Name column and the headless lines. Before, a byte that is not UTF-8 showed as
    /// a blank, a newline vanished (`new\nline` read `newline`, another name) and ESC was dropped.
    @Test func aStatesWordsShowTheFilesPathEscaped() {
        let path = FileName.string(Array("d2/bad".utf8) + [0xFF] + Array("name\nx\u{1B}[2J".utf8))
        let model = TransferModel(phase: .completed(file: path), lastRequest: 1)
        let shown = #"completed · d2/bad\xFFname\nx\u{1B}[2J"#
        let row = TransferRow(name: "bad", model: model)
        #expect(row.presentation == StatePresentation(.done, shown))
        #expect(TransfersFeature.detailLines(row, width: 80).first?.plainText == "State      " + shown)
        let record = StateMachine<TransferModel, TransferEvent>.Record(
            sequence: 2, visit: 1, before: TransferModel(phase: .running(request: 1, percent: 100), lastRequest: 1),
            event: .succeeded(request: 1, file: path), outcome: .moved, after: model)
        #expect(HistoryRow(machine: "bad", record: record).presented == StatePresentation(.done, shown))
    }

    /// The failed row's pane holds its whole error, wrapped, however long.
    @Test func theDetailPaneHoldsTheWholeError() {
        let message = (1...40).map { "part\($0)" }.joined(separator: " ")
        let row = TransferRow(
            name: "big.iso", model: TransferModel(phase: .failed(message: message), lastRequest: 1))
        let text = TransfersFeature.detailLines(row, width: 30).map(\.plainText)
        let error = text.drop { !$0.hasPrefix("Error") }.prefix { !$0.hasPrefix("Last records") }
        let words = error.joined(separator: " ").split(separator: " ").filter { $0 != "Error" }
        #expect(words.joined(separator: " ") == message)
        #expect(text.allSatisfy { DisplayWidth.of($0) <= 30 })
    }

    /// Paging the pane is resolved against the drawn pane: End shows its last page.
    @Test func pagingTheDetailPaneUsesTheDrawnHeight() {
        let message = (1...80).map { "part\($0)" }.joined(separator: " ")
        var app = DashboardFixtures.app(selected: 4)
        app.transfers.rows[4].model = TransferModel(phase: .failed(message: message), lastRequest: 1)
        app.transfers.detail = TransferDetail()
        let size = Size(width: 80, height: 24)
        guard case .scrollDetail(let end)? = Keymap.action(for: .end, in: app, size: size)?.of(TransfersFeature.self)
        else {
            Issue.record("End does not scroll the pane")
            return
        }
        #expect(end > 0)
        #expect(Keymap.action(for: .home, in: app, size: size) == .transfers(.scrollDetail(to: 0)))
        // ↓ still moves through the transfers: a page of the five rows drawn above the pane.
        #expect(Keymap.action(for: .down, in: app, size: size) == .transfers(.moveCursor(.lineDown, rows: 5)))
        #expect(Keymap.action(for: .end, in: app, size: size) == .transfers(.scrollDetail(to: end)))
        // Without a drawn pane the reducer scrolls by a nominal page.
        _ = TransfersFeature.reduce(&app.transfers, .moveDetail(.pageDown))
        #expect(app.transfers.detail == TransferDetail(offset: TransferDetail.nominalHeight - 1))
    }
}
