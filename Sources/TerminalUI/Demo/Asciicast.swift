import Foundation
import Support

/// An asciicast v2 recording (what asciinema plays): a JSON header line with the version, width, height and
/// timestamp, then one `[time, "o", data]` line per output event.
public struct Asciicast: Hashable, Sendable {
    /// One output event: seconds since the start and the bytes written to the terminal.
    public struct Event: Hashable, Sendable {
        /// Seconds since the recording started.
        public var time: Double
        /// What the terminal received.
        public var data: String

        /// An event.
        public init(time: Double, data: String) {
            self.time = time
            self.data = data
        }
    }

    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// When the recording was made, seconds since 1970.
    public var timestamp: Int
    /// The title shown by players.
    public var title: String
    /// The output events, in time order.
    public var events: [Event]

    /// A recording with no events yet.
    public init(width: Int, height: Int, timestamp: Int, title: String, events: [Event] = []) {
        self.width = width
        self.height = height
        self.timestamp = timestamp
        self.title = title
        self.events = events
    }

    /// The file's text: the header line, then the events, each line ended by a newline.
    public var text: String {
        var lines = [
            "{\"version\": 2, \"width\": \(width), \"height\": \(height), \"timestamp\": \(timestamp), \"title\": \(Self.quoted(title))}"
        ]
        for event in events {
            lines.append("[\(String(format: "%.3f", event.time)), \"o\", \(Self.quoted(event.data))]")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `text` as a JSON string literal (control characters escaped).
    static func quoted(_ text: String) -> String {
        QuotedLiteral.quoted(text) { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? String(format: "\\u%04x", scalar.value) : nil
        }
    }

    /// Why a text is not an asciicast v2 recording.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// What is wrong.
        public var message: String

        /// `line N: message`.
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses an asciicast v2 file (header and `"o"` events; other event types are skipped).
    public init(parsing text: String) throws(ParseError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { throw ParseError(line: 1, message: "empty file, no header") }
        guard let header = try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any] else {
            throw ParseError(line: 1, message: "the header is not a JSON object")
        }
        guard header["version"] as? Int == 2 else { throw ParseError(line: 1, message: "version is not 2") }
        guard let width = header["width"] as? Int, let height = header["height"] as? Int, width > 0, height > 0 else {
            throw ParseError(line: 1, message: "width and height must be positive integers")
        }
        self.init(
            width: width, height: height, timestamp: header["timestamp"] as? Int ?? 0,
            title: header["title"] as? String ?? "")
        var previous = 0.0
        for (index, line) in lines.enumerated().dropFirst() {
            guard let array = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], array.count == 3,
                let time = (array[0] as? NSNumber)?.doubleValue, let type = array[1] as? String,
                let data = array[2] as? String
            else {
                throw ParseError(line: index + 1, message: "an event must be [time, type, data]")
            }
            guard time >= previous else { throw ParseError(line: index + 1, message: "time goes backwards") }
            previous = time
            if type == "o" { events.append(Event(time: time, data: data)) }
        }
    }
}
