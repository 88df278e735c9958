/// Arithmetic on byte counts that come from outside (a file's size as `stat` reports it, which a sparse file on
/// tmpfs or XFS puts near `Int64.max`): it never overflows, so a hostile size cannot trap the process.
extension Int64 {
    /// The whole percent this count is of `whole`, rounded down, in `0...100` (a count past `whole` is 100, a
    /// `whole` of 0 or less is 100 too: nothing is left), computed in double width so that no size overflows.
    package func wholePercent(of whole: Int64) -> Int {
        guard whole > 0 else { return 100 }
        let part = Swift.max(0, Swift.min(self, whole))
        return Int(whole.dividingFullWidth(part.multipliedFullWidth(by: 100)).quotient)
    }

    /// `percent` percent of this count, rounded down, without overflow.
    package func portion(percent: Int) -> Int64 {
        let percent = Int64(Swift.max(0, Swift.min(percent, 100)))
        return self / 100 * percent + self % 100 * percent / 100
    }

    /// This count plus `other`, the nearest bound when the sum lies beyond what `Int64` holds: a total of
    /// several huge sparse files stays the largest count rather than trapping.
    package func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
