import SeedModels
import Testing

@Suite struct CanonicalCasesTests {
    /// The forms a user reads after a bad line, built from each type's table of cases, are the ones the
    /// types listed by hand before the table existed, byte for byte.
    @Test(arguments: [
        (
            TransferEvent.canonicalForms,
            [
                "start", "progress(request: Int, percent: Int)", "pause", "resume",
                "succeeded(request: Int, file: String)", "failed(request: Int, message: String)", "cancel", "retry",
            ]
        ),
        (
            UploadEvent.canonicalForms,
            [
                "start(upload: Int)", "progress(upload: Int, fraction: Double)", "pause", "resume",
                "complete(upload: Int)", "fail(upload: Int, category: UploadErrorCategory, message: String)",
                "retry(upload: Int)", "cancel",
            ]
        ),
        (LoadAction.canonicalForms, ["refreshTapped", "succeeded([String])", "failed(String)"]),
        (
            LoadState.canonicalForms,
            ["idle", "loading(previous: [String]?)", "loaded([String])", "failed(String, previous: [String]?)"]
        ),
        (
            TransferState.canonicalForms,
            [
                "idle", "running(request: Int, percent: Int)", "paused(request: Int, percent: Int)",
                "completed(file: String)", "failed(message: String)",
            ]
        ),
        (
            UploadState.canonicalForms,
            [
                "idle", "uploading(upload: Int, progress: Double)", "paused(upload: Int, progress: Double)",
                "completed",
                "failed(upload: Int, category: UploadErrorCategory, message: String, sent: Double)",
            ]
        ),
        (
            TransferEffect.canonicalForms,
            ["begin(request: Int, percent: Int)", "suspend(request: Int)", "cancel(request: Int)"]
        ),
    ])
    func formsComeFromTheTableUnchanged(forms: [String], expected: [String]) {
        #expect(forms == expected)
    }

    /// An unlabelled argument is named in an error by its role, a labelled one by its label.
    @Test func argumentErrorsNameTheRoleOfTheRow() {
        #expect(throws: CanonicalTextError(column: 0, "message must be a quoted string, not 1")) {
            try LoadAction(parsing: "failed(1)")
        }
        #expect(throws: CanonicalTextError(column: 0, "percent must be an integer, not \"x\"")) {
            try TransferEffect(parsing: "begin(request: 1, percent: \"x\")")
        }
    }

    /// Every row prints through the table and reads back to the same value.
    @Test(arguments: [
        TransferEffect.begin(request: 3, percent: 40), .suspend(request: 3), .cancel(request: 4),
    ])
    func everyEffectRowRoundTrips(effect: TransferEffect) throws {
        #expect(try TransferEffect(parsing: effect.description) == effect)
    }
}
