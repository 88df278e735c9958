// Parsing and wiring only: every command and the dashboard live in StateTUI, where they are tested.
import Foundation
import StateTUI

let (io, flush) = CommandIO.standard()
let environment = ProcessInfo.processInfo.environment
let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()), io: io, environment: environment) {
    options in
    Dashboard.run(options, environment: environment, writeError: io.writeError)
}
flush()
exit(status)
