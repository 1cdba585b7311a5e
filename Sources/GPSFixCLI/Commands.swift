import GPSSources

/// A command of `gpsfix`: its name, its table of options, what it does, and the examples and
/// exit statuses its help and the man page show (`Docs/`).
struct Command: Sendable {
    let name: String
    let summary: String
    /// Its options, in the order help and the usage line show them.
    let options: [OptionSpec]
    let positionals: Int
    let details: String
    let run: @Sendable (ParsedArguments, Terminal) throws -> Int32
    var examples: [Example] = []
    var exits: [ExitStatus] = []
    /// What completes its positional arguments (`record FILE`), when it takes any.
    var operands: ValueCompletion = .files
    /// How its usage line names it, where that is not its name (`[fix]`, the default).
    var invokedAs: String?
    /// Its usage lines (`usage`, made from `options`): one unless it has two ways to be called.
    var usageForms: [UsageForm] = [UsageForm()]
}

extension [OptionSpec] {
    /// These options placed in the usage line: those named in `choices` among that choice's
    /// alternatives, those in `parents` inside their parent's brackets.
    func placed(among choices: [String: String] = [:], inside parents: [String: String] = [:]) -> [OptionSpec] {
        map { option in
            var placed = option
            if let choice = choices[option.name] { placed = placed.among(choice) }
            if let parent = parents[option.name] { placed = placed.inside(parent) }
            return placed
        }
    }
}

enum Commands {
    static let all: [Command] = [fix, watch, record, serve, timing, stats, plot, devices, completion]

    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    static let watch = Command(
        name: "watch",
        summary: "Print fixes as they arrive.",
        options: SourceOptions.severalOptions
            // Read from a broker, --mqtt is a source like the others; how to reach it goes with it.
            + MQTTOptions.watch.placed(among: ["--mqtt": "source"], inside: Dictionary(uniqueKeysWithValues: MQTTOptions.watch.dropFirst().map { ($0.name, "--mqtt") }))
            + OutputFormat.watchOptions.placed(among: Dictionary(uniqueKeysWithValues: OutputFormat.watchOptions.map { ($0.name, "format") })) + [
            .value("-n", "N", "Stop after N reports (lines; with --gpx, track points), as 'gpspipe -n' does."),
            .flag("-t", "Prefix each line with the local time it was written ('2026-11-30 07:10:00: '), as 'gpspipe -t' does."),
        ],
        positionals: 0,
        details: "Without --json, one readable line per epoch: time, latitude and longitude in degrees,\naltitude (MSL), speed, course, mode and satellites used. A replay ends when the capture\ndoes; a receiver is watched until Ctrl-C, through unplugging and plugging in again, and\none not plugged in yet is waited for.",
        run: { args, terminal in try WatchCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix watch", "Every fix from the first receiver found until Ctrl-C: the live view in a terminal, a line per fix in a pipe."),
            Example("gpsfix watch --device /dev/ttyUSB0 --baud 4800", "A receiver on a USB-serial adapter at 4800 baud, without hunting for the rate."),
            Example("gpsfix watch --replay drive.nmea --speed 10", "Replay a capture ten times faster than it was recorded."),
            Example("gpsfix watch --replay drive.nmea --json --speed max", "gpsd's TPV, SKY and GST reports for a whole capture, as fast as it can be read."),
            Example("gpspipe -r | gpsfix watch --replay - --json --speed max", "gpsd's sentences read from standard input, each report written as soon as it is known."),
            Example("gpsfix watch --gpsd --gpx -n 600 > track.gpx", "600 track points from a running gpsd, as a GPX file closed properly even on Ctrl-C."),
        ],
        exits: [
            ExitStatus(0, meaning: "The source ended (a replay), -n reports were written, or Ctrl-C, SIGTERM or SIGHUP stopped the watch; the output is closed properly first."),
            ExitStatus(1, meaning: "The source failed (a port that cannot be opened, gpsd not running, a capture that cannot be read), or output could not be written. A reader that went away ('| head') is not a failure."),
            .usage,
        ]
    )

    static let fix = Command(
        name: "fix",
        summary: "Print the first fix and exit (the default command).",
        options: SourceOptions.options + [
            .value("--timeout", "S", "Give up after S seconds without a fix (default 30)."),
        ] + OutputFormat.fixOptions.placed(among: Dictionary(uniqueKeysWithValues: OutputFormat.fixOptions.map { ($0.name, "format") })),
        positionals: 0,
        details: "Waits for the first fix with a position, prints it and exits. A replay is read as fast\nas it can be unless --speed says otherwise; without a fix, the message says what did\narrive and what to try.",
        run: { args, terminal in try FixCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix", "The first fix from the first receiver found."),
            Example("gpsfix --timeout 60 --json", "Wait up to a minute, and print the fix as a gpsd TPV report."),
            Example("gpsfix fix --gpsd otherhost:2947", "The first fix from gpsd on another machine."),
            Example("gpsfix fix --replay drive.nmea", "The first fix in a capture."),
        ],
        exits: [
            ExitStatus(0, meaning: "A fix was printed."),
            ExitStatus(1, meaning: "No fix within --timeout (the message says what did arrive and what to try), or the source could not be read."),
            .usage,
            .interrupted(before: "a fix arrived"),
        ],
        invokedAs: "[fix]"
    )

    static let record = Command(
        name: "record",
        summary: "Record a receiver's output to a capture file (gpsfake format), or its fixes to a GPX track.",
        options: SourceOptions.options + OutputFormat.recordOptions + [
            .flag("--force", "Overwrite FILE if it exists."),
        ],
        positionals: 1,
        details: "Writes a header (device, by-id name, baud, start time, gpsfix version), then every byte\nexactly as read, to disk as it arrives: Ctrl-C, SIGTERM, SIGHUP or an unplug lose\nnothing. Replay it with 'gpsfix watch --replay FILE'.\n\nWith --gpx, writes a GPX track instead: one <trkseg> per unbroken run of fixes, each\n<trkpt> with elevation above mean sea level, time, fix type, satellites and DOPs. Each\npoint reaches the disk as it comes; Ctrl-C, SIGTERM, SIGHUP or the end of a replay close\nthe document, so the file is complete GPX. --replay, --gpsd, --speed and --loop need --gpx.",
        run: { args, terminal in try RecordCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix record drive.nmea", "Everything the first receiver found sends, into a capture, until Ctrl-C."),
            Example("gpsfix record drive.nmea --device /dev/ttyACM0 --force", "The same from a named port, overwriting drive.nmea."),
            Example("gpsfix record --gpx track.gpx --gpsd", "The fixes of a running gpsd, as a GPX track."),
        ],
        exits: [
            ExitStatus(0, meaning: "Ctrl-C, SIGTERM, SIGHUP or the end of the source stopped the recording; everything read is on disk."),
            ExitStatus(1, meaning: "FILE exists (and --force was not given), the source failed, or the file could not be written (a full disk). A file that failed before anything was recorded is removed."),
            .usage,
        ],
        usageForms: [
            // A capture is a receiver's bytes (a port's or a TCP stream's); a track is anything's fixes.
            UsageForm(operands: "FILE", leaving: Set(["--gpx"] + SourceOptions.fixesOnlyOptions)),
            UsageForm(leading: ["--gpx"]),
        ]
    )

    static let serve = Command(
        name: "serve",
        summary: "Serve fixes to gpsd clients (gpspipe, cgps, libgps, Python gps) over gpsd's JSON protocol.",
        // Each feed's options, in `ServeFeeds.all`'s order: a new feed's come with its line there.
        options: SourceOptions.severalOptions + ServeFeeds.options,
        positionals: 0,
        details: "A stand-in for gpsd where there is none: clients connect as they would to gpsd and\nsend ?WATCH, ?POLL, ?DEVICES and ?VERSION. Chart plotters and apps that read NMEA over\nTCP or UDP (OpenCPN, Signal K) read --nmea-listen or --nmea-udp. Runs until Ctrl-C or\nSIGTERM; when a replay ends, its last fix is still served.\n\nUnder systemd (systemd/gpsfix.socket and gpsfix.service): listens for gpsd's clients on the\nsockets systemd passes (LISTEN_FDS) instead of binding --listen's, and tells it READY=1, the\nsource's state (STATUS=) and WATCHDOG=1 through NOTIFY_SOCKET.\n\nTime for chrony (--chrony-sock, --ntp-shm): each fix of the first source, from a live\nreceiver (serial or --nmea-tcp) with a date, is its time against the system time its\nfirst byte was read. NMEA alone is good to tens or hundreds of milliseconds; --time-offset\ntakes out a receiver's fixed delay ('gpsfix timing' measures it). With --pps, the\nreceiver's pulse per second (a kernel PPS device, or a serial port's DCD, CTS or RI) is\npaired with the second its next epoch names: to --chrony-pps-sock, the SHM unit after\n--ntp-shm's, and gpsd's clients that watch with \"pps\":true (PPS and TOFF).",
        run: { args, terminal in try ServeCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix serve", "The first receiver found, served on 127.0.0.1:2947 as gpsd would; read it with 'gpspipe -w' or 'cgps'."),
            Example("gpsfix serve --listen 2948 --replay drive.nmea --loop", "A capture, over and over, on 127.0.0.1:2948: a test bench for gpsd's clients ('gpspipe -w 127.0.0.1:2948')."),
            Example("gpsfix serve --gpsd otherhost --listen 0.0.0.0:2947", "Another machine's gpsd, served to this machine's network (with a warning: not loopback)."),
            Example("gpsfix serve --nmea-listen 10110 --nmea-udp 192.168.1.255:10110", "Also the sentences, for chart plotters: over TCP on 127.0.0.1:10110, and broadcast to the boat's network by UDP."),
            Example("gpsfix serve --device /dev/ttyUSB0 --chrony-sock /run/chrony/gpsfix.sock --time-offset 0.1", "Also the receiver's time to chronyd ('refclock SOCK /run/chrony/gpsfix.sock refid GPS' in chrony.conf), 100 ms of output delay taken out."),
            Example("gpsfix serve --device /dev/ttyAMA0 --pps /dev/pps0 --ntp-shm 2", "A stratum-1 time server: the NMEA's time on NTP shared memory unit 2 and the pulses, paired with it, on unit 3 ('refclock SHM 3:perm=0666 refid PPS' in chrony.conf)."),
        ],
        exits: [
            ExitStatus(0, meaning: "Ctrl-C, SIGTERM or SIGHUP stopped the server."),
            ExitStatus(1, meaning: "It could not listen (the port in use, a port below 1024 without root, an address not of this machine, a host name that does not resolve, a socket systemd passed that is not a listening TCP one), --ntp-shm's segment is another user's, or the source failed."),
            .usage,
        ]
    )

    static let timing = Command(
        name: "timing",
        summary: "Measure how late a receiver's NMEA is after each second, and print the --time-offset and chrony.conf lines to use.",
        options: TimingCommand.sourceOptions + PulseOptions.options + [
            .value("--seconds", "N", "Measure for N seconds (default 180)."),
            .value("--reference", "pps|system", "What each epoch's arrival is held against: the receiver's pulse (the default with --pps) or the system clock (the default without; only as good as the clock, and said so when no NTP daemon keeps it)."),
            .flag("--json", "One JSON object for scripts: offset_ms, jitter_ms, samples, reference and the rest."),
        ],
        positionals: 0,
        details: "Watches a live receiver (a serial port, --nmea-tcp or --gpsd) and measures when each whole-second\nepoch begins to arrive after the second it names: against the receiver's pulse with --pps,\nor against the system clock. Prints the median (the offset), the jitter, the pulses' health,\nand the lines for 'gpsfix serve --time-offset' and chrony.conf. chronyd needs the NMEA within\n200 ms of the pulse; MTK receivers' hovers around 500 ms. Through --gpsd, gpsd's own TOFF\n(and PPS) reports are read: its measure of when it read each epoch. A replay carries no\ntime of arrival: timing says so and stops.",
        run: { args, terminal in try TimingCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix timing --device /dev/ttyACM0", "Three minutes of the receiver's NMEA against the system clock (synchronised by NTP, ideally)."),
            Example("gpsfix timing --device /dev/ttyAMA0 --pps /dev/pps0 --seconds 60", "A minute against the receiver's own pulse: the figure does not depend on the system clock."),
            Example("gpsfix timing --nmea-tcp 192.168.1.20:10110 --seconds 30 --json", "A network stream's offset, as one JSON object."),
            Example("gpsfix timing --gpsd", "The offset of the running gpsd's receiver, as gpsd measures it (its TOFF reports), with the lines for gpsd's SHM units."),
        ],
        exits: [
            ExitStatus(0, meaning: "The figures were printed (Ctrl-C, SIGTERM or SIGHUP end the measuring sooner, with what was measured)."),
            ExitStatus(1, meaning: "No epoch could be measured (no fix with a date, no pulse paired), or the source or the pulse device could not be read."),
            .usage,
        ]
    )

    static let stats = Command(
        name: "stats",
        summary: "A capture's accuracy in numbers: its fixes' scatter (CEP50, CEP95, 2DRMS), fix availability, update rate and sky.",
        options: StatsCommand.sourceOptions + [
            .value("--minutes", "N", "With a live source, collect for N minutes (default 10)."),
            .flag("--json", "One JSON object per capture for scripts: fixes, mean_lat, mean_lon, sigma_north_m, sigma_east_m, sigma_up_m, cep50_m, cep95_m, drms2_m, ttff_s and the rest."),
        ],
        positionals: 10_000,
        details: "Reads each capture to its end (or a live source for --minutes) and reports, as gpsprof's\n\"space\" view does, how the fixes of a receiver that did not move scatter about their mean:\nthe standard deviation north, east and up (metres, n - 1), CEP50 and CEP95 counted from\nthe fixes (the radius half and 95 % of them lie within), and from the deviations CEP\n(0.5887 (σN + σE), RCC 261-00 3.1.1), 2DRMS (2 √(σN² + σE²), RCC 261-00 3.1.4) and R95\n(1.2239 (σN + σE), a circular normal's 95 % radius). Also the epochs by fix mode, the\ntime from the first epoch to the first fix, the update interval and its jitter, HDOP,\nand the satellites used, seen and their SNR per constellation.",
        run: { args, terminal in try StatsCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix stats table.nmea", "The scatter and health of a receiver left still on a table, as text."),
            Example("gpsfix stats old-antenna.nmea new-antenna.nmea --json", "Two antennas compared: one JSON object per capture."),
            Example("gpsfix stats --device /dev/ttyACM0 --minutes 30", "Half an hour of a live receiver's fixes, then the figures."),
        ],
        exits: [
            ExitStatus(0, meaning: "The figures were printed."),
            ExitStatus(1, meaning: "A capture or source could not be read, or one had no fix with a position."),
            .usage,
        ],
        operands: .files,
        usageForms: [UsageForm(operands: "CAPTURE...", leaving: Set(StatsCommand.liveOptions)), UsageForm()]
    )

    static let plot = Command(
        name: "plot",
        summary: "Draw a capture's fixes as one SVG picture: their scatter with CEP circles, the sky by signal, and altitude, HDOP and satellites over time.",
        options: [.value("-o", "FILE", "Write the picture to FILE.svg, or FILE.png (through rsvg-convert, Debian's librsvg2-bin).")]
            + StatsCommand.sourceOptions + [.value("--minutes", "N", "With a live source, collect for N minutes (default 10).")],
        positionals: 10_000,
        details: "Draws, as gpsprof's views do without gnuplot: the fixes about their mean in metres east and\nnorth with the CEP50 (solid) and CEP95 (dashed) circles ('gpsfix stats' gives the figures);\nevery satellite heard, where it was in the sky, coloured by its SNR (filled when used);\nand altitude, HDOP, satellites used and, from a live source, the time offset over time.\nSeveral captures are drawn as one run (a recording kept in parts). The SVG is gpsfix's own:\nlabelled, with a title and description for screen readers, and colours readable with\ncolour blindness.",
        run: { args, terminal in try PlotCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix plot table.nmea -o table.svg", "A still receiver's scatter, sky and time series, for a browser or a report."),
            Example("gpsfix plot table.nmea -o table.png", "The same as a PNG, made by rsvg-convert."),
            Example("gpsfix plot --device /dev/ttyACM0 --minutes 60 -o hour.svg", "An hour of a live receiver, then the picture."),
        ],
        exits: [
            ExitStatus(0, meaning: "The picture was written."),
            ExitStatus(1, meaning: "A capture or source could not be read, there was no fix to draw, or the file could not be written."),
            .usage,
        ],
        operands: .files,
        usageForms: [UsageForm(leading: ["-o"], operands: "CAPTURE...", leaving: Set(StatsCommand.liveOptions)), UsageForm(leading: ["-o"])]
    )

    static let devices = Command(
        name: "devices",
        summary: "List serial ports that may have a GPS receiver, and whether each answers with NMEA.",
        options: [
            .flag("--no-probe", "Do not open the ports to listen for NMEA."),
        ],
        positionals: 0,
        details: "Searches /dev/gps*, /dev/serial/by-id/* and ttyACM*/ttyUSB*, known GPS USB IDs first.",
        run: { args, terminal in try DevicesCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("gpsfix devices", "Each port that may be a receiver, what the system knows of it, and whether it answers with NMEA within 3 s."),
            Example("gpsfix devices --no-probe", "The same without opening the ports."),
        ],
        exits: [
            ExitStatus(0, meaning: "The ports were listed, whether or not any answers."),
            ExitStatus(1, meaning: "No port that may be a receiver was found."),
            .usage,
            .interrupted(before: "every port was probed"),
        ]
    )

    static let completion = Command(
        name: "completion",
        summary: "Print a completion script for bash or zsh.",
        options: [],
        positionals: 1,
        details: "The scripts complete commands, options and their values (files, serial ports) from\nthe same table as this help. 'make install' installs both where bash-completion and zsh\nlook for them.",
        run: { args, terminal in try CompletionCommand(args: args, terminal: terminal).run() },
        examples: [
            Example("source <(gpsfix completion bash)", "Complete gpsfix in this bash session."),
            Example("gpsfix completion zsh > ~/.zfunc/_gpsfix", "For zsh: a directory on $fpath, read by compinit."),
        ],
        exits: [
            ExitStatus(0, meaning: "The script was printed."),
            .usage,
        ],
        operands: .words(CompletionCommand.shells.map(\.name)),
        usageForms: [UsageForm(operands: CompletionCommand.shells.map(\.name).joined(separator: "|"))]
    )
}
