import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import TerminalUI

/// The Upload screen in the dashboard (seed 001): the upload machine on the world's clock, its simulated task
/// on the world's scheduler, drawing from the world's seed.
extension UploadFeature: DashboardScreen {
    package static let title = "Upload"

    package static func makeRuntime(_ world: World, machines: [NamedMachine]) -> UploadRuntime {
        UploadRuntime(
            owner: UploadOwner(
                machine: UploadMachine(clock: world.clock.machineClock), scheduler: world.clock,
                random: SplitMix64(seed: world.seed)))
    }

    package static func machines(_ runtime: UploadRuntime) -> [NamedMachine] {
        [NamedMachine(name: "upload", screen: .upload, runtime.machine.engine)]
    }

    package static func initialState(
        _ runtime: UploadRuntime, mode: DashboardMode, machines: [NamedMachine]
    ) -> UploadScreenState {
        UploadScreenState()
    }

    package static func subscriptions(
        _ runtime: UploadRuntime, _ state: UploadScreenState, shown: Bool
    ) -> [Subscription<UploadScreenAction>] {
        feed(runtime).subscriptions(states: { .uploadChanged($0) }, records: { .recordsChanged($0) })
    }

    package static func statusMessages(_ state: UploadScreenState) -> [(id: String, expired: UploadScreenAction)] {
        state.notice.message.map { [("upload.notice.\($0.number)", .noticeExpired($0))] } ?? []
    }

    package static func perform(
        _ effect: UploadScreenEffect, on runtime: UploadRuntime, send: Send<UploadScreenAction>
    ) {
        runtime.run(effect, send: send)
    }

    /// The screen shows the machine's current state and newest record, and the task its visit asks for has
    /// begun.
    package static func isSettled(_ state: UploadScreenState, _ runtime: UploadRuntime, shown: Bool) -> Bool {
        runtime.isSetUp && feed(runtime).isShown(state.upload, lastSequence: state.tally.lastSequence)
    }

    private static func feed(_ runtime: UploadRuntime) -> MachineFeed<UploadState, UploadEvent> {
        MachineFeed("upload", runtime.machine.engine)
    }

    package static func stop(_ runtime: UploadRuntime) {
        runtime.machine.engine.stop()
    }
}

extension Screen {
    /// The Upload screen.
    package static let upload = Screen(UploadFeature.self)
}
