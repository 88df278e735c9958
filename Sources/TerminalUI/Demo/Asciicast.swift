import Support

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            lines.append("[\(Self.seconds(event.time)), \"o\", \(Self.quoted(event.data))]")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `text` as a JSON string literal (control characters escaped).
    static func quoted(_ text: String) -> String {
        QuotedLiteral.quoted(text) { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? QuotedLiteral.jsonEscape(scalar) : nil
        }
    }

    /// Seconds with three decimals, as `%.3f` prints them (`1.5` is `1.500`), for times from 0 on.
    static func seconds(_ time: Double) -> String {
        let milliseconds = Int((max(0, time) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// A JSON value of a recording's lines as far as the format needs it: a number, a string, or anything else.
    private enum Value: Decodable {
        case number(Double, exact: Int?)
        case string(String)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int.self) {
                self = .number(Double(integer), exact: integer)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number, exact: nil)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else {
                self = .other
            }
        }

        var integer: Int? { if case .number(_, let exact) = self { exact } else { nil } }
        var number: Double? { if case .number(let number, _) = self { number } else { nil } }
        var text: String? { if case .string(let text) = self { text } else { nil } }
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
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode([String: Value].self, from: Data(first.utf8)) else {
            throw ParseError(line: 1, message: "the header is not a JSON object")
        }
        guard header["version"]?.integer == 2 else { throw ParseError(line: 1, message: "version is not 2") }
        guard let width = header["width"]?.integer, let height = header["height"]?.integer, width > 0, height > 0
        else {
            throw ParseError(line: 1, message: "width and height must be positive integers")
        }
        self.init(
            width: width, height: height, timestamp: header["timestamp"]?.integer ?? 0,
            title: header["title"]?.text ?? "")
        var previous = 0.0
        for (index, line) in lines.enumerated().dropFirst() {
            guard let array = try? decoder.decode([Value].self, from: Data(line.utf8)), array.count == 3,
                let time = array[0].number, let type = array[1].text, let data = array[2].text
            else {
                throw ParseError(line: index + 1, message: "an event must be [time, type, data]")
            }
            guard time >= previous else { throw ParseError(line: index + 1, message: "time goes backwards") }
            previous = time
            if type == "o" { events.append(Event(time: time, data: data)) }
        }
    }
}
