import Support

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line of the inspector protocol: a JSON object with a `type` and that type's fields.
///
/// The server (``Inspector``) writes these, one per line, and the client (``InspectorConnection``) reads
/// them; both use this one definition. The first line of every connection is a ``hello(_:)`` carrying the
/// protocol ``InspectorMessage/version``. The article <doc:InspectorProtocol> shows every message.
public enum InspectorMessage: Sendable, Hashable, Codable {
    /// The first message: who the program is and how many ``machine(_:)`` messages follow at once.
    case hello(InspectorHello)
    /// A machine, as it is when the client attached or when it was registered later.
    case machine(InspectorMachine)
    /// A machine's new state after a `.to` or an `.update`.
    case state(InspectorState)
    /// One event as the machine handled it, in sequence order.
    case record(InspectorRecord)
    /// Records the machine's history ring overwrote before the inspector read them.
    case missed(InspectorMissed)
    /// A machine stopped or went away; no more messages name it.
    case stopped(InspectorStopped)
    /// The program stops inspection (``Inspector/stop()`` or exit); the connection ends after it.
    case bye
    /// The program ends this one connection (it has too many clients); the connection ends after it.
    case dropped(InspectorDropped)

    /// The protocol version this library speaks, sent in ``InspectorHello/version``.
    public static let version = 1

    private enum TypeKey: String, CodingKey {
        case type
    }

    /// The value of the `type` field of each message.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .machine: "machine"
        case .state: "state"
        case .record: "record"
        case .missed: "missed"
        case .stopped: "stopped"
        case .bye: "bye"
        case .dropped: "dropped"
        }
    }

    /// Decodes `{"type":…, …}`; an unknown type is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hello": self = .hello(try InspectorHello(from: decoder))
        case "machine": self = .machine(try InspectorMachine(from: decoder))
        case "state": self = .state(try InspectorState(from: decoder))
        case "record": self = .record(try InspectorRecord(from: decoder))
        case "missed": self = .missed(try InspectorMissed(from: decoder))
        case "stopped": self = .stopped(try InspectorStopped(from: decoder))
        case "bye": self = .bye
        case "dropped": self = .dropped(try InspectorDropped(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown message type \(type.prefix(40))")
        }
    }

    /// Encodes the `type` field and the payload's fields in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .hello(let payload): try payload.encode(to: encoder)
        case .machine(let payload): try payload.encode(to: encoder)
        case .state(let payload): try payload.encode(to: encoder)
        case .record(let payload): try payload.encode(to: encoder)
        case .missed(let payload): try payload.encode(to: encoder)
        case .stopped(let payload): try payload.encode(to: encoder)
        case .dropped(let payload): try payload.encode(to: encoder)
        case .bye: break
        }
    }

    /// The message as one JSON line without the newline, keys sorted.
    public func line() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, a number or an array of those: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { return #"{"type":"\#(type)"}"# }
        return Self.escapingTerminalControls(String(decoding: data, as: UTF8.self))
    }

    /// `json` with the characters a terminal may act on that JSON leaves as they are (DEL, the C1 controls
    /// such as CSI U+009B, the line and paragraph separators) written as `\u` escapes, so that a line printed
    /// by `statetui inspect --headless` is inert on any terminal; it decodes to the same message.
    static func escapingTerminalControls(_ json: String) -> String {
        let acts: (Unicode.Scalar) -> Bool = {
            (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
        }
        guard json.unicodeScalars.contains(where: acts) else { return json }
        var escaped = ""
        for scalar in json.unicodeScalars {
            if acts(scalar) {
                escaped += QuotedLiteral.jsonEscape(scalar)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Decodes one line (without its newline).
    public init(line: some StringProtocol) throws {
        self = try JSONDecoder().decode(InspectorMessage.self, from: Data(line.utf8))
    }
}

/// `hello`: the first message of every connection.
public struct InspectorHello: Sendable, Hashable, Codable {
    /// The protocol version (``InspectorMessage/version``).
    public var version: Int = InspectorMessage.version
    /// The name the program gave ``Inspector/start(name:directory:)``.
    public var program: String
    /// The program's process id.
    public var pid: Int
    /// When inspection started, ISO 8601 in UTC.
    public var started: String
    /// How many `machine` messages follow at once, one per registered machine.
    public var machines: Int
}

/// `machine`: a registered machine as it is now.
public struct InspectorMachine: Sendable, Hashable, Codable {
    /// The id the inspector gave the machine; later messages name it.
    public var id: Int
    /// The machine's label.
    public var label: String
    /// Its current state, described.
    public var state: String
    /// Its current visit.
    public var visit: Int
    /// The sequence number of its newest record when this was read; records after it follow.
    public var sequence: Int
    /// The graph explored from sample events, when the program gave some.
    public var graph: InspectorGraph?
}

/// A state graph in words: the states and the transitions between them.
public struct InspectorGraph: Sendable, Hashable, Codable {
    /// The states, the initial one first.
    public var states: [String]
    /// The transitions (`.to` and `.update`).
    public var edges: [InspectorEdge]
    /// Whether the exploration stopped at its state limit.
    public var truncated = false
}

/// One transition of an ``InspectorGraph``.
public struct InspectorEdge: Sendable, Hashable, Codable {
    /// The state it leaves.
    public var from: String
    /// The event.
    public var event: String
    /// The state it reaches.
    public var to: String
}

/// `state`: a machine's state changed.
public struct InspectorState: Sendable, Hashable, Codable {
    /// The machine's id.
    public var machine: Int
    /// The new state, described.
    public var state: String
    /// The visit it is in.
    public var visit: Int
}

/// `record`: one event as the machine handled it (an entry of its history).
public struct InspectorRecord: Sendable, Hashable, Codable {
    /// The machine's id.
    public var machine: Int
    /// The record's sequence number in its machine, from 1.
    public var sequence: Int
    /// The visit the event arrived in.
    public var visit: Int
    /// The state before, described.
    public var before: String
    /// The event, described.
    public var event: String
    /// The outcome: `moved`, `updated`, `stayed`, `ignored`, `invalid`, `stopped`, `stale`, `postponed`
    /// or `overflowed`.
    public var outcome: String
    /// Why the event was invalid, for outcome `invalid`.
    public var reason: String?
    /// The state after, described.
    public var after: String
}

/// `missed`: records overwritten in the machine's history before the inspector read them.
public struct InspectorMissed: Sendable, Hashable, Codable {
    /// The machine's id.
    public var machine: Int
    /// How many records were missed.
    public var count: Int
}

/// `stopped`: a machine stopped, or the program let it go.
public struct InspectorStopped: Sendable, Hashable, Codable {
    /// The machine's id.
    public var machine: Int
}

/// `dropped`: the program let this connection go, and why.
public struct InspectorDropped: Sendable, Hashable, Codable {
    /// Why, in words.
    public var reason: String

    /// A notice with its reason.
    public init(reason: String) {
        self.reason = reason
    }
}
