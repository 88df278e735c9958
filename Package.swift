// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "statetui",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateMachineKit", targets: ["StateMachineKit"]),
        .library(name: "StateMachineTesting", targets: ["StateMachineTesting"]),
    ],
    targets: [
        .target(name: "StateMachineKit"),
        .target(name: "StateMachineTesting", dependencies: ["StateMachineKit"]),
        .executableTarget(
            name: "Benchmarks", dependencies: ["StateMachineKit", "StateMachineTesting"]),
        .testTarget(name: "StateMachineKitTests", dependencies: ["StateMachineKit"]),
        .testTarget(
            name: "StateMachineTestingTests", dependencies: ["StateMachineTesting", "StateMachineKit"]),
    ],
    swiftLanguageModes: [.v6]
)
