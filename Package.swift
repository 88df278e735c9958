// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "statetui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
        .library(name: "ScreenStates", targets: ["ScreenStates"]),
    ],
    targets: [
        .target(name: "StateMachineKit"),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit"]),
        .target(name: "ScreenStates", dependencies: ["StateMachineKit"]),
        .testTarget(name: "ScreenStatesTests", dependencies: ["ScreenStates", "StateMachineKit"]),
    ],
    swiftLanguageModes: [.v6]
)
