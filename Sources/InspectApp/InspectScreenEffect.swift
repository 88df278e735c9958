/// The work the inspect screens ask for: none. The connection is read-only and arrives through a
/// subscription (``InspectFeature/subscriptions(socketPath:for:)``), which the store cancels when the state
/// stops asking for it, so the reducer has nothing to hand out; the type keeps the feature's shape.
package enum InspectScreenEffect: Hashable, Sendable {}
