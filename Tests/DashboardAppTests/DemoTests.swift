import DashboardApp
import Foundation
import SeedModels
import Testing

@testable import TerminalUI

@Suite struct DemoTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func play(_ name: String, size: Size = Size(width: 80, height: 24), record: Bool = false) async throws
        -> (ending: DemoPlayer.Ending, frames: [String], cast: Asciicast?)
    {
        let text = try #require(BundledDemos.texts[name])
        let script = try DemoScript.parse(text, file: "\(name).demo")
        var cast: Asciicast? =
            record ? Asciicast(width: size.width, height: size.height, timestamp: 0, title: name) : nil
        var frames: [String] = []
        let ending = await DemoPlayer.headless(script, size: size, world: DemoSession(), cast: &cast) {
            frames.append($0)
        }
        return (ending, frames, cast)
    }

    @Test(arguments: BundledDemos.names)
    func everyDemoPassesHeadless(name: String) async throws {
        let (ending, frames, _) = try await Self.play(name)
        #expect(ending == .completed)
        #expect(frames.first?.hasPrefix("--- frame 0: start ---\n") == true)
    }

    @Test func theUploadDemoAlsoPassesAtTheMinimumSize() async throws {
        let (ending, frames, _) = try await Self.play("upload", size: Size(width: 40, height: 12))
        #expect(ending == .completed)
        // The header line and the 12 rows of a 40×12 screen.
        #expect(frames.last?.filter { $0 == "\n" }.count == 13)
    }

    @Test func headlessFramesAreTheSameOnEveryRun() async throws {
        let first = try await Self.play("load")
        let second = try await Self.play("load")
        #expect(first.frames == second.frames)
    }

    @Test func theLoadDemoShowsTheFlagsGoingWrongWhereTheEnumDoesNot() async throws {
        let (_, frames, _) = try await Self.play("load")
        let impossible = try #require(frames.first { $0.contains("IMPOSSIBLE: isLoading + items + error") })
        #expect(impossible.contains("loading(previous: [\"a\", \"b\"])"))
    }

    static func play(script text: String, session: DemoSession) async throws -> (DemoPlayer.Ending, [String]) {
        let script = try DemoScript.parse(text, file: "test.demo")
        var cast: Asciicast?
        var frames: [String] = []
        let ending = await DemoPlayer.headless(script, size: Size(width: 80, height: 24), world: session, cast: &cast) {
            frames.append($0)
        }
        return (ending, frames)
    }

    /// End to end through the dashboard's own store, reducer, subscriptions and effect runner on a manual
    /// scheduler: a cancelled upload's late chunk and a failed request's late response both die in their
    /// machines as stale, and both screens count them from the machines' records.
    @Test func lateUploadReportsAndLateLoadResponsesAreDroppedAsStaleThroughTheDashboard() async throws {
        let session = DemoSession(seed: 3)
        let (ending, frames) = try await Self.play(
            script: """
                2
                s
                sleep 250ms
                c
                expect /State idle/
                sleep 1s
                expect /stale reports dropped: 1/
                3
                f
                r
                sleep 300ms
                expect /failed\\("offline"/
                l
                expect /stale responses dropped: 1/
                expect /• late/
                """, session: session)
        #expect(ending == .completed, "\(frames.last ?? "")")
        let upload = session.environment.upload.machine.engine.history
        #expect(upload.last.map { [$0.before: $0.outcome] } == [.idle: .stale])
        let load = session.environment.load.machine.engine.history
        #expect(load.last.map { "\($0.event) \($0.outcome)" } == "succeeded([\"late\"]) stale")
        #expect(session.environment.load.machine.state == .failed("offline", previous: nil))
    }

    /// A headless sleep is simulated time: even a very long one ends as soon as nothing more is due.
    @Test(.timeLimit(.minutes(1))) func aVeryLongSleepEndsAtOnce() async throws {
        let (ending, frames) = try await Self.play(
            script: "1\ns\nsleep 9999999s\nexpect /completed/\n", session: DemoSession())
        #expect(ending == .completed, "\(frames.last ?? "")")
    }

    @Test func aFailingExpectNamesTheStepAndTheScreen() async throws {
        let script = try DemoScript.parse("3\nexpect /no such text/\nr\n", file: "f.demo")
        var cast: Asciicast?
        var frames: [String] = []
        let ending = await DemoPlayer.headless(
            script, size: Size(width: 80, height: 24), world: DemoSession(), cast: &cast
        ) {
            frames.append($0)
        }
        guard case .failed(let step, let screen) = ending else {
            Issue.record("expected a failure, got \(ending)")
            return
        }
        #expect(step == DemoScript.Step(line: 2, kind: .expect("no such text"), text: "expect /no such text/"))
        #expect(screen.contains("LoadState (enum)"))
        #expect(ending.status == 1)
        #expect(frames.count == 3)
    }

    @Test func theCastParsesAsAsciicastV2AndReplaysToTheHeadlessFinalFrame() async throws {
        let size = Size(width: 80, height: 24)
        let (_, frames, cast) = try await Self.play("tour", size: size, record: true)
        let text = try #require(cast?.text)
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(text.prefix { $0 != "\n" }.utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 80)
        #expect(header["height"] as? Int == 24)
        #expect(header["timestamp"] as? Int == 0)
        let parsed = try Asciicast(parsing: text)
        #expect(parsed.events.count == frames.count)
        var screen = ANSIScreen(width: parsed.width, height: parsed.height)
        for event in parsed.events { try screen.feed(event.data) }
        let last = try #require(frames.last)
        let finalFrame = String(last.drop { $0 != "\n" }.dropFirst())
        #expect(screen.text == finalFrame)
    }

    @Test func asciicastParsingRejectsWhatIsNotARecording() {
        #expect(throws: Asciicast.ParseError.self) { try Asciicast(parsing: "") }
        #expect(throws: Asciicast.ParseError.self) {
            try Asciicast(parsing: "{\"version\": 1, \"width\": 3, \"height\": 2}\n")
        }
        #expect(throws: Asciicast.ParseError.self) {
            try Asciicast(parsing: "{\"version\": 2, \"width\": 3, \"height\": 2}\n[1.0, \"o\"]\n")
        }
    }

    /// The demos embedded in the binary are the files in Resources/demos; DEMOS_UPDATE=1 rewrites the Swift file.
    @Test func bundledDemosMatchTheResourceFiles() throws {
        var files: [String: String] = [:]
        for name in BundledDemos.names {
            files[name] = try String(
                contentsOf: Self.root.appendingPathComponent("Resources/demos/\(name).demo"), encoding: .utf8)
        }
        let listed = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Resources/demos").path
        )
        .filter { $0.hasSuffix(".demo") }.map { String($0.dropLast(5)) }.sorted()
        if ProcessInfo.processInfo.environment["DEMOS_UPDATE"] == "1" {
            let source = Self.bundledSource(names: BundledDemos.names, texts: files)
            try Data(source.utf8).write(
                to: Self.root.appendingPathComponent("Sources/DashboardApp/Demo/BundledDemos.swift"))
        }
        #expect(listed == BundledDemos.names.sorted(), "every demo file is bundled")
        for name in BundledDemos.names {
            #expect(
                BundledDemos.texts[name] == files[name],
                "\(name).demo changed; run DEMOS_UPDATE=1 swift test --filter BundledDemos")
        }
    }

    static func bundledSource(names: [String], texts: [String: String]) -> String {
        var lines = [
            "// Generated from Resources/demos/*.demo by BundledDemosTests; do not edit by hand.",
            "// After changing a demo, run: DEMOS_UPDATE=1 swift test --filter BundledDemosTests", "",
            "/// The demo scripts of `Resources/demos`, built into the binary so `statetui demo` works from any directory",
            "/// (an installed binary has no resource bundle next to it).", "package enum BundledDemos {",
            "    /// The demos' names, in the order help lists them.",
            "    package static let names = [" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]", "",
            "    /// Every demo's text by name.", "    package static let texts: [String: String] = [",
        ]
        for name in names {
            lines.append("        \"\(name)\": [")
            var body = (texts[name] ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if body.last == "" { body.removeLast() }
            lines += body.map { "            #\"\($0)\"#," }
            lines.append("        ].map { $0 + \"\\n\" }.joined(),")
        }
        lines += ["    ]", "}"]
        return lines.joined(separator: "\n") + "\n"
    }
}
