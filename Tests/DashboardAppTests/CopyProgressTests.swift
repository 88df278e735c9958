import DashboardApp
import SeedModels
import Testing

/// The copy's total line and summary: whole strings from given figures and a given time.
@Suite struct CopyProgressTests {
    @Test func theTotalLineReadsAsTheIssueShowsIt() {
        let totals = TransferTotals(
            bytesDone: 3_200_000_000, totalBytes: 10_200_000_000, completed: 120, files: 4000)
        #expect(
            totals.line(elapsed: .milliseconds(7766))
                == "total: 3.2 GB of 10 GB · 31% · 412 MB/s · ETA 0:17 · 120 of 4,000 files")
    }

    /// Before a byte was copied there is no rate and no ETA to give.
    @Test func theTotalLineBeforeAnyByteHasNoRate() {
        let totals = TransferTotals([(.running(request: 1, percent: 0), 5_000_000), (.idle, nil)])
        #expect(totals.line(elapsed: .seconds(1)) == "total: 0 B of 5.0 MB · 0% · – · ETA – · 0 of 2 files")
    }

    @Test func theSummaryReadsAsTheIssueShowsIt() {
        let totals = TransferTotals(completed: 3998, failed: 0, files: 3998, completedBytes: 10_000_000_000)
        #expect(
            totals.summary(skipped: 2, elapsed: .milliseconds(24_200))
                == "copied 3,998 files (10 GB), skipped 2, failed 0 in 24 s")
        #expect(
            TransferTotals(completed: 1, failed: 2, files: 3, completedBytes: 5).summary(
                skipped: 0, elapsed: .seconds(65)) == "copied 1 file (5 B), skipped 0, failed 2 in 1:05")
    }

    /// Totals of files near `Int64.max` bytes (sparse files on tmpfs) saturate instead of trapping: before, two
    /// such files in one run stopped the copy with an arithmetic overflow.
    @Test func totalsOfHugeSparseFilesDoNotOverflow() {
        let huge = Int64(7) << 60
        let totals = TransferTotals([
            (.running(request: 1, percent: 50), huge, alreadyThere: false),
            (.completed(file: "/d/b"), huge, alreadyThere: false),
        ])
        #expect(
            [totals.totalBytes, totals.bytesDone, Int64(totals.percent)] == [.max, .max, 100])
        let one = TransferTotals([(.running(request: 1, percent: 50), huge, alreadyThere: false)])
        #expect([one.totalBytes, one.bytesDone, Int64(one.percent)] == [huge, huge / 2, 50])
    }

    /// Files already there count as skipped, not copied, with their bytes.
    @Test func filesAlreadyThereAreSkippedInTheSummary() {
        let totals = TransferTotals([
            (.completed(file: "/d/a"), 1000, alreadyThere: true), (.completed(file: "/d/b"), 500, alreadyThere: false),
            (.failed(message: "x"), 10, alreadyThere: false),
        ])
        #expect(
            totals.summary(skipped: 1, elapsed: .seconds(2)) == "copied 1 file (500 B), skipped 2, failed 1 in 2 s")
    }

    /// Each transfer counts by its phase: a completed one whole, a running or paused one by its percent, a
    /// failed or idle one nothing; the sizes known sum to the total.
    @Test func totalsSumTheTransfersByPhase() {
        let totals = TransferTotals([
            (.completed(file: "/d/a"), 1000), (.running(request: 1, percent: 50), 2000),
            (.paused(request: 1, percent: 10), 1000), (.failed(message: "disk full"), 500), (.idle, nil),
        ])
        #expect(
            totals
                == TransferTotals(
                    bytesDone: 2100, totalBytes: 4500, completed: 1, failed: 1, files: 5, completedBytes: 1000))
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (4000, "4,000"), (1_234_567, "1,234,567")])
    func countsGroupTheirThousands(value: Int, text: String) {
        #expect(TransferTotals.count(value) == text)
    }
}
