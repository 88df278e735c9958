/// The package's version, printed by `statetui --version`.
public enum Version {
    /// The version of this build of statetui.
    public static let current = "0.1.0"
}
