import SeedModels
import Testing

@Suite struct CanonicalTextTests {
    /// The forms issue 4 lists, printed exactly.
    @Test(arguments: [
        (TransferState.idle.description, "idle"),
        (TransferState.running(request: 1, percent: 20).description, "running(request: 1, percent: 20)"),
        (TransferState.completed(file: "file-1").description, "completed(file: \"file-1\")"),
        (TransferState.failed(message: "offline").description, "failed(message: \"offline\")"),
        (UploadState.uploading(upload: 1, progress: 0.35).description, "uploading(upload: 1, progress: 0.35)"),
        (
            UploadState.failed(upload: 2, category: .network, message: "offline", sent: 0.5).description,
            "failed(upload: 2, category: network, message: \"offline\", sent: 0.5)"
        ),
        (LoadState.loading(previous: nil).description, "loading(previous: nil)"),
        (LoadState.loading(previous: ["a", "b"]).description, "loading(previous: [\"a\", \"b\"])"),
        (LoadState.loaded(["a", "b"]).description, "loaded([\"a\", \"b\"])"),
        (
            LoadState.failed("offline", previous: ["a", "b"]).description,
            "failed(\"offline\", previous: [\"a\", \"b\"])"
        ),
        (String(describing: TransferEvent.progress(request: 1, percent: 20)), "progress(request: 1, percent: 20)"),
        (String(describing: UploadEvent.progress(upload: 1, fraction: 1)), "progress(upload: 1, fraction: 1.0)"),
        (String(describing: LoadAction.succeeded([])), "succeeded([])"),
        (String(describing: TransferEffect.begin(request: 2, percent: 0)), "begin(request: 2, percent: 0)"),
        (
            String(describing: TransferModel(phase: .failed(message: "x"), lastRequest: 2, retainedPercent: 40)),
            "TransferModel(phase: failed(message: \"x\"), lastRequest: 2, retainedPercent: 40)"
        ),
    ])
    func printsTheCanonicalForm(printed: String, expected: String) {
        #expect(printed == expected)
    }

    static let nastyStrings = [
        "", " ", "\"", "\\", "\\\"", "a\nb", "\r\n", "\t", "\0", "tab\there", "quote \"inside\" it",
        "é", "e\u{301}", "\u{301}", "日本語", "🇫🇷👩‍👩‍👧", "\u{2028}", "\u{7F}", "\u{1B}[31m", "\u{FEFF}",
        "nil", "idle", "running(request: 1, percent: 20)", "a, b", "[\"x\"]", ")(", "#comment", "\\u{41}",
    ]

    static let transferStates: [TransferState] =
        [
            .idle, .running(request: 1, percent: 0), .running(request: Int.max, percent: 100),
            .paused(request: 3, percent: 40), .paused(request: -1, percent: -5),
        ] + nastyStrings.flatMap { [TransferState.completed(file: $0), .failed(message: $0)] }

    static let transferEvents: [TransferEvent] =
        [
            .start, .progress(request: 1, percent: 20), .progress(request: Int.min, percent: 0), .pause, .resume,
            .cancel, .retry,
        ] + nastyStrings.flatMap { [TransferEvent.succeeded(request: 1, file: $0), .failed(request: 2, message: $0)] }

    static let uploadStates: [UploadState] =
        [
            .idle, .uploading(upload: 1, progress: 0), .uploading(upload: 2, progress: 0.35),
            .uploading(upload: Int.max, progress: 1), .paused(upload: 1, progress: 0.1 + 0.2),
            .paused(upload: 1, progress: 1e-300), .paused(upload: -1, progress: -0.5), .completed,
        ]
        + UploadErrorCategory.allCases.flatMap { category in
            nastyStrings.map { UploadState.failed(upload: 3, category: category, message: $0, sent: 0.25) }
        }

    static let uploadEvents: [UploadEvent] =
        [
            .start(upload: 1), .progress(upload: 1, fraction: 0.35), .progress(upload: 2, fraction: 0),
            .progress(upload: 1, fraction: .leastNonzeroMagnitude), .progress(upload: 1, fraction: 123_456.789), .pause,
            .resume, .complete(upload: 1), .retry(upload: 2), .cancel,
        ] + nastyStrings.map { UploadEvent.fail(upload: 1, category: .server, message: $0) }

    static let loadStates: [LoadState] =
        [
            .idle, .loading(previous: nil), .loading(previous: []), .loaded([]), .failed("", previous: nil),
            .loading(previous: nastyStrings), .loaded(nastyStrings), .failed("offline", previous: ["a", "b"]),
        ] + nastyStrings.map { LoadState.failed($0, previous: [$0]) }

    static let loadActions: [LoadAction] =
        [.refreshTapped, .succeeded([]), .succeeded(nastyStrings)]
        + nastyStrings.map { LoadAction.failed($0) }

    static let transferModels: [TransferModel] = [
        .initial, TransferModel(phase: .running(request: 3, percent: 40), lastRequest: 3),
        TransferModel(phase: .failed(message: "off\"line"), lastRequest: 2, retainedPercent: 55),
    ]

    /// One value and the check that its text parses back to the same value, named by its type and text.
    struct RoundTrip: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let check: @Sendable () throws -> Void

        init<Value: CanonicalText & Equatable & Sendable>(_ value: Value) {
            testDescription = "\(Value.self) \(value)"
            check = { () throws in #expect(try Value(parsing: value.description) == value) }
        }
    }

    static let roundTrips: [RoundTrip] = [
        transferStates.map(RoundTrip.init), transferEvents.map(RoundTrip.init), uploadStates.map(RoundTrip.init),
        uploadEvents.map(RoundTrip.init), loadStates.map(RoundTrip.init), loadActions.map(RoundTrip.init),
        transferModels.map(RoundTrip.init),
        [TransferEffect.begin(request: 1, percent: 0), .suspend(request: 2), .cancel(request: 3)].map(RoundTrip.init),
    ].flatMap { $0 }

    /// Printer and parser agree: every state, event, action, effect and model reads back as itself.
    @Test(arguments: roundTrips) func canonicalTextRoundTrips(_ roundTrip: RoundTrip) throws {
        try roundTrip.check()
    }

    @Test func printedStringsStayOnOneLine() {
        for text in Self.nastyStrings {
            let printed = CanonicalValue.quoted(text)
            #expect(!printed.unicodeScalars.contains { $0.properties.generalCategory == .control })
            #expect(!printed.contains("\u{2028}"))
        }
    }

    @Test(arguments: [
        ("running( request:1 ,percent :20 )", TransferState.running(request: 1, percent: 20)),
        ("  idle  ", .idle),
        ("completed(file: \"a\\u{42}\\'\")", .completed(file: "aB'")),
    ])
    func whitespaceAndSwiftEscapesAreAccepted(text: String, expected: TransferState) throws {
        #expect(try TransferState(parsing: text) == expected)
    }

    @Test func uploadProgressAcceptsAnIntegerLiteral() throws {
        #expect(try UploadEvent(parsing: "progress(upload: 1, fraction: 1)") == .progress(upload: 1, fraction: 1))
        #expect(
            try UploadState(parsing: "uploading(upload: 3, progress: 2e-1)") == .uploading(upload: 3, progress: 0.2))
    }

    @Test(arguments: [
        ("", CanonicalTextError(column: 1, "expected a value but the text is empty")),
        (
            "running(request: 1, percent: 20",
            CanonicalTextError(column: 32, "expected \")\" but found the end of the text")
        ),
        ("idle x", CanonicalTextError(column: 6, "unexpected \"x\" after the value")),
        ("completed(file: \"a)", CanonicalTextError(column: 20, "the string is not closed with \"")),
        ("completed(file: \"\\q\")", CanonicalTextError(column: 18, "unknown escape \\q in a string")),
        ("completed(file: \"\\u{D800}\")", CanonicalTextError(column: 21, "\\u{D800} is not a Unicode scalar")),
        (
            "running(request: 99999999999999999999, percent: 1)",
            CanonicalTextError(column: 18, "99999999999999999999 does not fit in an integer")
        ),
        (
            "loaded([\"a\" \"b\"])",
            CanonicalTextError(column: 13, "expected \",\" or \"]\" in the array but found \"\\\"\"")
        ),
        ("running(request: 1, percent: @)", CanonicalTextError(column: 30, "expected a value but found \"@\"")),
        ("running(request: 1e400, percent: 1)", CanonicalTextError(column: 18, "1e400 is not a finite number")),
        ("running(request: -, percent: 1)", CanonicalTextError(column: 19, "expected digits after \"-\"")),
    ])
    func syntaxErrorsNameTheColumnAndTheCause(text: String, expected: CanonicalTextError) {
        #expect(throws: expected) { try TransferState(parsing: text) }
    }

    @Test func unknownCasesNameTheType() {
        #expect(throws: CanonicalTextError(column: 0, "strat is not a transfer event")) {
            try TransferEvent(parsing: "strat")
        }
    }

    @Test(arguments: [
        ("running(request: 1)", "running(request: 1) does not match running(request: Int, percent: Int)"),
        ("running(1, 2)", "running(1, 2) does not match running(request: Int, percent: Int)"),
        ("running(request: \"1\", percent: 2)", "request must be an integer, not \"1\""),
        ("completed(file: nil)", "file must be a quoted string, not nil"),
        ("idle()", "write idle without parentheses"),
    ])
    func wrongShapesNameWhatDoesNotFit(text: String, message: String) {
        #expect(throws: CanonicalTextError(column: 0, message)) { try TransferState(parsing: text) }
    }

    @Test func aQuotedNameIsNotACase() {
        #expect(throws: CanonicalTextError(column: 0, "\"idle\" is not a transfer state")) {
            try TransferState(parsing: "\"idle\"")
        }
    }

    @Test func loadShapesAreChecked() {
        #expect(throws: CanonicalTextError(column: 0, "each element of items must be a quoted string, not 1")) {
            try LoadState(parsing: "loaded([\"a\", 1])")
        }
        #expect(throws: CanonicalTextError(column: 0, "previous must be an array of strings, not \"a\"")) {
            try LoadState(parsing: "loading(previous: \"a\")")
        }
    }

    @Test func parsedSyntaxTreeIsTheWholeValue() throws {
        #expect(
            try CanonicalValue.parse("failed(\"x\", previous: [\"a\", nil, -3, 0.5])")
                == .call(
                    "failed",
                    [
                        .unlabelled(.string("x")),
                        .labelled("previous", .array([.string("a"), .nil, .int(-3), .double(0.5)])),
                    ]))
    }

    @Test(arguments: [
        ("succeeded(" + String(repeating: "[", count: 50_000), 74),
        (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), 65),
        ("a(" + String(repeating: "b(", count: 70), 129),
    ])
    func nestingDeeperThanTheBoundIsAnErrorNotAStackOverflow(text: String, column: Int) {
        #expect(throws: CanonicalTextError(column: column, "values are nested more than 64 deep")) {
            try CanonicalValue.parse(text)
        }
    }

    @Test func nestingUpToTheBoundParses() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var expected = CanonicalValue.array([])
        for _ in 1..<64 { expected = .array([expected]) }
        #expect(try CanonicalValue.parse(text) == expected)
    }

    @Test func excerptsKeepShortTextAndCutLongText() {
        #expect(CanonicalValue.excerpt(String(repeating: "a", count: 200)) == String(repeating: "a", count: 200))
        #expect(
            CanonicalValue.excerpt(String(repeating: "é", count: 10_000))
                == String(repeating: "é", count: 200) + "… (9800 more characters)")
    }

    @Test(arguments: [
        String(repeating: "x", count: 1_000_000),
        "loaded([" + String(repeating: "\"a\", ", count: 100_000) + "1])",
        String(repeating: "9", count: 1_000_000),
        "failed(\"\\u{" + String(repeating: "0", count: 1_000_000) + "}\")",
        "refreshTapped(" + String(repeating: "1, ", count: 100_000) + "1)",
        "succeeded(" + String(repeating: "[", count: 60) + String(repeating: "1, ", count: 100_000) + "1",
    ])
    func errorsAboutALongLineQuoteAtMost200CharactersOfIt(text: String) {
        do {
            _ = try LoadAction(parsing: text)
            Issue.record("parsed \(text.prefix(40))")
        } catch {
            #expect(error.description.count < 400, "\(error.description.prefix(500))")
        }
    }
}
