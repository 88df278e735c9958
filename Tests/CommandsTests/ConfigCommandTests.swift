import Commands
import DashboardApp
import TerminalUI
import Testing

/// Where the configuration comes from, `statetui config`, and a bad file stopping the dashboard with status 2.
@Suite struct ConfigCommandTests {
    @Test(
        arguments: [
            (["XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/x/statetui/config.toml"),
            (["XDG_CONFIG_HOME": "relative", "HOME": "/h"], "/h/.config/statetui/config.toml"),
            (["XDG_CONFIG_HOME": "", "HOME": "/h"], "/h/.config/statetui/config.toml"),
            (["HOME": "/h"], "/h/.config/statetui/config.toml"),
            ([:], nil),
        ] as [([String: String], String?)])
    func theUsualFileFollowsXDG(environment: [String: String], path: String?) {
        #expect(ConfigFile.defaultPath(environment: environment) == path)
    }

    @Test func aMissingUsualFileMeansTheDefaultsButAMissingNamedFileIsAnError() throws {
        let memory = MemoryIO()
        #expect(try ConfigFile.load(explicit: nil, io: memory.io, environment: ["HOME": "/h"]) == DashboardConfig())
        #expect(throws: ConfigError(line: 0, "no such file", file: "/n.toml")) {
            try ConfigFile.load(explicit: "/n.toml", io: memory.io, environment: ["HOME": "/h"])
        }
    }

    @Test func aBadFileStopsTheDashboardWithStatusTwoNamingFileAndLine() async {
        let memory = MemoryIO(files: ["c.toml": .success("[keys]\n\nquit = \"nope\"\n")])
        #expect(await memory.run(["--config", "c.toml"]) == 2)
        #expect(memory.dashboards == [])
        #expect(
            memory.error == "statetui: c.toml:3: unknown key 'nope' for quit: expected \(KeyAction.keyNames)\n")
    }

    @Test func anUnreadableFileStopsTheDashboardToo() async {
        let memory = MemoryIO(files: ["d": .failure(CommandIO.ReadError("is a directory"))])
        #expect(await memory.run(["--config", "d"]) == 2)
        #expect(memory.error == "statetui: d: is a directory\n")
    }

    @Test func configDefaultPrintsTheCommentedDefaults() async {
        let memory = MemoryIO()
        #expect(await memory.run(["config", "--default"]) == 0)
        #expect(memory.output == DashboardConfig.defaultFile)
        #expect(memory.error == "")
    }

    @Test func configChecksTheNamedFile() async {
        let memory = MemoryIO(files: [
            "ok.toml": .success("[theme]\nname = \"light\"\n"), "bad.toml": .success("[x]\n"),
        ])
        #expect(await memory.run(["config", "--config", "ok.toml"]) == 0)
        #expect(memory.output == "ok.toml: ok\n")
        #expect(await memory.run(["config", "--config", "bad.toml"]) == 2)
        #expect(
            memory.error
                == "statetui: bad.toml:1: unknown table [x]: expected [keys], [theme], [copy] or [clipboard]\n")
    }
}
