import SeedModels

/// The work the Load screen asks for; ``LoadRuntime`` performs it.
package enum LoadScreenEffect: Hashable, Sendable {
    /// Refresh: the machine starts a request, which fails when `fails`.
    case refresh(fails: Bool)
    /// The server answers the last answered request once more, late.
    case answerLate
}
