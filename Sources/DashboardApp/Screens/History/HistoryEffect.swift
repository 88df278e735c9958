/// The History screen needs no work done: its rows arrive from its subscription to the selected machine's
/// records. The enum has no cases so the feature has the same shape as the others.
package enum HistoryEffect: Hashable, Sendable {}
