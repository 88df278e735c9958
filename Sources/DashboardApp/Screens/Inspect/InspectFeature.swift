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

    /// One entry of the key table: the keys, the screens they work on, what they do, and the help entry.
    package struct Binding: Hashable, Sendable {
        /// The keys that do it.
        package var keys: [Key]
        /// The screens where they do it.
        package var tabs: Set<InspectTab>
        /// The action.
        package var action: InspectScreenAction
        /// How the help lists it.
        package var help: KeyHelp
    }

    private static let all = Set(InspectTab.allCases)
    private static let screensHelp = KeyHelp("1–3/tab", "screen")
    private static let machineHelp = KeyHelp("↑↓", "machine")
    private static let otherMachineHelp = KeyHelp("←→", "machine")
    private static let travelHelp = KeyHelp("↑↓/pgup/pgdn/home", "travel")
    private static let panHelp = KeyHelp("↑↓/hjkl", "pan")

    /// Every key of the inspect screens: the keymap, the help bar and the man page read this table.
    package static let bindings: [Binding] =
        InspectTab.allCases.map { tab in
            Binding(keys: [.character(Character("\(tab.rawValue)"))], tabs: all, action: .show(tab), help: screensHelp)
        } + [
            Binding(keys: [.tab], tabs: all, action: .cycleTab(1), help: screensHelp),
            Binding(keys: [.backTab], tabs: all, action: .cycleTab(-1), help: screensHelp),
            Binding(keys: [.up, .character("k")], tabs: [.machines], action: .moveMachine(-1), help: machineHelp),
            Binding(keys: [.down, .character("j")], tabs: [.machines], action: .moveMachine(1), help: machineHelp),
            Binding(keys: [.enter], tabs: [.machines], action: .openHistory, help: KeyHelp("enter", "history")),
            Binding(keys: [.left], tabs: [.history, .graph], action: .moveMachine(-1), help: otherMachineHelp),
            Binding(keys: [.right], tabs: [.history, .graph], action: .moveMachine(1), help: otherMachineHelp),
            Binding(keys: [.up, .character("k")], tabs: [.history], action: .travel(-1), help: travelHelp),
            Binding(keys: [.down, .character("j")], tabs: [.history], action: .travel(1), help: travelHelp),
            Binding(keys: [.pageUp], tabs: [.history], action: .travel(-page), help: travelHelp),
            Binding(keys: [.pageDown], tabs: [.history], action: .travel(page), help: travelHelp),
            Binding(keys: [.home], tabs: [.history], action: .travel(Int.min / 2), help: travelHelp),
            Binding(keys: [.end], tabs: [.history], action: .followNewest, help: KeyHelp("end", "follow newest")),
            Binding(keys: [.up, .character("k")], tabs: [.graph], action: .pan(rows: -1, columns: 0), help: panHelp),
            Binding(keys: [.down, .character("j")], tabs: [.graph], action: .pan(rows: 1, columns: 0), help: panHelp),
            Binding(keys: [.character("h")], tabs: [.graph], action: .pan(rows: 0, columns: -panStep), help: panHelp),
            Binding(keys: [.character("l")], tabs: [.graph], action: .pan(rows: 0, columns: panStep), help: panHelp),
            Binding(keys: [.character("q")], tabs: all, action: .quit, help: KeyHelp("q", "quit")),
            Binding(keys: [.controlC], tabs: all, action: .interrupt, help: KeyHelp("q", "quit")),
        ]

    /// The action of `key` on the state's screen, looked up in ``bindings``; nil for a key it does not use.
    package static func keymap(_ key: Key, _ state: InspectScreenState) -> InspectScreenAction? {
        bindings.first { $0.tabs.contains(state.tab) && $0.keys.contains(key) }?.action
    }

    /// The keys of `tab`, each help entry once, in table order.
    package static func keys(on tab: InspectTab) -> [KeyHelp] {
        bindings.filter { $0.tabs.contains(tab) }.reduce(into: []) { entries, binding in
            if !entries.contains(binding.help) { entries.append(binding.help) }
        }
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
            let machines = state.program.machines
            guard !machines.isEmpty else { return [] }
            let index = machines.firstIndex { $0.id == state.machine } ?? 0
            let next = min(machines.count - 1, max(0, index + step))
            if machines[next].id != state.machine {
                state.machine = machines[next].id
                state.record = nil
                state.graphOffset = 0
                state.graphColumn = 0
            }
        case .travel(let rows):
            guard let records = state.selectedMachine?.records, !records.isEmpty else { return [] }
            let index =
                state.record.flatMap { record in records.firstIndex { $0.sequence == record } }
                ?? records.count - 1
            let target = min(records.count - 1, max(0, index + rows))
            state.record = target == records.count - 1 && state.record == nil ? nil : records[target].sequence
        case .followNewest:
            state.record = nil
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
    package static func app(socketPath: String) -> App<InspectScreenState, InspectScreenAction, InspectScreenEffect> {
        App(
            initialState: InspectScreenState(socketPath: socketPath),
            reduce: reduce,
            view: render,
            keymap: { key, state, _ in keymap(key, state) },
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
        canvas.render(KeyHelpBar(items: keys(on: state.tab)), in: parts[3])
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

    /// Every machine: label, state, visit, last event, stale and invalid counts, missed records, live or not.
    static func machinesView(_ state: InspectScreenState, in area: Rect, on canvas: inout Canvas) {
        let machines = state.program.machines
        guard !machines.isEmpty else {
            Line(state.programExited ? "No machines." : "Waiting for the program's machines…", style: .dim)
                .render(in: area.row(0), on: &canvas)
            return
        }
        let wide = area.width >= 100
        var columns = [
            TableColumn("machine", width: .fill(2)), TableColumn("state", width: .fill(3)),
            TableColumn("visit", width: .fixed(5), alignment: .right), TableColumn("last event", width: .fill(2)),
            TableColumn("stale", width: .fixed(5), alignment: .right),
            TableColumn("inval", width: .fixed(5), alignment: .right),
        ]
        if wide { columns.append(TableColumn("missed", width: .fixed(6), alignment: .right)) }
        columns.append(TableColumn("", width: .fixed(7)))
        let rows = machines.map { machine in
            var cells = [
                Line(machine.label), Line(machine.state), Line("\(machine.visit)"), Line(machine.lastEvent ?? "—"),
                Line("\(machine.staleCount)"), Line("\(machine.invalidCount)"),
            ]
            if wide { cells.append(Line("\(machine.missed)")) }
            cells.append(machineStatus(machine, programExited: state.programExited))
            return cells
        }
        let selected = machines.firstIndex { $0.id == state.machine }
        let offset = max(0, (selected ?? 0) - (area.height - 2))
        Table(columns: columns, rows: rows, selected: selected, offset: offset).render(in: area, on: &canvas)
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
        let follow = state.record == nil ? "following newest" : "travelled back · end follows newest"
        Line([
            Span("Machine ", style: .bold), Span(" \(machine.label) ", style: .reverse),
            Span(" \(machine.records.count) records · \(machine.missed) missed · \(follow)", style: .dim),
        ]).render(in: area.row(0), on: &canvas)
        guard let selected = state.selectedRecord else {
            Line("No events yet.").render(in: area.row(1), on: &canvas)
            return
        }
        let changes = StateChange.lines(from: selected.before, to: selected.after)
        let detail =
            [
                Line(
                    [Span("#\(selected.sequence) visit \(selected.visit) ", style: .bold), Span(selected.outcome)]
                        + (selected.reason.map { [Span(": \($0)", style: .reverse)] } ?? [])),
                Line([Span("before ", style: .dim), Span(selected.before)]),
                Line([Span("event  ", style: .dim), Span(selected.event, style: .bold)]),
                Line([Span("after  ", style: .dim), Span(selected.after)]),
                Line("changed", style: .dim),
            ] + (changes.isEmpty ? [Line("  nothing", style: .dim)] : changes.map { Line("  " + $0) })
        let detailHeight = min(detail.count, max(0, (area.height - 1) / 2))
        let list = Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1 - detailHeight)
        let records = machine.records
        let index = records.firstIndex { $0.sequence == selected.sequence } ?? records.count - 1
        let visible = max(1, list.height - 1)
        let first = max(0, min(index - visible / 2, records.count - visible))
        let rows = records.map { record in
            [
                Line("\(record.sequence)"), Line("\(record.visit)"), Line(record.event), Line(record.outcome),
                Line(record.after),
            ]
        }
        let columns = [
            TableColumn("#", width: .fixed(5), alignment: .right),
            TableColumn("visit", width: .fixed(5), alignment: .right),
            TableColumn("event", width: .fill(2)), TableColumn("outcome", width: .fixed(8)),
            TableColumn("state after", width: .fill(3)),
        ]
        Table(columns: columns, rows: rows, selected: index, offset: first).render(in: list, on: &canvas)
        let detailArea = Rect(x: area.x, y: list.y + list.height, width: area.width, height: detailHeight)
        Paragraph(Array(detail.prefix(detailHeight))).render(in: detailArea, on: &canvas)
    }

    /// The diagram of the selected machine's graph (explored, else learned), laid out once per graph.
    static func graphLayout(_ state: InspectScreenState) -> DiagramLayout {
        guard let graph = state.selectedMachine?.graph else { return DiagramLayout(DiagramGraph(nodes: [], edges: [])) }
        return DiagramLayout(diagramGraph(graph))
    }

    /// The protocol's graph as the diagram layout's input: states as boxes, edges labelled with their events.
    static func diagramGraph(_ graph: InspectorGraph) -> DiagramGraph {
        var index: [String: Int] = [:]
        for (position, name) in graph.states.enumerated() where index[name] == nil { index[name] = position }
        let edges = graph.edges.compactMap { edge -> DiagramGraph.Edge? in
            guard let from = index[edge.from], let to = index[edge.to] else { return nil }
            return DiagramGraph.Edge(from: from, to: to, label: edge.event)
        }
        return DiagramGraph(nodes: graph.states, edges: edges, initial: graph.states.isEmpty ? nil : 0)
    }

    /// The selected machine's graph, its current state lit and the last transition highlighted, pannable.
    static func graphView(_ state: InspectScreenState, in area: Rect, on canvas: inout Canvas) {
        guard let machine = state.selectedMachine else {
            Line("No machine yet.", style: .dim).render(in: area.row(0), on: &canvas)
            return
        }
        let graph = machine.graph
        let source = machine.explored == nil ? "learned from \(graph.edges.count) transitions seen" : "explored"
        Line([
            Span("Machine ", style: .bold), Span(" \(machine.label) ", style: .reverse),
            Span(" \(source)" + (graph.truncated ? " (truncated)" : "") + " · now "),
            Span(machine.state, style: GraphFeature.liveStyle),
        ]).render(in: area.row(0), on: &canvas)
        let diagram = diagramGraph(graph)
        let layout = DiagramLayout(diagram)
        let live = diagram.node(named: machine.state).map { Set([$0]) } ?? []
        var last = Set<Int>()
        if let record = machine.records.last, let from = diagram.node(named: record.before),
            let to = diagram.node(named: record.after)
        {
            last = Set(diagram.edges(from: from, to: to).filter { diagram.edges[$0].label == record.event })
        }
        GraphFeature.draw(
            layout, live: live, lastEdges: last, top: state.graphOffset, left: state.graphColumn,
            in: area.inset(top: 1), on: &canvas)
    }
}
