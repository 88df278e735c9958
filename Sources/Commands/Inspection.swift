import DashboardApp
import SeedModels
import StateMachineInspector

/// How statetui's own programs become inspectable (`statetui --inspectable`, `statetui copy --inspectable`).
package enum Inspection {
    /// Starts an inspector named `name` in the socket directory `environment` names (`XDG_RUNTIME_DIR`).
    package static func start(name: String, environment: [String: String]) throws(InspectorError) -> Inspector {
        try Inspector.start(name: name, directory: InspectorDirectory.path(environment: environment))
    }
}

extension DashboardEnvironment {
    /// Registers the dashboard's machines with `inspector`: every transfer (by its name), the upload and the
    /// load machine, the last two with the sample events `statetui graph` explores.
    package func register(in inspector: Inspector) {
        for transfer in runtime(TransfersFeature.self).transfers {
            inspector.register(transfer.machine.engine)
        }
        inspector.register(runtime(UploadFeature.self).machine.engine, sampleEvents: UploadState.sampleEvents)
        inspector.register(runtime(LoadFeature.self).machine.engine, sampleEvents: LoadState.sampleActions)
    }
}
