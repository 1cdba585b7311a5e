import GPSSystem
import GPSLocation
import GPSMQTT

/// The `gpsfix` command line: picks a command from the table and runs it.
public enum GPSFixCLI {
    public static let version = "0.1.0"

    /// Exit status: 0 success, 1 runtime failure (no fix, unreadable input, output that could
    /// not be written), 64 usage error, 128 + N when signal N interrupted a command before it
    /// could do its job (130 for Ctrl-C, 143 for SIGTERM).
    public static func main(_ argv: [String]) -> Int32 {
        // A closed pipe (`gpsfix watch | head`) should end the run quietly, not kill it mid-write.
        ProcessSignals.ignore(.brokenPipe)
        // A file grown to the size limit (`ulimit -f`) should fail its write with EFBIG, which
        // is reported, rather than kill the run with SIGXFSZ and a core dump.
        ProcessSignals.ignore(.fileSizeLimit)
        StandardDescriptors.occupyClosed()
        // A parent may have started us with signals blocked (children of Dispatch threads
        // inherit their mask): Ctrl-C and SIGTERM must still reach us.
        ProcessSignals.unblockAll()
        return run(Array(argv.dropFirst()), terminal: Terminal())
    }

    /// Runs `main` and ends the process with its status: the executable's whole body.
    public static func runAndExit(_ argv: [String]) -> Never {
        ProcessExit.exit(main(argv))
    }

    static func run(_ arguments: [String], terminal: Terminal) -> Int32 {
        settle(dispatch(arguments, terminal: terminal), terminal: terminal)
    }

    /// Output that could not be written decides the status, whatever the command thought of
    /// its run: a log that lost lines must not look complete. A reader that went away is the
    /// exception: `gpsfix watch | head -1` got what it asked for.
    private static func settle(_ status: Int32, terminal: Terminal) -> Int32 {
        terminal.out.flush()
        guard let failure = terminal.out.failure, !failure.readerWentAway else { return status }
        terminal.error(failure.message)
        return status == 0 ? 1 : status
    }

    private static func dispatch(_ arguments: [String], terminal: Terminal) -> Int32 {
        var arguments = arguments
        let first = arguments.first
        // -V as gpsd's tools (gpspipe, cgps, gpsd itself) take it.
        if first == "--version" || first == "-V" || first == "version" {
            terminal.print("gpsfix \(version)\n")
            return 0
        }
        if first == "--man" {
            guard arguments.count == 1 else {
                terminal.error("--man takes nothing more: 'gpsfix --man | man -l -' reads the page.")
                return 64
            }
            terminal.print(ManPage.text)
            return 0
        }
        if first == nil || first == "--help" || first == "-h" || first == "help" {
            if first == "help", arguments.count > 1, let command = Commands.named(arguments[1]) {
                terminal.print(command.help)
                return 0
            }
            if first == nil {
                // No arguments at all is `gpsfix fix`: the one thing most people came to do.
                return execute(Commands.fix, [], terminal: terminal)
            }
            terminal.print(overview)
            return 0
        }
        let command: Command
        if let named = Commands.named(first!) {
            command = named
            arguments.removeFirst()
        } else if first!.hasPrefix("-") {
            command = Commands.fix
        } else {
            terminal.error("unknown command '\(first!)'. Commands: \(Commands.all.map(\.name).joined(separator: ", ")); see 'gpsfix --help'.")
            return 64
        }
        return execute(command, arguments, terminal: terminal)
    }

    private static func execute(_ command: Command, _ arguments: [String], terminal: Terminal) -> Int32 {
        do {
            let parsed = try ArgumentParser.parse(arguments, options: command.options, positionals: command.positionals)
            if parsed.wantsHelp {
                terminal.print(command.help)
                return 0
            }
            return try command.run(parsed, terminal)
        } catch let error as UsageError {
            terminal.error("\(command.name): \(error.message)\nUsage: \(command.usage)\nSee 'gpsfix \(command.name) --help'.")
            return 64
        } catch let interruption as Interrupted {
            terminal.error(interruption.message)
            return interruption.status
        } catch LocationError.writeFailed(let failure) {
            terminal.error(failure.message)
            return 1
        } catch let error as LocationError {
            terminal.error(Advice.message(for: error))
            return 1
        } catch let error as MQTTError {
            terminal.error(MQTTOptions.message(for: error))
            return 1
        } catch {
            terminal.error("\(error)")
            return 1
        }
    }
}
