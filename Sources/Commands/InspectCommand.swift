import DashboardApp
import FileTransfer
import InspectApp
import StateMachineInspector
import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `statetui inspect [NAME|PID|SOCKET] [--headless]`: lists the programs whose machines can be inspected,
/// or follows one program's machines live.
package enum InspectCommand {
    /// The declaration behind parsing and help.
    package static let spec = CommandSpec(
        name: "inspect",
        abstract: "List the inspectable programs, or follow one program's machines live.",
        arguments: [
            .init(
                name: "target", help: "A program: its name, its pid, or the path of its socket. Omitted: list them.",
                isOptional: true)
        ],
        flags: [
            .init(
                name: "headless",
                help: "Print one JSON line per change (the protocol's messages) until the program exits.")
        ],
        discussion: """
            A program becomes inspectable by starting StateMachineInspector's Inspector and registering its
            machines (statetui --inspectable and statetui copy --inspectable do). Each one listens on a Unix
            socket in a private per-user directory: $XDG_RUNTIME_DIR/statetui/NAME.PID.sock, else
            /tmp/statetui-UID/. The directory must be the user's own with mode 0700; the peer's uid is checked
            on both ends. Sockets of programs that no longer run are removed when the programs are listed.

            Without a target, one line per program: name, pid, machines and since when it is inspectable.
            With a target, the inspect screens: 1 Machines (every machine: state, visit, last event, stale and
            invalid counts, live or stopped; ↑/↓ select, enter opens its history), 2 History (the selected
            machine's records; ↑/↓/pgup/pgdn/home travel back to a record to see the state before, the event,
            the state after and what changed; end follows the newest again), 3 Graph (the graph the program
            explored from sample events, else the one learned from the transitions seen so far, the current
            state lit; arrows and h/l pan). ←/→ select another machine on History and Graph; tab cycles the
            screens; q quits. When the program exits the screens say "program exited" and keep the last picture.
            With a target and --headless, every message the program sends is printed as one JSON line (hello,
            machine, state, record, missed, stopped, bye), until the program exits or stops inspection.
            Exit status: 0 when the program exited (said bye or closed the connection), 1 when its messages
            could not be read, 2 for an unknown or ambiguous name, a path that is not a socket, a socket
            nobody listens on or one that belongs to another user.
            """)

    /// Runs the parsed command; `environment` decides the socket directory (`XDG_RUNTIME_DIR`).
    static func run(_ command: ParsedCommand, io: CommandIO, environment: [String: String]) throws(UsageError)
        -> Int32
    {
        let directory = InspectorDirectory.path(environment: environment)
        guard let target = command.arguments["target"] else { return list(directory: directory, io: io) }
        let socketPath: String
        let connection: InspectorConnection
        do {
            socketPath = try InspectorDiscovery.resolve(target, directory: directory)
            connection = try InspectorConnection(socketPath: socketPath)
        } catch {
            io.writeError("statetui: inspect: \(error)\n")
            return 2
        }
        guard command.flags.contains("headless") else {
            // The screens open their own connection; this one only proved the program is there and ours.
            connection.close()
            return screens(socketPath: socketPath, io: io, environment: environment)
        }
        defer { connection.close() }
        return follow(connection, io: io)
    }

    /// Opens the terminal on the inspect screens of the program at `socketPath` until `q` (0) or Ctrl-C (130);
    /// the screens keep the last picture when the program exits. 2 when the terminal cannot be used.
    static func screens(socketPath: String, io: CommandIO, environment: [String: String]) -> Int32 {
        // The keys of the usual configuration file (`[keys]`), as the dashboard reads them.
        let config: DashboardConfig
        do {
            config = try ConfigFile.load(explicit: nil, io: io, environment: environment)
        } catch {
            io.writeError("statetui: \(error)\n")
            return 2
        }
        let terminal: NCursesTerminal
        do {
            terminal = try NCursesTerminal(environment: environment)
        } catch {
            io.writeError("statetui: \(error)\n")
            return 2
        }
        let final = InspectFeature.app(socketPath: socketPath, keys: config.keys).run(on: terminal)
        terminal.restore()
        return final.exit?.status ?? 0
    }

    /// Prints every message of `connection` as a JSON line, flushed at once, until the program closes it.
    static func follow(_ connection: InspectorConnection, io: CommandIO) -> Int32 {
        do {
            while let message = try connection.next() {
                io.writeOutput(message.line() + "\n")
                io.flushOutput()
            }
            return 0
        } catch {
            io.writeError("statetui: inspect: \(error)\n")
            return 1
        }
    }

    /// The table of inspectable programs in `directory` (none is not an error).
    static func list(directory: String, io: CommandIO) -> Int32 {
        let programs = InspectorDiscovery.list(directory: directory)
        guard !programs.isEmpty else {
            io.writeOutput("no inspectable programs (\(directory))\n")
            return 0
        }
        io.writeOutput(table(programs))
        return 0
    }

    /// `NAME  PID  MACHINES  SINCE`, one row per program; `?` for a program that did not answer.
    package static func table(_ programs: [InspectableProcess]) -> String {
        var rows = [["NAME", "PID", "MACHINES", "SINCE"]]
        for program in programs {
            let machines = program.machines.map { String($0) } ?? "?"
            let since = program.started.map { DisplayText.escaped($0) } ?? "?"
            rows.append([DisplayText.escaped(program.name), String(program.pid), machines, since])
        }
        var widths = [0, 0, 0]
        for row in rows {
            for column in 0..<3 { widths[column] = max(widths[column], row[column].count) }
        }
        var text = ""
        for row in rows {
            for column in 0..<3 {
                text += row[column].padded(to: widths[column] + 2)
            }
            text += row[3] + "\n"
        }
        return text
    }
}
