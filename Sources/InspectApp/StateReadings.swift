import DashboardApp
import SeedModels
import StateMachineDiagrams
import StateMachineKit
import TerminalUI

/// How `statetui inspect` reads another program's states, which reach it as their canonical text: in words
/// through a presentation registered for the state's type (by the name its text starts with,
/// `TransferModel(phase: …)`) or for the machine's label (an enum's text starts with its case), with the
/// canonical text as the fallback; the case a state's box collapses into on the Graph screen; and the text cut
/// so the part that tells states apart stays in view.
///
/// Readings are values: `statetui inspect` starts from ``standard`` (the models of ``SeedModels``), and a
/// program embedding the inspect screens registers its own types with ``register(type:_:)``. Two sets of readings
/// are equal when they read the same names.
package struct StateReadings: Hashable, Sendable {
    /// Reads a parsed state in words; nil when it is not the shape expected (the canonical text is shown).
    package typealias Reading = @Sendable (CanonicalValue) -> StatePresentation?

    private var byType: [String: Reading] = [:]
    private var byLabel: [String: Reading] = [:]

    /// No readings: every state shows as its canonical text.
    package init() {}

    /// The readings of the project's own models: a transfer by its type, the upload and the load by the labels
    /// their machines have.
    package static let standard: StateReadings = {
        var readings = StateReadings()
        readings.register(type: "TransferModel", TransferModel.self)
        readings.register(label: UploadState.machineLabel, UploadState.self)
        readings.register(label: LoadState.machineLabel, LoadState.self)
        return readings
    }()

    /// Reads states whose canonical text is a call of `type` (`TransferModel(…)`) with `reading`.
    package mutating func register(type: String, _ reading: @escaping Reading) {
        byType[type] = reading
    }

    /// Reads the states of machines labelled `label` with `reading`.
    package mutating func register(label: String, _ reading: @escaping Reading) {
        byLabel[label] = reading
    }

    /// Reads states whose text is a call of `type` as `Model` presents them.
    package mutating func register<Model: CanonicalText & PresentableState & SendableMetatype>(
        type: String, _ model: Model.Type
    ) {
        register(type: type) { try? Model(canonicalValue: $0).presentation }
    }

    /// Reads the states of machines labelled `label` as `Model` presents them.
    package mutating func register<Model: CanonicalText & PresentableState & SendableMetatype>(
        label: String, _ model: Model.Type
    ) {
        register(label: label) { try? Model(canonicalValue: $0).presentation }
    }

    /// `text`, the state of a machine labelled `label`, in words; nil when no reading knows it.
    package func presentation(of text: String, label: String) -> StatePresentation? {
        guard let value = try? CanonicalValue.parse(text) else { return nil }
        if let name = Self.typeName(value), let reading = byType[name], let presented = reading(value) {
            return presented
        }
        return byLabel[label].flatMap { $0(value) }
    }

    /// The state as a cell: in words in its phase's colour, or its canonical text (`canonical`, or when no
    /// reading knows it) cut to `width` by ``fitted(_:width:)``.
    package func cell(_ text: String, label: String, canonical: Bool, width: Int) -> Line {
        if !canonical, let presented = presentation(of: text, label: label) {
            return Line(presented.text, style: presented.phase.style)
        }
        return Line(Self.fitted(text, width: width))
    }

    /// The case `text` is in, the box it collapses into: the case of a struct's first field
    /// (`TransferModel(phase: running(…), …)` is `running`), else the text before its first `(`.
    package static func caseName(of text: String) -> String {
        if let value = try? CanonicalValue.parse(text), typeName(value) != nil,
            case .call(_, let arguments) = value, let first = arguments.first
        {
            switch first.value {
            case .name(let name), .call(let name, _): return name
            case .int, .double, .string, .array, .nil: break
            }
        }
        return DiagramGraph.caseName(of: text)
    }

    /// `text` in at most `width` cells, the part that tells states apart kept: the whole text when it fits, else a
    /// struct's first field (`running(request: 1, percent: 20) …`), else that (or an enum's case) without its
    /// labels (`running(1, 20) …`), cut at the end as a last resort.
    package static func fitted(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard let value = try? CanonicalValue.parse(text) else { return Line.truncate(text, to: width) }
        var core = value
        var rest = ""
        if typeName(value) != nil, case .call(_, let arguments) = value, let first = arguments.first {
            core = first.value
            rest = arguments.count > 1 ? " …" : ""
        }
        let short = unlabelled(core).description + rest
        for candidate in [core.description + rest, short] where DisplayWidth.of(candidate) <= width {
            return candidate
        }
        return Line.truncate(short, to: width)
    }

    /// The type a struct's text names (`TransferModel` in `TransferModel(phase: …)`): a call whose name starts
    /// with a capital; nil for an enum's case.
    private static func typeName(_ value: CanonicalValue) -> String? {
        guard case .call(let name, _) = value, name.first?.isUppercase == true else { return nil }
        return name
    }

    /// `value` with the labels of its arguments left out, all the way down.
    private static func unlabelled(_ value: CanonicalValue) -> CanonicalValue {
        switch value {
        case .call(let name, let arguments): .call(name, arguments.map { CanonicalArgument(nil, unlabelled($0.value)) })
        case .array(let values): .array(values.map(unlabelled))
        case .name, .int, .double, .string, .nil: value
        }
    }

    package static func == (lhs: StateReadings, rhs: StateReadings) -> Bool {
        lhs.byType.keys.sorted() == rhs.byType.keys.sorted() && lhs.byLabel.keys.sorted() == rhs.byLabel.keys.sorted()
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(byType.keys.sorted())
        hasher.combine(byLabel.keys.sorted())
    }
}
