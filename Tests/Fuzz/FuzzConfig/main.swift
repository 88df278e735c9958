import Commands
import FuzzDriver

/// libFuzzer's entry, called once per input: ``FuzzTarget/config`` holds the parser's side.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = FuzzTarget.config.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

statetui_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzz)
