// Parsing and wiring only: every command lives in StateTUI, where it is tested.
import Foundation
import StateTUI

let (io, flush) = CommandIO.standard()
let status = CommandLineTool.run(
    Array(CommandLine.arguments.dropFirst()), io: io, environment: ProcessInfo.processInfo.environment)
flush()
exit(status)
