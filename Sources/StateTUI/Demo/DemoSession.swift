import ScreenStates
import StateMachineKit
import TerminalUI

/// The dashboard as a demo plays it: the real environment with every clock under the script's control — the
/// transfers' machines on a ``TestClock``, the upload task and the load server on a ``ManualScheduler`` — and
/// fixed seeds, so a script gives the same frames on every run.
public struct DemoSession: Sendable {
    /// The environment the app runs on.
    public let environment: DashboardEnvironment
    /// The transfers' clock.
    public let clock: TestClock
    /// The upload task's and the load server's scheduler.
    public let scheduler: ManualScheduler

    /// How far simulated time moves between two looks at the world during a `sleep`.
    public static let slice: Duration = .milliseconds(50)

    /// A session with everything seeded from `seed`; Mermaid files go to `directory`.
    public init(seed: UInt64 = 1, directory: String? = nil) {
        let clock = TestClock()
        let scheduler = ManualScheduler()
        self.clock = clock
        self.scheduler = scheduler
        environment = DashboardEnvironment(
            transfers: TransfersRuntime(clock: AnyClock(clock), seed: seed),
            upload: UploadOwner(scheduler: scheduler, random: SeededRandom(seed: seed)),
            load: LoadEffectRunner(server: LoadServer(scheduler: scheduler)),
            graph: directory.map(GraphEffectRunner.init(directory:)) ?? GraphEffectRunner())
    }

    /// The app and hooks a ``DemoRunner`` drives.
    public var host: DemoHost<AppState, AppAction, AppEffect> {
        let environment = self.environment
        let clock = self.clock
        let scheduler = self.scheduler
        let connection = Connection()
        return DemoHost(
            app: Dashboard.app(environment, subscriptions: false),
            connect: { send in
                connection.send.withLock { $0 = send }
                environment.connect(send)
            },
            advance: { duration in
                var remaining = duration
                while remaining > .zero {
                    let step = min(remaining, Self.slice)
                    scheduler.advance(by: step)
                    clock.advance(by: step)
                    await Self.settle(environment, clock: clock)
                    remaining -= step
                }
            },
            settle: {
                await Self.settle(environment, clock: clock)
                if let send = connection.send.withLock({ $0 }) { environment.snapshotTransfers(send) }
            })
    }

    private final class Connection: Sendable {
        let send = Locked<Send<AppAction>?>(nil)
    }

    /// Waits until every running transfer's worker is asleep on the test clock again and the number of
    /// sleepers has stopped changing for a few turns (a cancelled worker's late callback registers its own
    /// sleep shortly after), so what the workers report is in the machines before the next frame.
    static func settle(_ environment: DashboardEnvironment, clock: TestClock) async {
        var stableTurns = 0
        var lastCount = -1
        for _ in 0..<5_000 {
            await Task.yield()
            let running = environment.transfers.transfers.filter { $0.machine.state.isRunning }.count
            let sleeping = clock.pendingSleeps
            if sleeping >= running && sleeping == lastCount {
                stableTurns += 1
                if stableTurns >= 4 { return }
            } else {
                stableTurns = 0
            }
            lastCount = sleeping
            try? await Task.sleep(for: .microseconds(100))
        }
    }
}
