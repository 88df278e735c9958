import DashboardApp
import StateMachineDiagrams
import StateMachineInspector
import StateMachineKit
import TerminalUI

/// `statetui inspect NAME`: the dashboard shell opened on another program's machines. Machines lists them
/// live; History travels through the selected machine's records (the state before, the event, the state after
/// and what changed); Graph draws the explored graph, or the one learned from the transitions seen so far,
/// with the current state lit. When the program exits the screens say so and keep the last picture.
///
/// The program's messages reach the store through one subscription (``subscriptions(socketPath:for:)``) as
/// ``InspectScreenAction/received(_:)``; the reducer is pure and the screens are drawn from its state alone.
package enum InspectFeature {
    /// Rows PgUp/PgDn move.
    package static let page = 10
    /// Columns `←`/`→` pan the graph.
    package static let panStep = 4

    private typealias Binding = KeyBinding<InspectScreenState, InspectScreenAction>

    private static let screensHelp = KeyHelp("1–3/tab", "screen")
    private static let machineHelp = KeyHelp("[ / ]", "previous / next machine")
    private static let travelHelp = KeyHelp("↑↓/pgup/pgdn/g", "travel")
    private static let panHelp = KeyHelp("←↑↓→/hjkl", "pan")
    private static let pageHelp = KeyHelp("pgup/pgdn/g/G", "page/top/bottom")
    private static let stateTextHelp = KeyHelp("v", "words / canonical text")

    /// The keys every screen has: the screens, `[`/`]` the machine, `v` the state's text, quitting.
    private static let everywhere: [Binding] =
        InspectTab.allCases.map { tab in
            Binding([.character(Character("\(tab.rawValue)"))], .show(tab), help: screensHelp)
        } + [
            Binding([.tab], .cycleTab(1), help: screensHelp),
            Binding([.backTab], .cycleTab(-1), help: screensHelp, bar: { _ in nil }),
            Binding([.character("]")], .moveMachine(1), help: machineHelp, bar: { _ in KeyHelp("[ ]", "machine") }),
            Binding([.character("[")], .moveMachine(-1), help: machineHelp, bar: { _ in nil }),
            Binding([.character("v")], .toggleStateText, help: stateTextHelp),
            Binding([.character("q")], .quit, help: KeyHelp("q", "quit")),
            Binding([.controlC], .interrupt, help: KeyHelp("q", "quit"), bar: { _ in nil }),
        ]

    /// The Machines list: the list's moves, filter and sort (``ListKeys``), Enter its history.
    private static let machinesKeys: [Binding] = {
        let query: [Binding] = ListKeys.query(
            sortTitles: sortColumns.map(\.title), query: { $0.query }, inBar: true,
            edit: { InspectScreenAction.list($0) })
        let moves: [Binding] = ListKeys.moves(
            page: page, rows: { _, area in max(1, area.height - 1) }, applies: { !$0.query.isEditing },
            bar: { _, move in move == .lineUp ? KeyHelp("↑↓/g/G", "select") : nil },
            move: { InspectScreenAction.moveCursor($0, rows: $1) })
        return query + moves + [
            Binding(
                [.enter], .openHistory, help: KeyHelp("enter", "history"), applies: { !$0.query.isEditing })
        ]
    }()

    /// History: travel through the records (`g`/Home the oldest, `G`/End follows the newest); `/` searches as
    /// the dashboard's History does (``ListKeys/search(search:begin:find:submit:backspace:cancel:)``).
    private static let historyKeys: [Binding] =
        [
            Binding([.up, .character("k")], .travel(-1), help: travelHelp),
            Binding([.down, .character("j")], .travel(1), help: travelHelp),
            Binding([.pageUp], .travel(-page), help: travelHelp),
            Binding([.pageDown], .travel(page), help: travelHelp),
            Binding([.character("g")], .travel(Int.min / 2), help: travelHelp),
            Binding([.home], .travel(Int.min / 2), help: travelHelp),
            Binding([.character("G")], .followNewest, help: KeyHelp("G/end", "follow newest")),
            Binding([.end], .followNewest, help: KeyHelp("G/end", "follow newest")),
            ListKeys.sort(sortTitles: HistorySort.titles, .cycleHistorySort),
        ].map { ListKeys.notWhileTyping($0, typing: { $0.isTypingSearch }) }
        + ListKeys.search(
            search: { $0.search }, begin: .search(.begin), find: { .findMatch(older: $0) },
            submit: .submitSearch, backspace: .search(.backspace), cancel: .search(.cancel))

    /// Graph: arrows and `hjkl` pan, PgUp/PgDn a page, `g`/`G` the top and the bottom, `H`/`L` far sideways, `f`
    /// every state or by case.
    private static let graphKeys: [Binding] = [
        Binding([.up, .character("k")], .pan(rows: -1, columns: 0), help: panHelp),
        Binding([.down, .character("j")], .pan(rows: 1, columns: 0), help: panHelp),
        Binding([.left, .character("h")], .pan(rows: 0, columns: -panStep), help: panHelp),
        Binding([.right, .character("l")], .pan(rows: 0, columns: panStep), help: panHelp),
        Binding([.pageUp], .pan(rows: -page, columns: 0), help: pageHelp, bar: { _ in nil }),
        Binding([.pageDown], .pan(rows: page, columns: 0), help: pageHelp, bar: { _ in nil }),
        Binding([.character("g")], .pan(rows: Int.min / 2, columns: 0), help: pageHelp, bar: { _ in nil }),
        Binding([.home], .pan(rows: Int.min / 2, columns: 0), help: pageHelp, bar: { _ in nil }),
        Binding([.character("G")], .pan(rows: Int.max / 2, columns: 0), help: pageHelp, bar: { _ in nil }),
        Binding([.end], .pan(rows: Int.max / 2, columns: 0), help: pageHelp, bar: { _ in nil }),
        Binding(
            [.character("H")], .pan(rows: 0, columns: -8 * panStep), help: KeyHelp("H/L", "far left/right"),
            bar: { _ in nil }),
        Binding(
            [.character("L")], .pan(rows: 0, columns: 8 * panStep), help: KeyHelp("H/L", "far left/right"),
            bar: { _ in nil }),
        Binding(
            [.character("f")], .toggleFullGraph, help: KeyHelp("f", "every state / by case"),
            bar: { KeyHelp("f", $0.showsFullGraph ? "by case" : "every state") }),
    ]

    /// The key table of `tab`: its own keys, then those of every screen. The keymap, the help bar and the man
    /// page read it.
    package static func bindings(on tab: InspectTab) -> [KeyBinding<InspectScreenState, InspectScreenAction>] {
        switch tab {
        // While the filter is typed, its keys alone apply (Ctrl-C still interrupts).
        case .machines:
            machinesKeys
                + everywhere.map { $0.keys == [.controlC] ? $0 : ListKeys.notWhileTyping($0, query: { $0.query }) }
        // While the search pattern is typed, its keys alone apply (Ctrl-C still interrupts).
        case .history:
            historyKeys
                + everywhere.map {
                    $0.keys == [.controlC] ? $0 : ListKeys.notWhileTyping($0, typing: { $0.isTypingSearch })
                }
        case .graph: graphKeys + everywhere
        }
    }

    /// The columns `o` sorts the Machines list by, in turn.
    package static let sortColumns:
        [(title: String, key: @Sendable (InspectedMachine, InspectScreenState) -> ListSortKey)] = [
            ("Machine", { machine, _ in .name(machine.label) }),
            ("State", { machine, state in .name(stateWords(machine.state, label: machine.label, state)) }),
            ("Stale", { machine, _ in .number(-Double(machine.staleCount)) }),
            ("Invalid", { machine, _ in .number(-Double(machine.invalidCount)) }),
        ]

    /// What the filter looks for in a machine: its label and its state in words and as canonical text.
    static func filterText(_ machine: InspectedMachine, _ state: InspectScreenState) -> String {
        "\(machine.label) \(stateWords(machine.state, label: machine.label, state)) \(machine.state)"
    }

    /// A state in words when a reading knows it, else its canonical text.
    static func stateWords(_ text: String, label: String, _ state: InspectScreenState) -> String {
        state.readings.presentation(of: text, label: label)?.text ?? text
    }

    /// The action of `key` on the state's screen drawn at `size` (its table, ``bindings(on:)``; while the Machines
    /// filter is typed every printable key goes into it); nil for a key it does not use.
    package static func keymap(_ key: Key, _ state: InspectScreenState, size: Size? = nil) -> InspectScreenAction? {
        if state.tab == .machines,
            let typed = ListKeys.textInput(key, state.query, edit: { InspectScreenAction.list($0) })
        {
            return typed
        }
        if state.tab == .history,
            let typed = ListKeys.searchInput(key, state.search, input: { InspectScreenAction.search(.input($0)) })
        {
            return typed
        }
        let context = size.map { KeyContext(key: key, size: $0, area: contentArea($0)) }
        return bindings(in: state).action(for: key, in: state, context: context)
    }

    /// The key table of the state's screen with the keys its configuration binds (``InspectScreenState/keys``).
    static func bindings(in state: InspectScreenState) -> [KeyBinding<InspectScreenState, InspectScreenAction>] {
        state.keys.applied(to: bindings(on: state.tab), in: .inspect)
    }

    /// The help bar's keys on the state's screen: those that apply now, each once, in table order.
    package static func keys(_ state: InspectScreenState) -> [KeyHelp] {
        bindings(in: state).barHelp(in: state)
    }

    /// Where a screen's content is drawn in a frame of `size`: inside the frame, below the tabs and the program's
    /// line, above the help bar.
    static func contentArea(_ size: Size) -> Rect {
        let parts = Rect(size: size).rows([.fixed(1), .fixed(1), .fill(1), .fixed(1)])
        return AppView.frame(title: "").inner(parts[2])
    }

    /// Applies an action.
    package static func reduce(_ state: inout InspectScreenState, _ action: InspectScreenAction)
        -> [InspectScreenEffect]
    {
        switch action {
        case .received(let message):
            state.program.apply(message)
            if state.selectedMachine == nil { state.machine = state.program.machines.first?.id }
            if let record = state.record, let records = state.selectedMachine?.records,
                !records.contains(where: { $0.sequence == record })
            {
                // The record travelled to left the kept window: stay on the oldest one kept.
                state.record = records.first?.sequence
            }
        case .disconnected(let reason):
            state.program.disconnected()
            state.failure = reason
        case .show(let tab):
            state.tab = tab
        case .cycleTab(let step):
            let tabs = InspectTab.allCases
            let index = tabs.firstIndex(of: state.tab) ?? 0
            state.tab = tabs[((index + step) % tabs.count + tabs.count) % tabs.count]
        case .moveMachine(let step):
            let shown = state.shownMachines.map(\.id)
            guard !shown.isEmpty else { return [] }
            let index = shown.firstIndex { $0 == state.machine } ?? 0
            select(&state, shown[min(shown.count - 1, max(0, index + max(-shown.count, min(shown.count, step))))])
        case .moveCursor(let move, let rows):
            if let id = move.selection(from: state.machine, in: state.shownMachines.map(\.id), height: rows) {
                select(&state, id)
            }
        case .list(let edit):
            state.query.apply(edit, columns: sortColumns.count)
            let shown = state.shownMachines.map(\.id)
            if let first = shown.first, !shown.contains(where: { $0 == state.machine }) { select(&state, first) }
        case .toggleStateText:
            state.showsCanonical.toggle()
        case .toggleFullGraph:
            state.showsFullGraph.toggle()
            state.graphOffset = 0
            state.graphColumn = 0
        case .travel(let rows):
            // Through the records as drawn; following, from the newest, staying put follows still.
            let records = state.shownRecords
            guard !records.isEmpty else { return [] }
            let index =
                state.selectedRecord.flatMap { record in records.firstIndex { $0.sequence == record.sequence } }
                ?? records.count - 1
            let target = min(records.count - 1, max(0, index + rows))
            state.record = target == index && state.record == nil ? nil : records[target].sequence
        case .followNewest:
            state.record = nil
        case .cycleHistorySort:
            var query = ListQuery(sortColumn: state.historySort)
            query.apply(.cycleSort, columns: HistorySort.titles.count)
            state.historySort = query.sortColumn
        case .search(let edit):
            HistorySearch.apply(edit, to: &state.search)
        case .submitSearch:
            guard HistorySearch.submit(&state.search) else { return [] }
            land(&state, from: state.shownRecords.count, older: true)
        case .findMatch(let older):
            guard state.search?.isSubmitted == true else { return [] }
            let shown = state.shownRecords
            let current = state.selectedRecord.flatMap { record in shown.firstIndex { $0.sequence == record.sequence } }
            land(&state, from: current ?? shown.count, older: older)
        case .pan(let rows, let columns):
            let layout = graphLayout(state)
            state.graphOffset = min(max(0, layout.height - 1), max(0, state.graphOffset + rows))
            state.graphColumn = min(max(0, layout.width - 1), max(0, state.graphColumn + columns))
        case .openHistory:
            state.tab = .history
        case .quit:
            state.exit = .quit
        case .interrupt:
            state.exit = .interrupted
        }
        return []
    }

    /// Travels to the next record History's search matches from place `start` (exclusive) of the records drawn,
    /// towards the top (`older`) or the bottom, wrapping around (``HistorySearch/next(among:from:up:text:)``); no
    /// match leaves the record where it is.
    private static func land(_ state: inout InspectScreenState, from start: Int, older: Bool) {
        let shown = state.shownRecords
        let label = state.selectedMachine?.label ?? ""
        guard let search = state.search,
            let index = search.next(
                among: shown.count, from: start, up: older, text: { searchText(shown[$0], label: label, state) })
        else {
            state.search?.match = nil
            return
        }
        state.search?.match = shown[index].sequence
        state.record = shown[index].sequence
    }

    /// What History's search looks for in a record: its cells as drawn, the state after in words and as
    /// canonical text, and the reason of an invalid event.
    static func searchText(_ record: InspectorRecord, label: String, _ state: InspectScreenState) -> String {
        let after = stateWords(record.after, label: label, state)
        return "\(record.sequence) \(record.visit) \(record.event) \(record.outcome) \(after) \(record.after)"
            + (record.reason.map { " \($0)" } ?? "")
    }

    /// Selects the machine `id`: its history from the newest record, its graph from the top left.
    private static func select(_ state: inout InspectScreenState, _ id: Int) {
        guard id != state.machine else { return }
        state.machine = id
        state.record = nil
        state.search?.match = nil
        state.graphOffset = 0
        state.graphColumn = 0
    }

    /// The one subscription: the program's messages while the user is inspecting and it has not ended.
    package static func subscriptions(socketPath: String, for state: InspectScreenState) -> [Subscription<
        InspectScreenAction
    >] {
        guard state.exit == nil, !state.programExited, state.failure == nil else { return [] }
        return [
            Subscription(
                id: "inspect.\(socketPath)", newestOnly: false,
                { InspectFeed(messages: InspectorConnection.messages(socketPath: socketPath)) }, action: { $0 })
        ]
    }

    /// The app `statetui inspect NAME` runs on the program at `socketPath`.
    package static func app(socketPath: String, keys: KeyOverrides = KeyOverrides())
        -> App<InspectScreenState, InspectScreenAction, InspectScreenEffect>
    {
        var state = InspectScreenState(socketPath: socketPath)
        state.keys = keys
        return App(
            initialState: state,
            reduce: reduce,
            view: render,
            keymap: { key, state, size in keymap(key, state, size: size) },
            isFinished: { $0.exit != nil },
            subscribe: { subscriptions(socketPath: socketPath, for: $0) })
    }

    // MARK: - Views

    /// The screens for `state` at `size`: tabs, the program's line, the screen in the dashboard's frame
    /// (``AppView/frame(title:)``), the help bar.
    package static func render(_ state: InspectScreenState, size: Size) -> Canvas {
        var canvas = Canvas(size: size)
        guard size.width >= AppView.minimumSize.width, size.height >= AppView.minimumSize.height else {
            Line(AppView.tooSmallMessage).render(in: canvas.bounds.row(0), on: &canvas)
            return canvas
        }
        let parts = canvas.bounds.rows([.fixed(1), .fixed(1), .fill(1), .fixed(1)])
        let tabs = InspectTab.allCases
        canvas.render(
            TabBar(titles: tabs.map(\.title), selected: tabs.firstIndex(of: state.tab) ?? 0, disabled: []), in: parts[0]
        )
        programLine(state).render(in: parts[1], on: &canvas)
        let frame = AppView.frame(title: state.tab.title)
        canvas.render(frame, in: parts[2])
        let content = frame.inner(parts[2])
        switch state.tab {
        case .machines: machinesView(state, in: content, on: &canvas)
        case .history: historyView(state, in: content, on: &canvas)
        case .graph: graphView(state, in: content, on: &canvas)
        }
        canvas.render(KeyHelpBar(items: keys(state)), in: parts[3])
        return canvas
    }

    /// `program NAME · pid N · M machines · live`, or that the program exited (the picture above is its last).
    static func programLine(_ state: InspectScreenState) -> Line {
        let name = state.program.hello.map { "\($0.program) · pid \($0.pid)" } ?? state.socketPath
        let count = "\(state.program.machines.count) machines"
        let status: Span
        switch state.program.status {
        case .connecting: status = Span("connecting…", style: .dim)
        case .live: status = Span("live", style: Style(foreground: .green, attributes: .bold))
        case .ended: status = Span("program exited", style: .reverse)
        case .lost: status = Span("program exited (connection lost)", style: .reverse)
        }
        var spans = [Span(name, style: .bold), Span(" · \(count) · "), status]
        if let failure = state.failure { spans.append(Span(" · \(failure)", style: .dim)) }
        return Line(spans)
    }

    /// Every machine the filter shows, in the sort column's order: label, state (in words, or its canonical text
    /// cut so the case and its figures stay), visit, last event, stale and invalid counts, missed records, live or
    /// not; the filter and the sort on the last line when asked.
    static func machinesView(_ state: InspectScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !state.program.machines.isEmpty else {
            Line(state.programExited ? "No machines." : "Waiting for the program's machines…", style: .dim)
                .render(in: area.row(0), on: &canvas)
            return
        }
        let machines = state.shownMachines
        let status = state.query.status(
            shown: machines.count, of: state.program.machines.count, sortTitles: sortColumns.map(\.title))
        let list = status == nil ? area : area.inset(bottom: 1)
        if let status { status.render(in: area.row(area.height - 1), on: &canvas) }
        let wide = area.width >= 100
        let sorted = state.query.sortColumn.map { sortColumns[$0].title.lowercased() }
        func column(_ title: String, _ width: Constraint, _ alignment: Alignment = .left) -> TableColumn {
            TableColumn(title == sorted ? title + "▾" : title, width: width, alignment: alignment)
        }
        var columns = [
            column("machine", .fill(2)), column("state", .fill(4)), column("visit", .fixed(5), .right),
            column("last event", .fill(2)), column("stale", .fixed(5), .right), column("invalid", .fixed(7), .right),
        ]
        if wide { columns.append(column("missed", .fixed(6), .right)) }
        columns.append(TableColumn("", width: .fixed(7)))
        let stateWidth = Table(columns: columns, rows: []).columnAreas(in: list.row(0))[1].width
        let rows = machines.map { machine in
            var cells = [
                Line(machine.label),
                state.readings.cell(
                    machine.state, label: machine.label, canonical: state.showsCanonical, width: stateWidth),
                Line("\(machine.visit)"), Line(machine.lastEvent ?? "—"),
                Line("\(machine.staleCount)"), Line("\(machine.invalidCount)"),
            ]
            if wide { cells.append(Line("\(machine.missed)")) }
            cells.append(machineStatus(machine, programExited: state.programExited))
            return cells
        }
        let selected = machines.firstIndex { $0.id == state.machine }
        Table(columns: columns, rows: rows, selected: selected).render(in: list, on: &canvas)
    }

    /// `live`, `stopped`, or `gone` once its program is: a machine of a program that exited (or was killed) is
    /// not live whatever it last said.
    static func machineStatus(_ machine: InspectedMachine, programExited: Bool) -> Line {
        if machine.stopped { return Line("stopped", style: .dim) }
        return programExited ? Line("gone", style: .dim) : Line("live")
    }

    /// The selected machine's records (the one travelled to highlighted) over the state then and what changed.
    static func historyView(_ state: InspectScreenState, in area: Rect, on canvas: inout Canvas) {
        guard let machine = state.selectedMachine else {
            Line("No machine yet.", style: .dim).render(in: area.row(0), on: &canvas)
            return
        }
        historyStatus(state, machine).render(in: area.row(0), on: &canvas)
        guard let selected = state.selectedRecord else {
            Line("No events yet.").render(in: area.row(1), on: &canvas)
            return
        }
        let changes = StateChange.lines(from: selected.before, to: selected.after)
        func described(_ text: String) -> [Span] {
            let cell = state.readings.cell(text, label: machine.label, canonical: state.showsCanonical, width: Int.max)
            return cell.plainText == text ? cell.spans : cell.spans + [Span("  \(text)", style: .dim)]
        }
        let detail =
            [
                Line(
                    [Span("#\(selected.sequence) visit \(selected.visit) ", style: .bold), Span(selected.outcome)]
                        + (selected.reason.map { [Span(": \($0)", style: .reverse)] } ?? [])),
                Line([Span("before ", style: .dim)] + described(selected.before)),
                Line([Span("event  ", style: .dim), Span(selected.event, style: .bold)]),
                Line([Span("after  ", style: .dim)] + described(selected.after)),
                Line("changed", style: .dim),
            ] + (changes.isEmpty ? [Line("  nothing", style: .dim)] : changes.map { Line("  " + $0) })
        let detailHeight = min(detail.count, max(0, (area.height - 1) / 2))
        let list = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1 - detailHeight)
        let records = state.shownRecords
        let index = records.firstIndex { $0.sequence == selected.sequence } ?? records.count - 1
        let visible = max(1, list.height - 1)
        let first = max(0, min(index - visible / 2, records.count - visible))
        let columns = [
            TableColumn("#", width: .fixed(5), alignment: .right),
            TableColumn("visit", width: .fixed(5), alignment: .right),
            TableColumn(HistorySort.header("event", column: 0, sortedBy: state.historySort), width: .fill(2)),
            TableColumn(HistorySort.header("outcome", column: 1, sortedBy: state.historySort), width: .fixed(8)),
            TableColumn(HistorySort.header("state after", column: 2, sortedBy: state.historySort), width: .fill(3)),
        ]
        let afterWidth = Table(columns: columns, rows: []).columnAreas(in: list.row(0))[4].width
        let rows = records.map { record in
            [
                Line("\(record.sequence)"), Line("\(record.visit)"), Line(record.event), Line(record.outcome),
                state.readings.cell(
                    record.after, label: machine.label, canonical: state.showsCanonical, width: afterWidth),
            ]
        }
        Table(columns: columns, rows: rows, selected: index, offset: first).render(in: list, on: &canvas)
        let detailArea = Rect(x: area.x, y: list.y + list.height, width: area.width, height: detailHeight)
        Paragraph(Array(detail.prefix(detailHeight))).render(in: detailArea, on: &canvas)
    }

    /// History's first line: the machine, then the pattern being typed, or the counts, whether the newest is
    /// followed and the search, as the dashboard's History says them.
    static func historyStatus(_ state: InspectScreenState, _ machine: InspectedMachine) -> Line {
        let title = [Span("Machine ", style: .bold), Span(" \(machine.label) ", style: .reverse)]
        if let search = state.search, search.isEditing { return Line(title + [Span(" ")] + search.typingSpans) }
        let follow = state.record == nil ? "following newest" : "travelled back · end follows newest"
        // The search comes before the follow mode, which 80 columns cut.
        var spans = title + [Span(" \(machine.records.count) records · \(machine.missed) missed", style: .dim)]
        if let search = state.search {
            let matching = machine.records.filter { search.matches(text: searchText($0, label: machine.label, state)) }
            spans.append(search.summary(matching: matching.count))
        }
        return Line(spans + [Span(HistorySort.status(state.historySort) + " · \(follow)", style: .dim)])
    }

    /// The diagram of the selected machine's graph (explored, else learned), by case or whole as the screen shows it.
    static func graphLayout(_ state: InspectScreenState) -> DiagramLayout {
        guard let graph = state.selectedMachine?.graph else { return DiagramLayout(DiagramGraph(nodes: [], edges: [])) }
        return DiagramLayout(diagramGraph(graph, byCase: !state.showsFullGraph))
    }

    /// The box `text` is drawn in: its case (``StateReadings/caseName(of:)``) when the graph is collapsed.
    static func box(_ text: String, byCase: Bool) -> String {
        byCase ? StateReadings.caseName(of: text) : text
    }

    /// The protocol's graph as the diagram layout's input: states as boxes, edges labelled with their events;
    /// `byCase`, one box per case and one arrow per pair of cases, labelled with the events' cases, as the
    /// dashboard's Graph screen collapses a model (a copy's 100 percents are one `running` box).
    package static func diagramGraph(_ graph: InspectorGraph, byCase: Bool = false) -> DiagramGraph {
        var nodes: [String] = []
        var index: [String: Int] = [:]
        for state in graph.states {
            let name = box(state, byCase: byCase)
            if index[name] == nil {
                index[name] = nodes.count
                nodes.append(name)
            }
        }
        var pairs: [Pair] = []
        var labels: [[String]] = []
        var edgeOfPair: [Pair: Int] = [:]
        for edge in graph.edges {
            guard let from = index[box(edge.from, byCase: byCase)], let to = index[box(edge.to, byCase: byCase)]
            else { continue }
            let pair = Pair(from: from, to: to)
            let label = byCase ? DiagramGraph.caseName(of: edge.event) : edge.event
            if byCase, let existing = edgeOfPair[pair] {
                if !labels[existing].contains(label) { labels[existing].append(label) }
            } else {
                edgeOfPair[pair] = pairs.count
                pairs.append(pair)
                labels.append([label])
            }
        }
        let edges = pairs.indices.map { edge in
            DiagramGraph.Edge(from: pairs[edge].from, to: pairs[edge].to, label: labels[edge].joined(separator: ", "))
        }
        return DiagramGraph(nodes: nodes, edges: edges, initial: nodes.isEmpty ? nil : 0)
    }

    /// Two boxes an arrow joins.
    private struct Pair: Hashable {
        var from: Int
        var to: Int
    }

    /// The selected machine's graph, its current state lit and the last transition highlighted, pannable.
    static func graphView(_ state: InspectScreenState, in area: Rect, on canvas: inout Canvas) {
        guard let machine = state.selectedMachine else {
            Line("No machine yet.", style: .dim).render(in: area.row(0), on: &canvas)
            return
        }
        let graph = machine.graph
        let byCase = !state.showsFullGraph
        let source = machine.explored == nil ? "learned from \(graph.edges.count) transitions seen" : "explored"
        let now = state.readings.cell(
            machine.state, label: machine.label, canonical: state.showsCanonical, width: Int.max)
        Line([
            Span("Machine ", style: .bold), Span(" \(machine.label) ", style: .reverse),
            Span(" \(source)" + (graph.truncated ? " (truncated)" : "") + (byCase ? " · by case" : "") + " · now "),
            Span(now.plainText, style: GraphFeature.liveStyle),
        ]).render(in: area.row(0), on: &canvas)
        let diagram = diagramGraph(graph, byCase: byCase)
        let layout = DiagramLayout(diagram)
        let live = diagram.node(named: box(machine.state, byCase: byCase)).map { Set([$0]) } ?? []
        var last = Set<Int>()
        if let record = machine.records.last, let from = diagram.node(named: box(record.before, byCase: byCase)),
            let to = diagram.node(named: box(record.after, byCase: byCase))
        {
            // By case one arrow joins two boxes, whatever its events; whole, the arrow of this event.
            last = Set(diagram.edges(from: from, to: to).filter { byCase || diagram.edges[$0].label == record.event })
        }
        GraphFeature.draw(
            layout, live: live, lastEdges: last, top: state.graphOffset, left: state.graphColumn,
            in: area.inset(top: 1), on: &canvas)
    }
}
