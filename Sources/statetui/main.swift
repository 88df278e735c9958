// Parsing and wiring only: every command lives in Commands and the dashboard in DashboardApp, where they are
// tested.
import Commands
import DashboardApp
import Foundation

let (io, flush) = CommandIO.standard()
let environment = ProcessInfo.processInfo.environment
let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), io: io, environment: environment) {
    options in
    Dashboard.run(options, environment: environment, writeError: io.writeError)
}
flush()
exit(status)
