import SeedModels

/// `statetui replay transfer|upload|load [FILE]`: applies one event per line through the model's
/// machine and prints the verdict and the state after each.
package enum ReplayCommand {
    /// The declaration behind parsing and help.
    package static let spec = CommandSpec(
        name: "replay",
        abstract: "Apply events, one per line, through a model's machine and print each verdict and state.",
        arguments: [
            .init(name: "model", help: "The model to drive.", allowedValues: ScreenModel.allCases.map(\.rawValue)),
            .init(
                name: "file", help: "Read events from this file; without it, or with -, from standard input.",
                isOptional: true, completion: .files),
        ],
        discussion: """
            Each line holds one event (transfer, upload) or action (load) in canonical text; blank lines and
            lines starting with # are skipped. For every event it prints the verdict (to, update, stay, ignore,
            invalid, postpone), one space, and the state after it:
              update running(request: 1, percent: 20)
            A line that is not an event stops the run with 'statetui: line N: …' on standard error, naming the
            accepted forms, and exit status 2; the lines before it are already printed.

            ACCEPTED FORMS:
            \(ScreenModel.allCases.map { "  \($0.rawValue): " + $0.inputForms.joined(separator: ", ") }
                .joined(separator: "\n"))
            """)

    /// Runs a replay of `model` over `lines` (line terminators already removed), writing results
    /// to `io`. Returns the exit status: 0, or 2 at the first line that does not parse or cannot be read.
    package static func run(model: ScreenModel, lines: () -> String?, io: CommandIO) -> Int32 {
        run(model: model, replayer: model.makeReplayer(), source: { lines().map { .success($0) } }, io: io)
    }

    /// ``run(model:lines:io:)`` through a given replayer for `model`'s events, so another machine for the
    /// same model (a `@StateMachine` rewrite) can be held to exactly the output `statetui replay` prints.
    package static func run(model: ScreenModel, replayer: Replayer, lines: () -> String?, io: CommandIO) -> Int32 {
        run(model: model, replayer: replayer, source: { lines().map { .success($0) } }, io: io)
    }

    /// The replay over a source whose lines may fail to be read (too long, not UTF-8): such a line stops
    /// the run like one that does not parse, its message naming `sourceName` (the file) and the line.
    static func run(
        model: ScreenModel, replayer: Replayer, source: CommandIO.Lines, sourceName: String = "standard input",
        io: CommandIO
    ) -> Int32 {
        var number = 0
        // The line last printed, kept with the step it says: a run of steps alike (`yes start`) prints the same
        // text again rather than building it once a line.
        var printed: (step: Replayer.Step, line: String)?
        while let next = source() {
            number += 1
            let raw: String
            switch next {
            case .success(let line): raw = line
            case .failure(let failure):
                io.writeError("statetui: \(sourceName): line \(number): \(failure.message)\n")
                return 2
            }
            let line = trimmed(raw)
            if line.isEmpty || line.utf8.first == UInt8(ascii: "#") { continue }
            do {
                let step = try replayer.apply(line)
                if printed?.step != step { printed = (step, "\(step)\n") }
                io.writeOutput(printed?.line ?? "")
            } catch {
                io.writeError(
                    "statetui: line \(number): \(error); \(Article.indefinite(model.inputName)) is one of: "
                        + model.inputForms.joined(separator: ", ") + "\n")
                return 2
            }
        }
        return 0
    }

    /// Runs the parsed command: from the named file, or from standard input, a bounded window at a time.
    static func run(_ command: ParsedCommand, io: CommandIO) -> Int32 {
        guard let model = command.arguments["model"].flatMap(ScreenModel.init(rawValue:)) else {
            preconditionFailure("Internal inconsistency: replay's spec admitted \(command)")
        }
        let path = command.arguments["file"].flatMap { $0 == "-" ? nil : $0 }
        switch io.openLines(path) {
        case .failure(let failure):
            io.writeError("statetui: \(CanonicalValue.excerpt(path ?? "-")): \(failure.message)\n")
            return 2
        case .success(let lines):
            return run(
                model: model, replayer: model.makeReplayer(), source: lines,
                sourceName: path.map { CanonicalValue.excerpt($0) } ?? "standard input", io: io)
        }
    }

    /// The line without surrounding spaces, tabs or a carriage return.
    static func trimmed(_ line: String) -> String {
        // Most lines have nothing to trim: they are kept as they are, without a copy.
        let isBlankByte: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        var bytes = line
        let untrimmed = bytes.withUTF8 { utf8 in
            guard let first = utf8.first, let last = utf8.last else { return false }
            return !isBlankByte(first) && !isBlankByte(last)
        }
        if untrimmed { return line }
        let scalars = line.unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
