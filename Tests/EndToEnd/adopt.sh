#!/usr/bin/env bash
# Adoption by version, as another package does it: the repository's tree is committed and tagged 0.1.0, and a small
# consumer package that depends on it with `.package(url: "file://…", from: "0.1.0")` is built and run. The
# consumer uses every library product a user adopts — StateMachineKit, StateMachineTesting, StateMachineMacros
# (the @StateMachine macro, whose plugin is built from the toolchain's SwiftSyntax) and StateMachineInspector —
# so a manifest setting SwiftPM refuses in a versioned dependency (unsafe flags under an old tools version), or a
# product that does not build from outside, fails here. Only committed files are in the release: commit first.
name=adopt
build=no
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# The repository's committed tree in a repository of its own, committed and tagged: what a consumer fetches
# from a release. Made from `git archive` rather than a clone, so a shallow checkout (as CI may have) serves too.
mkdir "$work/statetui"
git archive HEAD | tar -x -C "$work/statetui" || fail "git archive of the repository failed"
git -C "$work/statetui" init --quiet &&
    git -C "$work/statetui" add --all &&
    git -C "$work/statetui" -c user.name=adopt -c user.email=adopt@localhost commit --quiet \
        -m "statetui at $(git rev-parse --short HEAD)" &&
    git -C "$work/statetui" tag 0.1.0 || fail "committing and tagging the release repository failed"

consumer="$work/consumer"
mkdir -p "$consumer/Sources/consumer"
cat >"$consumer/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://$work/statetui", from: "0.1.0")],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [
                .product(name: "StateMachineKit", package: "statetui"),
                .product(name: "StateMachineTesting", package: "statetui"),
                .product(name: "StateMachineMacros", package: "statetui"),
                .product(name: "StateMachineInspector", package: "statetui"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat >"$consumer/Sources/consumer/main.swift" <<'EOF'
import StateMachineInspector
import StateMachineKit
import StateMachineMacros
import StateMachineTesting

/// A turnstile written with the macro's table.
@StateMachine
enum Turnstile {
    enum State: Hashable, Sendable { case locked, unlocked }
    enum Event: Hashable, Sendable { case coin, push }

    static let table = Table(
        initial: .locked, unlisted: .ignore,
        rows: [
            .on(.locked, .coin, to: .unlocked),
            .on(.unlocked, .push, to: .locked),
            .on(.unlocked, .coin, .invalid("already paid")),
        ])
}

let machine = StateMachine(initial: Turnstile.State.locked, label: "turnstile", transition: Turnstile.transition)
print("coin: \(machine.send(.coin)), push: \(machine.send(.push)), state: \(machine.state)")

let counterexample = checkModel(
    from: Turnstile.State.locked, events: [Turnstile.Event.coin, .push], transition: Turnstile.transition,
    invariant: { _ in true }, seed: 1)
print("model: \(counterexample == nil ? "holds" : "fails")")

let graph = StateGraph.explore(from: Turnstile.State.locked, events: [.coin, .push], transition: Turnstile.transition)
print("graph: \(graph.states.count) states")

// The socket directory the script names, so nothing is left behind.
let directory = CommandLine.arguments[1]
do {
    let inspector = try Inspector.start(name: "consumer", directory: directory)
    print("inspector: registered \(inspector.register(machine))")
    inspector.stop()
} catch {
    print("inspector: \(error)")
}
machine.stop()
EOF

if ! (cd "$consumer" && "$SWIFT" build >"$work/build.log" 2>&1); then
    cat "$work/build.log" >&2
    fail "a package depending on statetui from: 0.1.0 does not build"
else
    pass "a package depending on a tagged statetui builds with all four library products"
    output=$(cd "$consumer" && "$SWIFT" run --skip-build consumer "$work/sockets" 2>&1) || fail "the consumer failed to run: $output"
    expected="coin: moved, push: moved, state: locked
model: holds
graph: 2 states
inspector: registered true"
    [ "$output" = "$expected" ] || fail "the consumer printed:
$output
expected:
$expected"
    [ "$output" = "$expected" ] && pass "the consumer runs the macro's machine, a model check, a graph and an inspector"
fi
finish "a tagged version is adoptable"
