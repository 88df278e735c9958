import StateTUI
import TerminalUI
import Testing

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
}
