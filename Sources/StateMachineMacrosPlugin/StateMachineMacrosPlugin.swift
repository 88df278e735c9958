#if STATEMACHINE_MACROS_NO_HOST_SYNTAX
#error(
    "StateMachineMacrosPlugin needs the toolchain's SwiftSyntax (lib/swift/host next to swiftc); Package.swift found none"
)
#else
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler-plugin executable. The toolchain ships no `SwiftCompilerPlugin` module, so the entry point
/// is written directly on the message-handling layer it does ship: the compiler talks JSON over stdin and
/// stdout, and `CompilerPluginMessageListener` answers with the macros `MacroCatalog` names.
@main
struct StateMachineMacrosPlugin {
    static func main() throws {
        let connection = try StandardIOMessageConnection()
        let listener = CompilerPluginMessageListener(connection: connection, provider: MacroCatalog())
        try listener.main()
    }
}

/// The macros this plugin provides, looked up by the type name in `#externalMacro(module:type:)`.
struct MacroCatalog: PluginProvider {
    /// The type names this plugin answers to.
    static let typeNames = ["StateMachineMacro"]

    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        switch typeName {
        case "StateMachineMacro": StateMachineMacro.self
        default: throw UnknownMacro(moduleName: moduleName, typeName: typeName)
        }
    }
}

/// The compiler asked for a macro type this plugin does not define.
struct UnknownMacro: Error, CustomStringConvertible {
    let moduleName: String
    let typeName: String

    var description: String {
        "\(moduleName).\(typeName) is not a macro of StateMachineMacrosPlugin (it has: "
            + MacroCatalog.typeNames.joined(separator: ", ") + ")"
    }
}
#endif
