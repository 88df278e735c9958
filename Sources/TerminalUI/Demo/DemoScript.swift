import Support

/// A parsed `.demo` file: one step a line — a key name (`r`, `space`, `tab`, `ctrl-c`, `up`, `f5`), a pause
/// (`sleep 300ms`, `sleep 1.5s`, `sleep 60m`, `sleep 24h`) or a check on the screen (`expect /regex/`). Blank lines and lines starting
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

        /// The step as written.
        public var description: String { text }
    }

    /// The file the script came from, as errors name it.
    public var file: String
    /// The steps, in order.
    public var steps: [Step]

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
            switch parseDuration(amount) {
            case .success(let duration): return .sleep(duration)
            case .failure(let problem): throw fail("\(quoted(line)): \(problem.message)")
            }
        }
        if line == "expect" || line.hasPrefix("expect ") {
            let pattern = String(line.dropFirst(6)).trimmingSpaces
            guard pattern.count >= 2, pattern.hasPrefix("/"), pattern.hasSuffix("/") else {
                throw fail("\(quoted(line)): expect needs a regular expression between slashes, e.g. expect /Upload/")
            }
            let body = String(pattern.dropFirst().dropLast())
            guard !body.isEmpty else { throw fail("\(quoted(line)): the regular expression is empty") }
            do {
                _ = try ScreenPattern(body)
            } catch {
                throw fail("\(quoted(line)): invalid regular expression \(error)")
            }
            return .expect(body)
        }
        guard let key = Key(name: line) else {
            throw fail(
                "unknown step \(quoted(line)): expected a key name (q, space, tab, shift-tab, enter, up, ctrl-c, f5 …), "
                    + "'sleep 300ms' or 'expect /regex/'")
        }
        return .key(key)
    }

    /// The longest sleep: a year of simulated time.
    static let maximumSleep = Duration.seconds(365 * 24 * 3600)

    /// Why a sleep's duration was refused.
    struct DurationProblem: Error, Hashable {
        var message: String
    }

    /// A number (`300`, `1.5`) and a unit (`ms`, `s`, `m`, `h`) as a duration of at most ``maximumSleep``,
    /// exact to the nanosecond; why not otherwise.
    static func parseDuration(_ text: String) -> Result<Duration, DurationProblem> {
        let form = "sleep needs a duration: a number and a unit (ms, s, m or h), e.g. 300ms, 1.5s, 60m or 24h"
        let units: [(suffix: String, nanoseconds: Int)] = [
            ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
        ]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else {
            return .failure(DurationProblem(message: form))
        }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = parts.map { $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }
        guard !parts[0].isEmpty, !digits.contains(false), parts.count == 1 || !parts[1].isEmpty else {
            return .failure(DurationProblem(message: form))
        }
        let limit = Int(maximumSleep.components.seconds) * 1_000_000_000
        let tooLong = DurationProblem(message: "a sleep is at most 8760h (365 days of simulated time)")
        // Whole units first, refusing before anything could overflow.
        guard parts[0].count <= 18, let whole = Int(parts[0]), whole <= limit / unit.nanoseconds else {
            return .failure(tooLong)
        }
        var nanoseconds = whole * unit.nanoseconds
        if parts.count == 2 {
            // At most nine fraction digits count: a unit is at most 3.6e12 ns, so the tenth is far below 1 ns.
            let fraction = parts[1].prefix(9)
            guard let value = Int(fraction) else { return .failure(DurationProblem(message: form)) }
            var scale = 1
            for _ in 0..<fraction.count { scale *= 10 }
            nanoseconds += Int((Double(value) / Double(scale) * Double(unit.nanoseconds)).rounded())
        }
        guard nanoseconds <= limit else { return .failure(tooLong) }
        return .success(.nanoseconds(nanoseconds))
    }

    /// A line as a message quotes it: in single quotes, at most 200 characters of it.
    private static func quoted(_ line: String) -> String {
        "'" + Excerpt.of(line) + "'"
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
