import Foundation
import Support
import Testing

/// The real compiler, loading the built plugin over its message protocol, reports the table's problems at
/// their lines and columns in the user's file.
@Suite struct CompilerDiagnosticsTests {
    static let source = """
        import StateMachineMacros

        @StateMachine
        enum Job {
            enum State: Hashable, Sendable {
                case queued
                case running(step: Int)
                case done
                case orphan
                case archived
                case stuck
            }
            enum Event: Hashable, Sendable { case start, finish, archive }

            static let table = Table(initial: .queued, final: [.done], rows: [
                .on(.queued, .start, to: .running(step: 0)),
                .on(.running, .finish) { _, _ in .to(.done) },
                .on(.running, .finish, to: .queued),
                .on(.running, .archive, to: .stuck),
                .on(.archived, .start, to: .queued),
            ])
        }

        """

    @Test func compilerReportsEveryGraphProblemAtItsSourceLocation() async throws {
        let products = try #require(
            Self.buildProducts(),
            "the test binary is not inside a SwiftPM build folder holding StateMachineMacrosPlugin-tool"
        )
        let swiftc = try #require(Self.swiftc(), "no swiftc on PATH")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "statemachine-macro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Job.swift")
        try Self.source.write(to: file, atomically: true, encoding: .utf8)

        // The compiler runs for a second or more: it is waited for on a thread of its own, never on one of the
        // cooperative pool's few threads, which the other tests' work needs meanwhile.
        let (status, output) = try await DetachedThread.value(name: "swiftc") { () throws -> (Int32, String) in
            let process = Process()
            process.executableURL = swiftc
            process.currentDirectoryURL = folder
            process.arguments = [
                "-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path,
                "-load-plugin-executable",
                products.appendingPathComponent("StateMachineMacrosPlugin-tool").path + "#StateMachineMacrosPlugin",
                "Job.swift",
            ]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }

        #expect(status == 1)
        let headlines = output.split(separator: "\n").filter { $0.hasPrefix("Job.swift:") }.map(String.init)
        #expect(
            headlines == [
                "Job.swift:18:9: error: (running, finish) is given twice; the row after an unguarded one can never apply (from macro 'StateMachine')",
                "Job.swift:9:14: error: state 'orphan' is never mentioned by the table (from macro 'StateMachine')",
                "Job.swift:10:14: error: state 'archived' is never reached from the initial state 'queued' (from macro 'StateMachine')",
                "Job.swift:11:14: error: state 'stuck' has no way out and is not marked final (from macro 'StateMachine')",
                "Job.swift:15:24: error: the table has no row for 14 (state, event) pairs: (queued, finish), "
                    + "(queued, archive), (running, start), (done, start), (done, finish), (done, archive), "
                    + "(orphan, start), (orphan, finish), (orphan, archive), (archived, finish), (archived, archive), "
                    + "(stuck, start), (stuck, finish), (stuck, archive); give each its row, or say what every unlisted "
                    + "pair means with 'unlisted: .invalid' or 'unlisted: .ignore' (from macro 'StateMachine')",
            ])
    }

    /// The folder holding the test binary, the built modules and the plugin executable.
    static func buildProducts() -> URL? {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        // On Linux the tests run from `<products>/<name>.xctest`; elsewhere from inside a bundle.
        while folder.path != "/" {
            if FileManager.default.isExecutableFile(
                atPath: folder.appendingPathComponent("StateMachineMacrosPlugin-tool").path)
            {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The `swiftc` of the toolchain on `PATH`.
    static func swiftc() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
