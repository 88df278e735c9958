// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "statetui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
        .library(name: "ScreenStates", targets: ["ScreenStates"]),
        .executable(name: "statetui", targets: ["statetui"]),
    ],
    targets: [
        .target(name: "StateMachineKit"),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit"]),
        .target(name: "ScreenStates", dependencies: ["StateMachineKit"]),
        .testTarget(name: "ScreenStatesTests", dependencies: ["ScreenStates", "StateMachineKit"]),
        .target(name: "StateTUI", dependencies: ["ScreenStates", "StateMachineKit"]),
        .executableTarget(name: "statetui", dependencies: ["StateTUI"]),
        // Depends on the executable so `swift test` builds the binary the end-to-end replay tests run.
        .testTarget(name: "StateTUITests", dependencies: ["StateTUI", "ScreenStates", "statetui"]),
    ],
    swiftLanguageModes: [.v6]
)
