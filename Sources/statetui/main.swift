// Parsing and wiring only: every command lives in Commands and the dashboard in DashboardApp, where they are
// tested.
import Commands
import DashboardApp
import TerminalUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let (io, flush) = CommandIO.standard()
let environment = CommandLineTool.processEnvironment
// A crash restores the terminal and says so in one line, never waiting in the runtime's interactive backtracer.
CrashReport.install(program: "statetui", environment: environment)
let status = CommandLineTool.run(CommandLineTool.processArguments, io: io, environment: environment) {
    options in
    Dashboard.run(options, environment: environment, writeError: io.writeError)
}
flush()
exit(status)
