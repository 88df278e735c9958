import DashboardApp
import Testing

@testable import TerminalUI

@Suite struct DemoScriptTests {
    @Test func stepsKeysSleepsAndExpectsWithCommentsAndBlankLinesSkipped() throws {
        let text = "# a comment\n\nr\n  sleep 300ms  \nsleep 2s\nexpect /Load(ing)?/\r\nshift-tab\n"
        let script = try DemoScript.parse(text, file: "x.demo")
        #expect(
            script
                == DemoScript(
                    file: "x.demo",
                    steps: [
                        .init(line: 3, kind: .key(.character("r")), text: "r"),
                        .init(line: 4, kind: .sleep(.milliseconds(300)), text: "sleep 300ms"),
                        .init(line: 5, kind: .sleep(.seconds(2)), text: "sleep 2s"),
                        .init(line: 6, kind: .expect("Load(ing)?"), text: "expect /Load(ing)?/"),
                        .init(line: 7, kind: .key(.backTab), text: "shift-tab"),
                    ]))
    }

    @Test(arguments: [
        ("r\nbogus\n", 2, "unknown step 'bogus'"),
        ("\n\nsleep\n", 3, "sleep needs a duration"),
        ("sleep 3 minutes\n", 1, "sleep needs a duration"),
        ("sleep -5ms\n", 1, "sleep needs a duration"),
        ("r\nexpect Load\n", 2, "between slashes"),
        ("expect //\n", 1, "the regular expression is empty"),
        ("# ok\nexpect /(unclosed/\n", 2, "invalid regular expression"),
    ])
    func errorsNameTheLine(text: String, line: Int, message: String) {
        #expect {
            try DemoScript.parse(text, file: "bad.demo")
        } throws: { error in
            guard let error = error as? DemoScriptError else { return false }
            return error.file == "bad.demo" && error.line == line && error.message.contains(message)
                && error.description.hasPrefix("bad.demo:\(line): ")
        }
    }

    @Test func everyBundledDemoParses() throws {
        for name in BundledDemos.names {
            let text = try #require(BundledDemos.texts[name])
            let script = try DemoScript.parse(text, file: "\(name).demo")
            #expect(!script.steps.isEmpty)
        }
    }

    @Test(arguments: [
        ("300ms", Duration.milliseconds(300)), ("2s", .seconds(2)), ("1.5s", .milliseconds(1500)),
        ("60m", .seconds(3600)), ("24h", .seconds(86_400)), ("0.25h", .seconds(900)), ("0s", .zero),
        ("1.000000001s", .nanoseconds(1_000_000_001)), ("8760h", .seconds(31_536_000)),
        ("9999999s", .seconds(9_999_999)),
    ])
    func sleepsTakeANumberWithAFractionAndAUnitUpToHours(text: String, duration: Duration) throws {
        let script = try DemoScript.parse("sleep \(text)\n", file: "x.demo")
        #expect(
            script == DemoScript(file: "x.demo", steps: [.init(line: 1, kind: .sleep(duration), text: "sleep \(text)")])
        )
    }

    @Test(arguments: [
        (
            "sleep 3 minutes",
            "sleep needs a duration: a number and a unit (ms, s, m or h), e.g. 300ms, 1.5s, 60m or 24h"
        ),
        ("sleep 1.s", "sleep needs a duration: a number and a unit (ms, s, m or h), e.g. 300ms, 1.5s, 60m or 24h"),
        ("sleep .5s", "sleep needs a duration: a number and a unit (ms, s, m or h), e.g. 300ms, 1.5s, 60m or 24h"),
        ("sleep 5d", "sleep needs a duration: a number and a unit (ms, s, m or h), e.g. 300ms, 1.5s, 60m or 24h"),
        ("sleep 8761h", "a sleep is at most 8760h (365 days of simulated time)"),
        ("sleep 99999999999999999999999h", "a sleep is at most 8760h (365 days of simulated time)"),
    ])
    func aRejectedSleepSaysWhatIsAccepted(line: String, message: String) {
        #expect(throws: DemoScriptError(file: "x.demo", line: 1, message: "'\(line)': \(message)")) {
            try DemoScript.parse(line + "\n", file: "x.demo")
        }
    }

    @Test func aLongBadLineIsQuotedAtMost200Characters() {
        let line = String(repeating: "z", count: 100_000)
        #expect(
            throws: DemoScriptError(
                file: "x.demo", line: 1,
                message: "unknown step 'z" + String(repeating: "z", count: 199) + "… (99800 more characters)': "
                    + "expected a key name (q, space, tab, shift-tab, enter, up, ctrl-c, f5 …), "
                    + "'sleep 300ms' or 'expect /regex/'")
        ) {
            try DemoScript.parse(line, file: "x.demo")
        }
    }
}
