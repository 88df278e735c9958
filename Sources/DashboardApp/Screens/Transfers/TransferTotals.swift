import SeedModels
import Support

/// The figures of a whole copy, summed over its transfers: bytes done of the bytes known, files completed
/// and failed. The headless total line and summary and the dashboard's total row read them. Pure: the time
/// elapsed is passed in.
package struct TransferTotals: Hashable, Sendable {
    /// Bytes copied so far (a running transfer counts its percent of its size).
    package var bytesDone: Int64 = 0
    /// The sizes known so far (a transfer that has not started yet has no size).
    package var totalBytes: Int64 = 0
    /// Transfers completed.
    package var completed = 0
    /// Transfers failed.
    package var failed = 0
    /// Every transfer.
    package var files = 0
    /// The bytes of the completed transfers.
    package var completedBytes: Int64 = 0
    /// The completed transfers that copied nothing, the destination already holding their file.
    package var alreadyThere = 0
    /// The bytes of those.
    package var alreadyThereBytes: Int64 = 0

    /// Totals given outright.
    package init(
        bytesDone: Int64 = 0, totalBytes: Int64 = 0, completed: Int = 0, failed: Int = 0, files: Int = 0,
        completedBytes: Int64 = 0
    ) {
        self.bytesDone = bytesDone
        self.totalBytes = totalBytes
        self.completed = completed
        self.failed = failed
        self.files = files
        self.completedBytes = completedBytes
    }

    /// The totals of transfers in `phases`, each with its size when known.
    package init(_ transfers: [(phase: TransferState, size: Int64?)]) {
        self.init(transfers.map { (phase: $0.phase, size: $0.size, alreadyThere: false) })
    }

    /// The totals of transfers in `phases`, each with its size when known and whether, completed, it found its
    /// file already there (copied nothing).
    package init(_ transfers: [(phase: TransferState, size: Int64?, alreadyThere: Bool)]) {
        for (phase, size, wasThere) in transfers { add(phase, size: size, alreadyThere: wasThere) }
    }

    /// Counts one more transfer, in `phase`, of `size` when known, which (completed) found its file already there
    /// when `wasThere`. The dashboard's total row adds its rows one by one, with no list of them made each frame.
    package mutating func add(_ phase: TransferState, size: Int64?, alreadyThere wasThere: Bool = false) {
        files += 1
        // Sizes come from the file system: sums saturate rather than trap (two sparse files of 7 EiB).
        let size = size ?? 0
        totalBytes = totalBytes.addingClamped(size)
        switch phase {
        case .completed:
            completed += 1
            completedBytes = completedBytes.addingClamped(size)
            bytesDone = bytesDone.addingClamped(size)
            if wasThere {
                alreadyThere += 1
                alreadyThereBytes = alreadyThereBytes.addingClamped(size)
            }
        case .running(_, let percent), .paused(_, let percent):
            bytesDone = bytesDone.addingClamped(size.portion(percent: percent))
        case .failed:
            failed += 1
        case .idle:
            break
        }
    }

    /// The whole percent of the known bytes done (100 when nothing is known and every file completed).
    package var percent: Int {
        guard totalBytes > 0 else { return files > 0 && completed == files ? 100 : 0 }
        return bytesDone.wholePercent(of: totalBytes)
    }

    /// `total: 3.2 GB of 10 GB · 31% · 412 MB/s · ETA 0:17 · 120 of 4,000 files`, the rate averaged over
    /// `elapsed` (`–` before any byte or time has passed, and then no ETA).
    package func line(elapsed: Duration) -> String {
        let seconds = elapsed.inSeconds
        return line(rate: seconds > 0 && bytesDone > 0 ? Double(bytesDone) / seconds : nil)
    }

    /// The total line at `rate` bytes per second (nil or 0: not known, no ETA).
    package func line(rate: Double?) -> String {
        let rate = rate.flatMap { $0 > 0 ? $0 : nil }
        let eta = rate.map { TransferFigures.duration(seconds: Double(max(0, totalBytes - bytesDone)) / $0) }
        return "total: \(TransferFigures.size(bytesDone)) of \(TransferFigures.size(totalBytes)) · \(percent)% · "
            + "\(rate.map(TransferFigures.rate) ?? "–") · ETA \(eta ?? "–") · "
            + "\(Self.count(completed)) of \(Self.count(files)) files"
    }

    /// `copied 3,998 files (10 GB), skipped 2, failed 0 in 24 s`: the transfers that copied their file and
    /// its bytes, the links made (`linked 5`, only when there are any), the FIFOs, sockets and devices made
    /// (`made 2 special files`, only when there are any), the files already there plus `skipped` entries left
    /// out, the failed transfers plus `failedLinks`, and the time taken (`1:05` from a minute on).
    package func summary(skipped: Int, linked: Int = 0, made: Int = 0, failedLinks: Int = 0, elapsed: Duration)
        -> String
    {
        let seconds = elapsed.inSeconds
        let took = seconds < 60 ? "\(Int(seconds.rounded())) s" : TransferFigures.duration(seconds: seconds)
        let copied = completed - alreadyThere
        return "copied \(Self.count(copied)) \(copied == 1 ? "file" : "files") "
            + "(\(TransferFigures.size(completedBytes - alreadyThereBytes))), "
            + (linked > 0 ? "linked \(Self.count(linked)), " : "")
            + (made > 0 ? "made \(Self.count(made)) special \(made == 1 ? "file" : "files"), " : "")
            + "skipped \(Self.count(skipped + alreadyThere)), "
            + "failed \(Self.count(failed + failedLinks)) in \(took)"
    }

    /// `4,000`: a count with its thousands grouped by commas.
    package static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }
}
