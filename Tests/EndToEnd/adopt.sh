#!/usr/bin/env bash
# Adoption by version, as another package does it: the repository's tree is committed and tagged 0.1.0, and a small
# consumer package that depends on it with `.package(url: "file://…", from: "0.1.0")` is built, run and tested. Its
# manifest is the one the "Adopting StateMachineKit" article shows. The consumer uses every library product a user
# adopts — StateMachineKit, StateMachineMacros (the @StateMachine macro, whose plugin is built from the toolchain's
# SwiftSyntax) and StateMachineInspector in its program, StateMachineTesting in its tests — so a manifest setting SwiftPM refuses in a versioned dependency (unsafe flags under an old tools version), or a
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
mkdir -p "$consumer/Sources/Kettles" "$consumer/Tests/KettlesTests"
# The manifest is the one "Adopting StateMachineKit" shows (its one ```swift block that starts with the tools
# version), pointed at the release: what the article tells an adopter to write is what is built here.
article="$work/statetui/Sources/StateMachineKit/StateMachineKit.docc/AdoptingStateMachineKit.md"
awk '/^```swift$/ { inblock = 1; text = ""; next }
    /^```$/ { if (inblock && text ~ /^\/\/ swift-tools-version:/) { printf "%s", text; exit } inblock = 0; next }
    inblock { text = text $0 "\n" }' "$article" | sed "s|https://…/statetui|file://$work/statetui|" >"$consumer/Package.swift"
grep -q "file://$work/statetui" "$consumer/Package.swift" || fail "no manifest pointing at the release in $article"
cat >"$consumer/Sources/Kettles/main.swift" <<'EOF'
import StateMachineInspector
import StateMachineKit
import StateMachineMacros

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
# The test target: a model check, MachineTester stepping a machine with work and a state timeout, and a tester
# that must fail, naming the record a test forgot.
cat >"$consumer/Tests/KettlesTests/KettleTests.swift" <<'EOF'
import StateMachineKit
import StateMachineTesting
import Testing

enum Kettle: Hashable, Sendable { case cold, heating, boiled }
enum KettleEvent: Hashable, Sendable { case switchOn, boil, switchOff, pour }

func kettle(_ state: Kettle, _ event: KettleEvent) -> Transition<Kettle, KettleEvent> {
    switch (state, event) {
    case (.cold, .switchOn): .to(.heating)
    case (.heating, .boil): .to(.boiled, timeout: StateTimeout(after: .seconds(60), send: .switchOff))
    case (.heating, .switchOff), (.boiled, .switchOff): .to(.cold)
    case (.heating, .pour): .postpone
    case (.boiled, .pour): .stay
    case (.cold, _), (.heating, _), (.boiled, _): .ignore
    }
}

/// A kettle whose element boils the water as soon as it heats, on `clock`.
func kettleMachine(_ clock: TestClock) -> StateMachine<Kettle, KettleEvent> {
    let machine = StateMachine(initial: Kettle.cold, label: "kettle", clock: AnyClock(clock), transition: kettle)
    machine.whileIn(.heating, label: "element") { sender in sender.send(.boil) }
    return machine
}

@Test func theModelHolds() {
    expectModel(
        from: Kettle.cold, events: [.switchOn, .boil, .switchOff, .pour], transition: kettle,
        invariant: { _ in true }, seed: 1)
}

@Test func everyRecordIsAsserted() async {
    let clock = TestClock()
    let tester = MachineTester(kettleMachine(clock))
    tester.send(.switchOn, .moved, .heating)
    await tester.receive(.boil, .moved, .boiled)
    tester.send(.pour, .stayed, .boiled)
    clock.advance(by: .seconds(60))
    await tester.receive(.switchOff, .moved, .cold)
    tester.finish()
}

@Test func aForgottenRecordFails() async {
    let tester = MachineTester(kettleMachine(TestClock()))
    tester.send(.switchOn, .moved, .heating)
    for await state in tester.machine.states() where state == .boiled { break }
    withKnownIssue {
        tester.finish()
    } matching: { issue in
        issue.comments.map(\.rawValue).first?.contains("await tester.receive(.boil, .moved, .boiled)") == true
    }
}
EOF

if ! (cd "$consumer" && "$SWIFT" build >"$work/build.log" 2>&1); then
    cat "$work/build.log" >&2
    fail "a package depending on statetui from: 0.1.0 does not build"
else
    pass "a package depending on a tagged statetui builds with all four library products"
    # The exit status goes into the message: a run that fails without printing anything (as one CI run did,
    # once) is otherwise reported with nothing to go on.
    status=0
    output=$(cd "$consumer" && "$SWIFT" run --skip-build Kettles "$work/sockets" 2>&1) || status=$?
    [ "$status" -eq 0 ] || fail "the consumer failed to run (exit status $status): $output"
    expected="coin: moved, push: moved, state: locked
graph: 2 states
inspector: registered true"
    [ "$output" = "$expected" ] || fail "the consumer printed:
$output
expected:
$expected"
    [ "$output" = "$expected" ] && pass "the consumer runs the macro's machine, a graph and an inspector"
    if (cd "$consumer" && "$SWIFT" test >"$work/test.log" 2>&1); then
        pass "the consumer's tests pass: a model check and MachineTester, which fails on a forgotten record"
    else
        cat "$work/test.log" >&2
        fail "the consumer's tests (StateMachineTesting: expectModel, MachineTester) failed"
    fi
fi
finish "a tagged version is adoptable"
