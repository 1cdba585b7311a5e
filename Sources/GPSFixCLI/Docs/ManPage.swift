/// gpsfix(1), made from the commands' own table: every command, option, example and exit
/// status the parser and `--help` know, so the page cannot fall behind them. `gpsfix --man`
/// prints it; `make install` installs what it prints.
enum ManPage {
    static var text: String {
        var page: [String] = [
            ".\\\" gpsfix(1), made by 'gpsfix --man' from the table of commands in Sources/GPSFixCLI.",
            ".TH GPSFIX 1 \"\" \"gpsfix \(GPSFixCLI.version)\" \"User Commands\"",
            // Options must stay whole to be searched for and copied: no hyphenation, and no
            // spaces stretched between words.
            ".nh",
            ".ad l",
            ".SH NAME",
            "gpsfix \\- position fixes from NMEA 0183 GPS receivers",
            ".SH SYNOPSIS",
        ]
        page += Commands.all.flatMap { command in
            command.usage.split(separator: "\n").map { usage in
                ".PP\n" + Roff.escape(usage.trimmingSpaces)
            }
        }
        page += [".SH DESCRIPTION", Roff.paragraphs(description)]
        page += [".SH COMMANDS"]
        for command in Commands.all { page += section(command) }
        page += [".SH EXIT STATUS", Roff.escape("Every command exits with one of these; each command's own are listed under it.")]
        page += exits(ExitStatus.general)
        page += [".SH EXAMPLES"]
        var seen: Set<String> = []
        for example in GPSFixCLI.examples + Commands.all.flatMap(\.examples) where seen.insert(example.line).inserted {
            page += [".PP", ".EX", "\\fB" + Roff.escape(example.line) + "\\fR", ".EE", ".RS", Roff.escape(example.explanation), ".RE"]
        }
        page += [".SH ENVIRONMENT", ".TP", ".BR LC_ALL \", \" LC_CTYPE \", \" LANG",
                 Roff.escape("Whether the live view draws with UTF-8 (the first of them that is set says)."),
                 ".TP", ".B TERM",
                 Roff.escape("TERM=dumb gets lines instead of the live view; a terminal type with colours gets the view's state in colour."),
                 ".TP", ".B NO_COLOR",
                 Roff.escape("Set and not empty: no colour, whatever the terminal (no-color.org)."),
                 ".TP", ".B TZ",
                 Roff.escape("The zone of the local time that watch -t stamps lines with, as gpspipe -t does."),
                 ".TP", ".BR LISTEN_PID \", \" LISTEN_FDS \", \" LISTEN_FDNAMES",
                 Roff.escape("Set by systemd's socket activation (gpsfix.socket): serve listens on the sockets passed from descriptor 3 on, instead of binding --listen's."),
                 ".TP", ".B NOTIFY_SOCKET",
                 Roff.escape("Set by systemd for a Type=notify service: serve says READY=1 there once it listens and its source has reported, STATUS= with the source's state, and STOPPING=1 when it stops."),
                 ".TP", ".BR WATCHDOG_USEC \", \" WATCHDOG_PID",
                 Roff.escape("Set by systemd's WatchdogSec=: serve's server loop says WATCHDOG=1 every half of WATCHDOG_USEC, when WATCHDOG_PID is unset or its own.")]
        page += [".SH FILES"]
        for (path, what) in files { page += [".TP", Roff.macro("I", path), Roff.escape(what)] }
        page += [".SH SEE ALSO", ".BR gpsd (8),", ".BR gpspipe (1),", ".BR cgps (1),", ".BR gpsfake (1),", ".BR udev (7),", ".BR systemd.socket (5),", ".BR sd_notify (3)"]
        return page.joined(separator: "\n") + "\n"
    }

    /// A command's part of COMMANDS: what it does, how it is called, its options, its exits.
    private static func section(_ command: Command) -> [String] {
        var lines = [Roff.macro("SS", command.name), Roff.escape(command.summary)]
        for usage in command.usage.split(separator: "\n") {
            lines += [".PP", "\\fB" + Roff.escape(usage.trimmingSpaces) + "\\fR"]
        }
        if !command.details.isEmpty { lines += [".PP", Roff.paragraphs(command.details)] }
        for option in command.options where !option.isHidden {
            let value = option.value.map { " \\fI" + Roff.escape($0) + "\\fR" } ?? ""
            lines += [".TP", "\\fB" + Roff.escape(option.name) + "\\fR" + value, Roff.escape(option.help)]
        }
        if !command.exits.isEmpty {
            lines += [".PP", "Exit status of \\fB" + Roff.escape("gpsfix " + command.name) + "\\fR:"]
            lines += exits(command.exits)
        }
        return lines
    }

    private static func exits(_ rows: [ExitStatus]) -> [String] {
        rows.flatMap { row in
            [".TP", ".B " + row.codes.map(String.init).joined(separator: ", "), Roff.escape(row.meaning)]
        }
    }

    private static let description = """
        gpsfix reads GPS receivers that speak NMEA 0183 (on USB or a serial port), a running gpsd, \
        or a recorded capture in gpsfake's format, and turns their sentences into position fixes: \
        a live view in the terminal, a readable line per fix, gpsd's JSON reports (so tools written \
        for gpspipe -w work unchanged), the sentences themselves, or GPX tracks. gpsfix serve \
        speaks gpsd's protocol, so gpsd's clients can read gpsfix directly.

        With no command, gpsfix runs fix: it finds the receiver (udev's /dev/gps* links, then \
        /dev/serial/by-id/*, then ttyACM* and ttyUSB*, known GPS USB IDs first), finds its baud \
        rate by itself, prints the first fix and exits.

        gpsfix only reads: it never writes to a receiver. It takes a port exclusively, and gives \
        it back on every way out. Serial ports belong to the group dialout: "Permission denied" \
        means 'sudo usermod -aG dialout $USER', then logging in again.

        Every number a sentence states is checked against its physical range when it is decoded; \
        a value outside is unknown, counted, and never passed on.
        """

    private static let files: [(String, String)] = [
        ("/dev/gps*", "Stable names for receivers, made by udev rules (gpsfix's or gpsd's): searched first."),
        ("/dev/serial/by-id/*", "udev's names for serial ports by USB ID and serial number: searched next."),
        ("/etc/default/gpsfix", "The options gpsfix.service passes to serve (GPSFIX_OPTIONS)."),
        ("/usr/local/lib/systemd/system/gpsfix.socket", "systemd's socket for serve, 127.0.0.1:2947, as gpsd.socket's; with gpsfix.service beside it (in $PREFIX/lib/systemd/system)."),
        ("/etc/udev/rules.d/60-gpsfix.rules", "gpsfix's udev rules (in /usr/lib/udev/rules.d when installed with PREFIX=/usr): /dev/gpsN, group dialout and ModemManager kept away for receivers whose USB ID is known to be a GPS."),
    ]
}

extension Substring {
    var trimmingSpaces: Substring { drop { $0 == " " } }
}
