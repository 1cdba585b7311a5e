@testable import GPSFixCLI
import Testing

/// Usage lines are made from each command's option table (`UsageLine.swift`), as help, the
/// man page and the completions are: an option a command accepts is never missing from them.
@Suite("Usage lines")
struct UsageLineTests {
    /// The option names a usage text shows, as words (`[--device`, `--baud`, `--mqtt-in`…).
    private func shown(_ usage: String) -> Set<String> {
        let words = usage.split { " []|…\n".contains($0) }
        return Set(words.filter { $0.hasPrefix("-") }.map(String.init))
    }

    @Test("Every option a command accepts (and does not hide) is in its usage, once per line at most", arguments: Commands.all.map(\.name))
    func complete(_ name: String) throws {
        let command = try #require(Commands.named(name))
        let accepted = Set(command.options.filter { !$0.isHidden }.map(\.name))
        #expect(accepted.subtracting(shown(command.usage)).isEmpty, "\(name)'s usage leaves out \(accepted.subtracting(shown(command.usage)).sorted())")
        #expect(shown(command.usage).subtracting(accepted).isEmpty, "\(name)'s usage shows what it does not take")
        for line in command.usage.split(separator: "\n") {
            let words = line.split { " []|…".contains($0) }.filter { $0.hasPrefix("-") }
            #expect(words.count == Set(words).count, "\(name): an option shown twice in '\(line)'")
        }
    }

    @Test("The lines issue 18 found drifted now show what the commands take: --nmea-tcp for fix and record, --mqtt-in for serve")
    func drifted() throws {
        #expect(Commands.fix.usage.contains("--nmea-tcp HOST:PORT"))
        #expect(Commands.record.usage.contains("--nmea-tcp HOST:PORT"))
        #expect(Commands.serve.usage.contains("--mqtt-in URL [--mqtt-max-vehicles N]"))
    }

    @Test("Sources are one choice, repeated where several are read; a value's options sit inside its brackets")
    func shape() {
        #expect(Commands.fix.usage == "gpsfix [fix] [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --nmea-tcp HOST:PORT | --replay FILE [--speed X|max] [--loop]] [--simulated] [--timeout S] [--json]")
        #expect(Commands.watch.usage.hasPrefix("gpsfix watch [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --nmea-tcp HOST:PORT | --replay FILE [--speed X|max] [--loop] | --mqtt URL [--mqtt-max-vehicles N]"))
        #expect(Commands.watch.usage.contains("]… [--simulated] [--json | --nmea | --gpx | --view] [-n N] [-t]"))
        #expect(Commands.serve.usage.contains("[--listen [ADDR:]PORT | --no-listen]"))
        #expect(Commands.devices.usage == "gpsfix devices [--no-probe]")
        #expect(Commands.completion.usage == "gpsfix completion bash|zsh")
    }

    @Test("record has its two lines: a receiver's bytes (a port's or a TCP stream's) to FILE, or any source's fixes to --gpx FILE")
    func recordForms() {
        let lines = Commands.record.usage.split(separator: "\n").map { $0.drop { $0 == " " } }
        #expect(lines.count == 2)
        #expect(lines.first == "gpsfix record FILE [--device PATH [--baud N] | --nmea-tcp HOST:PORT] [--simulated] [--force]")
        #expect(lines.last?.hasPrefix("gpsfix record --gpx FILE [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --nmea-tcp HOST:PORT | --replay FILE") == true)
    }

    @Test("Options placed inside a parent the line does not show stand on their own")
    func orphan() {
        let command = Command(name: "x", summary: "", options: [.flag("--a", "").inside("--gone"), .value("--b", "N", "").among("c")],
                              positionals: 0, details: "", run: { _, _ in 0 })
        #expect(command.usage == "gpsfix x [--a] [--b N]")
    }
}
