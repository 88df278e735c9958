import FileTransfer
import SeedModels

/// Which changes of a transfer's state deserve a line of headless output, and how the line reads.
///
/// A line is printed when the phase changes (idle, running, paused, completed, failed), when a new
/// request starts, and when running progress crosses a multiple of `step` percent; every other change
/// is dropped, so a 1 GiB copy prints a dozen lines, not one per chunk. Pure, so it is tested alone.
package struct ProgressLines: Hashable, Sendable {
    /// The percent interval between progress lines.
    package var step: Int

    /// Lines every `step` percent (10 by default).
    package init(step: Int = 10) {
        precondition(step > 0, "the progress step must be positive")
        self.step = step
    }

    /// The least time between two total lines: one second.
    package static let totalInterval = Duration.seconds(1)

    /// Whether a total line is due `at` this time since the copy started, the last one printed at
    /// `lastPrinted` (nil: none yet, the first is due a ``totalInterval`` after the start).
    package func isTotalDue(at elapsed: Duration, lastPrinted: Duration?) -> Bool {
        elapsed - (lastPrinted ?? .zero) >= Self.totalInterval
    }

    /// Whether `state` is worth a line, given the state last printed (nil: nothing printed yet).
    ///
    /// A running state is worth one only once the transfer is copying (its job found bytes to move), and only at
    /// or past the percent it began `copyingFrom` (nil: not yet): until then it may still wait for a slot or find
    /// its file already there, and a file a rerun skips says only that it was skipped, never first that it ran;
    /// and a resumed file's start, recorded at 0% before its first progress, is not a percent it copied at.
    package func isWorthReporting(
        _ state: TransferState, after previous: TransferState?, copyingFrom: Int? = 0
    ) -> Bool {
        if case .running(_, let percent) = state {
            guard let copyingFrom, percent >= copyingFrom else { return false }
        }
        guard let previous else { return true }
        switch (previous, state) {
        case (.running(let oldRequest, let oldPercent), .running(let request, let percent)):
            return oldRequest != request || oldPercent / step != percent / step
        case (.paused(let oldRequest, _), .paused(let request, _)):
            return oldRequest != request
        case (.idle, .idle):
            return false
        case (.completed(let oldFile), .completed(let file)):
            return oldFile != file
        case (.failed(let oldMessage), .failed(let message)):
            return oldMessage != message
        case (.idle, _), (.running, _), (.paused, _), (.completed, _), (.failed, _):
            return true
        }
    }

    /// `NAME: STATE` with the state in canonical text, e.g. `a.bin: running(request: 1, percent: 40)`;
    /// control characters in the name are escaped (a name `two\nlines` prints as `two\\nlines`), so
    /// the line is always one line.
    ///
    /// A completed transfer that found its file `alreadyThere` (the reason) says so instead:
    /// `a.bin: skipped (same size and time)`.
    ///
    /// The path of a completed file and the message of a failed one are quoted as the name is escaped
    /// (``DisplayText/quoted(_:)``): a byte of a name that is not UTF-8 reads `\xFF` in both.
    package static func line(name: String, state: TransferState, alreadyThere: String? = nil) -> String {
        let shown = DisplayText.escaped(name)
        if case .completed = state, let alreadyThere { return "\(shown): skipped (\(alreadyThere))" }
        switch state {
        case .completed(let file):
            return quoting(file, after: shown, ": completed(file: ")
        case .failed(let message):
            return quoting(message, after: shown, ": failed(message: ")
        case .idle, .running, .paused:
            return "\(shown): \(state)"
        }
    }

    /// `shown`, `label`, `text` quoted and a closing parenthesis, made in one string grown once (a line a file of a
    /// tree copy). The label is a string literal, whose storage is the program's own: a `StaticString` label made a
    /// string of it for each line (one allocation a file).
    private static func quoting(_ text: String, after shown: String, _ label: String) -> String {
        var line = ""
        line.reserveCapacity(shown.utf8.count + label.utf8.count + text.utf8.count + 3)
        line += shown
        line += label
        DisplayText.appendQuoted(text, to: &line)
        line += ")"
        return line
    }
}
