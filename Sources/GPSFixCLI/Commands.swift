/// A command of `gpsfix`: its name, its table of options, and what it does.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    let options: [OptionSpec]
    let positionals: Int
    let details: String
    let run: @Sendable (ParsedArguments, Terminal) throws -> Int32

    var help: String {
        var text = "\(summary)\n\nUsage: \(usage)\n"
        if !details.isEmpty { text += "\n\(details)\n" }
        if !options.isEmpty {
            text += "\nOptions:\n"
            let width = options.filter({ !$0.isHidden }).map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
            for o in options.filter({ !$0.isHidden }) + [.flag("--help", "Show this help.")] {
                let left = o.name + (o.value.map { " " + $0 } ?? "")
                text += "  " + left + String(repeating: " ", count: max(2, width - left.count + 2)) + o.help + "\n"
            }
        }
        return text
    }
}

/// Source options shared by every command that reads fixes.
let deviceOptions: [OptionSpec] = [
    .value("--device", "PATH", "The receiver's serial port (default: the first GPS found; see 'gpsfix devices')."),
    .value("--baud", "N", "Its baud rate (default: found automatically; USB CDC-ACM ports need none)."),
]

let sourceOptions: [OptionSpec] = deviceOptions + [
    .optionalValue("--gpsd", "[HOST[:PORT]]", "Read through a running gpsd (default 127.0.0.1:2947)."),
    .value("--nmea-tcp", "HOST:PORT", "Read NMEA that a receiver or app serves over TCP (an RTK board, a phone's NMEA server); reconnects when the stream drops."),
    .value("--replay", "FILE", "Read a recorded capture (gpsfake format) instead of a receiver; '-' reads standard input, and a pipe or FIFO is replayed as it arrives."),
    .value("--speed", "X|max", "Replay at X times the capture's own pace, or as fast as possible (default 1; for fix: max)."),
    .flag("--loop", "Start the capture again when it ends (a file only: a pipe or FIFO is read once)."),
    .flag("--simulated", "Take a receiver's simulator or demo output (GGA quality 8, mode S) as fixes; by default it is no fix."),
]

enum Commands {
    static let all: [Command] = [fix, watch, record, serve, devices]

    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    static let watch = Command(
        name: "watch",
        summary: "Print fixes as they arrive.",
        usage: "gpsfix watch [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --replay FILE [--speed X|max] [--loop] | --mqtt URL] [--json | --nmea | --gpx | --view] [-n N] [-t]",
        options: sourceOptions + MQTTOptions.watch + OutputFormat.watchOptions + [
            .value("-n", "N", "Stop after N reports (lines; with --gpx, track points), as 'gpspipe -n' does."),
            .flag("-t", "Prefix each line with the local time it was written ('2026-11-30 07:10:00: '), as 'gpspipe -t' does."),
        ],
        positionals: 0,
        details: "Without --json, one readable line per epoch: time, latitude and longitude in degrees,\naltitude (MSL), speed, course, mode and satellites used. A replay ends when the capture\ndoes; a receiver is watched until Ctrl-C, through unplugging and plugging in again.",
        run: { args, terminal in try WatchCommand(args: args, terminal: terminal).run() }
    )

    static let fix = Command(
        name: "fix",
        summary: "Print the first fix and exit (the default command).",
        usage: "gpsfix [fix] [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --replay FILE] [--timeout S] [--json]",
        options: sourceOptions + [
            .value("--timeout", "S", "Give up after S seconds without a fix (default 30)."),
        ] + OutputFormat.fixOptions,
        positionals: 0,
        details: "Exits 0 with the fix, or 1 with the reason there is none; 130 when Ctrl-C (143 when\nSIGTERM) ends the wait.",
        run: { args, terminal in try FixCommand(args: args, terminal: terminal).run() }
    )

    static let record = Command(
        name: "record",
        summary: "Record a receiver's output to a capture file (gpsfake format), or its fixes to a GPX track.",
        usage: "gpsfix record FILE [--device PATH] [--baud N] [--force]\n       gpsfix record --gpx FILE [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --replay FILE [--speed X|max] [--loop]] [--force]",
        options: sourceOptions + OutputFormat.recordOptions + [
            .flag("--force", "Overwrite FILE if it exists."),
        ],
        positionals: 1,
        details: "Writes a header (device, by-id name, baud, start time, gpsfix version), then every byte\nexactly as read, to disk as it arrives: Ctrl-C, SIGTERM or an unplug lose nothing.\nReplay it with 'gpsfix watch --replay FILE'.\n\nWith --gpx, writes a GPX track instead: one <trkseg> per unbroken run of fixes, each\n<trkpt> with elevation above mean sea level, time, fix type, satellites and DOPs. Each\npoint reaches the disk as it comes; Ctrl-C, SIGTERM or the end of a replay close the\ndocument, so the file is complete GPX. --replay, --gpsd, --speed and --loop need --gpx.",
        run: { args, terminal in try RecordCommand(args: args, terminal: terminal).run() }
    )

    static let serve = Command(
        name: "serve",
        summary: "Serve fixes to gpsd clients (gpspipe, cgps, libgps, Python gps) over gpsd's JSON protocol.",
        usage: "gpsfix serve [--listen ADDR:PORT | --no-listen] [--client-timeout S] [--mqtt URL [--mqtt-qos 0|1]] [--device PATH [--baud N] | --gpsd [HOST[:PORT]] | --replay FILE [--speed X|max] [--loop]]",
        options: sourceOptions + [
            .value("--listen", "ADDR:PORT", "Where to listen (default 127.0.0.1:2947). Another address than loopback opens the feed to the network."),
            .value("--client-timeout", "S", "Disconnect a watcher that reads nothing it is sent for S seconds (default 15). As in gpsd, a client that asks nothing goes after 60 s, and a poller 15 minutes after its last request."),
        ] + MQTTOptions.serve,
        positionals: 0,
        details: "A stand-in for gpsd where there is none: clients connect as they would to gpsd and\nsend ?WATCH, ?POLL, ?DEVICES and ?VERSION. Runs until Ctrl-C or SIGTERM; when a replay ends,\nits last fix is still served.",
        run: { args, terminal in try ServeCommand(args: args, terminal: terminal).run() }
    )

    static let devices = Command(
        name: "devices",
        summary: "List serial ports that may have a GPS receiver, and whether each answers with NMEA.",
        usage: "gpsfix devices [--no-probe]",
        options: [
            .flag("--no-probe", "Do not open the ports to listen for NMEA."),
        ],
        positionals: 0,
        details: "Searches /dev/gps*, /dev/serial/by-id/* and ttyACM*/ttyUSB*, known GPS USB IDs first.",
        run: { args, terminal in try DevicesCommand(args: args, terminal: terminal).run() }
    )
}
