// Renderings of a StateGraph: Mermaid, Graphviz and a transition table. States and events print with
// `String(describing:)`, their canonical text. Node ids are positions (`s0`, `s1`, …) so any text is safe
// as a label; the text itself is escaped for each format.

extension StateGraph {
    /// A Mermaid `stateDiagram-v2` of the graph, with `[*] --> initial`.
    ///
    /// States are declared as `s<position> : <description>` in discovery order, then one line per edge
    /// in (state, event) order; an `.update` edge's label ends in `(update)`, a `.postpone` edge's (explored
    /// with a queue) in `(postpone)`. A truncated graph ends in
    /// a `%%` comment saying so.
    public var mermaid: String {
        var lines = ["stateDiagram-v2", "    [*] --> s0"]
        for (position, state) in states.enumerated() {
            let label = DiagramText.mermaid(String(describing: state))
            lines.append(label.isEmpty ? "    s\(position)" : "    s\(position) : \(label)")
        }
        forEachEdge { from, event, to, kind in
            var label = DiagramText.mermaid(String(describing: events[event]))
            switch kind {
            case .to: break
            case .update: label += " (update)"
            case .postpone: label += " (postpone)"
            }
            lines.append(label.isEmpty ? "    s\(from) --> s\(to)" : "    s\(from) --> s\(to) : \(label)")
        }
        if isTruncated {
            lines.append("    %% truncated at \(states.count) states")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Graphviz `digraph` of the graph: a point for the start, a node per state, an edge per transition.
    ///
    /// `.update` edges are dashed, `.postpone` edges dotted. Labels are quoted and escaped, so any
    /// description is valid DOT.
    public var dot: String {
        var lines = [
            "digraph StateGraph {",
            "    rankdir=LR;",
            "    node [shape=box, style=rounded];",
            "    start [shape=point];",
        ]
        for (position, state) in states.enumerated() {
            lines.append("    s\(position) [label=\(DiagramText.dotQuoted(String(describing: state)))];")
        }
        lines.append("    start -> s0;")
        forEachEdge { from, event, to, kind in
            let label = DiagramText.dotQuoted(String(describing: events[event]))
            switch kind {
            case .to: lines.append("    s\(from) -> s\(to) [label=\(label)];")
            case .update: lines.append("    s\(from) -> s\(to) [label=\(label), style=dashed];")
            case .postpone: lines.append("    s\(from) -> s\(to) [label=\(label), style=dotted];")
            }
        }
        if isTruncated {
            lines.append("    // truncated at \(states.count) states")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A state × event grid as a Markdown table: the next state for `.to` and `.update`, `=` for
    /// `.stay`, `·` for `.ignore`, `!` for `.invalid`, `~` for a `.postpone` that names no node (explored
    /// without a queue, or past `postponeLimit`), and `?` for a target beyond a truncated search.
    ///
    /// Rows are states in discovery order, columns events in the order explored; columns are padded
    /// so the plain text lines up.
    public var transitionTable: String {
        var rows: [[String]] = [["state"] + events.map { DiagramText.tableCell(String(describing: $0)) }]
        let width = events.count
        let descriptions = states.map { DiagramText.tableCell(String(describing: $0)) }
        for position in states.indices {
            var row = [descriptions[position]]
            for event in 0..<width {
                let cell = position * width + event
                switch verdict(ofCell: cell) {
                case .to, .update:
                    let target = Int(target(ofCell: cell))
                    row.append(target >= 0 ? descriptions[target] : "?")
                case .postpone:
                    // Without a queue (or past postponeLimit) a postponement names no node.
                    let target = target(ofCell: cell)
                    row.append(target >= 0 ? descriptions[Int(target)] : target == Self.beyondLimit ? "?" : "~")
                case .stay: row.append("=")
                case .ignore: row.append("·")
                case .invalid: row.append("!")
                }
            }
            rows.append(row)
        }
        var columnWidths = [Int](repeating: 0, count: width + 1)
        for row in rows {
            for (column, text) in row.enumerated() {
                columnWidths[column] = Swift.max(columnWidths[column], text.count)
            }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, text in
                text + String(repeating: " ", count: columnWidths[column] - text.count)
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        var lines = [line(rows[0])]
        lines.append(
            "| " + columnWidths.map { String(repeating: "-", count: Swift.max($0, 1)) }.joined(separator: " | ") + " |")
        lines.append(contentsOf: rows.dropFirst().map(line))
        if isTruncated {
            lines.append("")
            lines.append("truncated at \(states.count) states")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Escaping of arbitrary descriptions for the formats a graph renders to.
enum DiagramText {
    /// Text safe after `:` in a Mermaid state or transition line.
    ///
    /// Mermaid's state diagram ends a description at `#`, `;` or a newline and passes the rest to HTML,
    /// so those and the HTML-significant characters become Mermaid entity codes (`#59;`, `#quot;` …).
    static func mermaid(_ text: String) -> String {
        escaped(text) { scalar in
            switch scalar {
            case "#": "#35;"
            case ";": "#59;"
            case "\"": "#quot;"
            case "<": "#lt;"
            case ">": "#gt;"
            case "&": "#amp;"
            case _ where isControl(scalar): "#\(scalar.value);"
            default: nil
            }
        }
    }

    /// A Graphviz double-quoted string holding `text` exactly.
    ///
    /// Backslashes are doubled (so `\n` in the text is not read as a Graphviz line break), quotes are
    /// escaped, and control characters print in Swift escape form rather than breaking the file.
    static func dotQuoted(_ text: String) -> String {
        let body = escaped(text) { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\\\n"
            case "\r": "\\\\r"
            case "\t": "\\\\t"
            case _ where isControl(scalar): "\\\\u{\(String(scalar.value, radix: 16))}"
            default: nil
            }
        }
        return "\"" + body + "\""
    }

    /// Text for one cell of a Markdown table: `|` escaped, control characters in Swift escape form.
    static func tableCell(_ text: String) -> String {
        escaped(text) { scalar in
            switch scalar {
            case "|": "\\|"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where isControl(scalar): "\\u{\(String(scalar.value, radix: 16))}"
            default: nil
            }
        }
    }

    /// `text` with every scalar `replacement` has a replacement for replaced, the others kept: the one loop
    /// behind each format's escaping.
    private static func escaped(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A C0 control character or DEL, which no format may hold raw.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }
}
