// The code of the "Testing a machine step by step" article; see GettingStartedSnippets.swift for the markers.

import StateMachineKit
import StateMachineTesting
import Testing

// snippet: payment-model
enum Payment: Hashable, Sendable {
    case cart
    case paying(attempt: Int)
    case declined(attempt: Int)
    case paid

    var isPaying: Bool {
        if case .paying = self { true } else { false }
    }
}

enum PaymentEvent: Hashable, Sendable {
    case pay, approved, refused, retry, cancel, receipt
}

let retryLater = StateTimeout<PaymentEvent>(after: .seconds(30), send: .retry)

func payment(_ state: Payment, _ event: PaymentEvent) -> Transition<Payment, PaymentEvent> {
    switch (state, event) {
    case (.cart, .pay): .to(.paying(attempt: 1))
    case (.paying, .approved): .to(.paid)
    case (.paying(let attempt), .refused): .to(.declined(attempt: attempt), timeout: retryLater)
    case (.declined(let attempt), .retry): .to(.paying(attempt: attempt + 1))
    case (.paying, .cancel), (.declined, .cancel): .to(.cart)
    // A receipt asked for mid-payment waits for the payment to end.
    case (.paying, .receipt), (.declined, .receipt): .postpone
    case (.paid, .receipt): .stay
    case (.cart, _), (.paying, _), (.declined, _), (.paid, _): .ignore
    }
}

/// The gateway of a test: each charge gets the next scripted answer.
actor ScriptedGateway {
    private var answers: [PaymentEvent]

    init(answers: [PaymentEvent]) { self.answers = answers }

    func charge() -> PaymentEvent { answers.removeFirst() }
}
// end snippet

@Suite struct MachineTesterSnippets {
    /// A payment machine on `clock` whose charges `gateway` answers.
    static func paymentMachine(_ clock: TestClock, _ gateway: ScriptedGateway) -> StateMachine<Payment, PaymentEvent> {
        // snippet: payment-machine
        let machine = StateMachine(
            initial: Payment.cart, label: "payment", clock: AnyClock(clock), transition: payment)
        machine.whileIn(where: \.isPaying, label: "charge") { sender in
            sender.send(await gateway.charge())
        }
        // end snippet
        return machine
    }

    @Test func aRefusedPaymentRetriesAndTheReceiptWaits() async {
        let clock = TestClock()
        let gateway = ScriptedGateway(answers: [.refused, .approved])
        let machine = Self.paymentMachine(clock, gateway)
        // snippet: payment-tester
        let tester = MachineTester(machine)

        tester.send(.pay, .moved, .paying(attempt: 1))
        await tester.receive(.refused, .moved, .declined(attempt: 1))  // the gateway's answer
        tester.send(.receipt, .postponed, .declined(attempt: 1))

        clock.advance(by: .seconds(30))  // the state timeout fires
        await tester.receive(.retry, .moved, .paying(attempt: 2))
        await tester.receive(.receipt, .postponed, .paying(attempt: 2))  // retried after the move
        await tester.receive(.approved, .moved, .paid)
        await tester.receive(.receipt, .stayed, .paid)
        tester.finish()
        // end snippet
    }

    /// What the article shows when a test forgets the gateway's answer.
    static func forgottenAnswerMessage() throws -> String {
        let blocks = try ArticleSnippetTests.blocks(of: "StateMachineTesting.docc/TestingAMachineStepByStep.md")
        return try #require(blocks.first { $0.language == "text" }).text
    }

    @Test func aForgottenReceiveFailsTheNextSendAsTheArticleShows() async throws {
        let printed = try Self.forgottenAnswerMessage()
        let clock = TestClock()
        let machine = Self.paymentMachine(clock, ScriptedGateway(answers: [.refused]))
        let tester = MachineTester(machine)
        tester.send(.pay, .moved, .paying(attempt: 1))
        for await state in machine.states() where state == .declined(attempt: 1) { break }
        withKnownIssue {
            // snippet: payment-forgotten
            tester.send(.cancel, .moved, .cart)
            // end snippet
        } matching: { issue in
            issue.comments.map(\.rawValue) == [printed]
        }
        tester.finish()
    }
}
