/// The History screen needs no work done: its rows arrive from the machines' observers. The enum has no
/// cases so the feature has the same shape as the others.
public enum HistoryEffect: Hashable, Sendable {}
