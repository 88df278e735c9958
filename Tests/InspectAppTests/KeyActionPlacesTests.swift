import DashboardApp
import InspectApp
import TerminalUI
import Testing

/// The `[keys]` vocabulary names real bindings in each of its places: everywhere and on each of the dashboard's
/// screens, and on `statetui inspect`'s tabs.
@Suite struct KeyActionPlacesTests {
    /// The keys and help of every binding of the tables of `place`.
    static func table(_ place: KeyAction.Place) -> [(keys: [Key], help: KeyHelp)] {
        switch place {
        case .everywhere: Keymap.globalBindings.map { ($0.keys, $0.help) }
        case .screen(let screen): Keymap.bindings(for: screen).map { ($0.keys, $0.help) }
        case .inspect: InspectTab.allCases.flatMap { InspectFeature.bindings(on: $0) }.map { ($0.keys, $0.help) }
        }
    }

    @Test func everyActionNamesABindingInEachOfItsPlaces() {
        var missing: [String] = []
        for action in KeyAction.all {
            for place in action.places
            where !Self.table(place).contains(where: {
                $0.keys == action.defaultKeys && KeyAction.naming($0.keys, help: $0.help, in: place) == action
            }) {
                missing.append("\(action.name) in \(place.title)")
            }
        }
        #expect(missing == [])
    }
}
