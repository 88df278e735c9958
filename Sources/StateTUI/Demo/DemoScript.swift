import TerminalUI

/// A parsed `.demo` file: one step a line — a key name (`r`, `space`, `tab`, `ctrl-c`, `up`, `f5`), a pause
/// (`sleep 300ms`, `sleep 2s`) or a check on the screen (`expect /regex/`). Blank lines and lines starting
/// with `#` are skipped.
public struct DemoScript: Hashable, Sendable {
    /// One step of a demo.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        /// What the step does.
        public enum Kind: Hashable, Sendable {
            /// Press this key.
            case key(Key)
            /// Let this much (simulated) time pass.
            case sleep(Duration)
            /// The screen must match this regular expression somewhere.
            case expect(String)
        }

        /// The line the step is on, from 1.
        public var line: Int
        /// What it does.
        public var kind: Kind
        /// The step as written (trimmed), as frame headers and errors print it.
        public var text: String

        /// A step.
        public init(line: Int, kind: Kind, text: String) {
            self.line = line
            self.kind = kind
            self.text = text
        }

        /// The step as written.
        public var description: String { text }
    }

    /// The file the script came from, as errors name it.
    public var file: String
    /// The steps, in order.
    public var steps: [Step]

    /// A script from its steps.
    public init(file: String, steps: [Step]) {
        self.file = file
        self.steps = steps
    }

    /// Parses a demo file's text; throws at the first line that is not a step, naming file, line and cause.
    public static func parse(_ text: String, file: String) throws(DemoScriptError) -> DemoScript {
        var steps: [Step] = []
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let number = index + 1
            steps.append(Step(line: number, kind: try kind(of: line, file: file, line: number), text: line))
        }
        return DemoScript(file: file, steps: steps)
    }

    private static func kind(of line: String, file: String, line number: Int) throws(DemoScriptError) -> Step.Kind {
        func fail(_ message: String) -> DemoScriptError { DemoScriptError(file: file, line: number, message: message) }
        if line == "sleep" || line.hasPrefix("sleep ") {
            let amount = String(line.dropFirst(5)).trimmingSpaces
            guard let duration = parseDuration(amount) else {
                throw fail("'\(line)': sleep needs a duration such as 300ms or 2s")
            }
            return .sleep(duration)
        }
        if line == "expect" || line.hasPrefix("expect ") {
            let pattern = String(line.dropFirst(6)).trimmingSpaces
            guard pattern.count >= 2, pattern.hasPrefix("/"), pattern.hasSuffix("/") else {
                throw fail("'\(line)': expect needs a regular expression between slashes, e.g. expect /Upload/")
            }
            let body = String(pattern.dropFirst().dropLast())
            guard !body.isEmpty else { throw fail("'\(line)': the regular expression is empty") }
            do {
                _ = try Regex(body)
            } catch {
                throw fail("'\(line)': invalid regular expression: \(error)")
            }
            return .expect(body)
        }
        guard let key = Key(name: line) else {
            throw fail(
                "unknown step '\(line)': expected a key name (q, space, tab, shift-tab, enter, up, ctrl-c, f5 …), "
                    + "'sleep 300ms' or 'expect /regex/'")
        }
        return .key(key)
    }

    /// `300ms` or `2s` (whole numbers) as a duration; nil otherwise.
    static func parseDuration(_ text: String) -> Duration? {
        if text.hasSuffix("ms"), let value = Int(text.dropLast(2)), value >= 0 { return .milliseconds(value) }
        if text.hasSuffix("s"), let value = Int(text.dropLast(1)), value >= 0 { return .seconds(value) }
        return nil
    }
}

/// A demo file with a line that is not a step; printed `FILE:LINE: message`.
public struct DemoScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// An error at `file`:`line`.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`.
    public var description: String { "\(file):\(line): \(message)" }
}

extension String {
    /// The text without surrounding spaces, tabs or a carriage return.
    fileprivate var trimmingSpaces: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
