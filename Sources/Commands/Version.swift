/// The package's version, printed by `statetui --version`.
package enum Version {
    /// The version of this build of statetui.
    package static let current = "0.1.0"
}
