import GPSSystem
import GPSLocation

/// What to try, for the person at the terminal, when a source gave no fix or fell silent. The
/// library reports what arrived (`Reception`); which advice fits depends on it: a port that
/// sends nothing is not a sky problem, and bytes that are not NMEA are not an antenna's.
enum Advice {
    /// The message for `error`: what the library says happened, then what to do about it
    /// with this command's options (the library knows no flags).
    static func message(for error: LocationError) -> String {
        let advice: String? = switch error {
        case .timeout(_, let heard): noFix(heard)
        case .fileExists: "Choose another name, or overwrite it with --force."
        case .deviceNotFound(let searched) where searched.count == 1: "'gpsfix devices' lists the ports there are."
        case .deviceNotFound: "Plug one in, or name it with --device PATH."
        case .deviceBusy(_, let holder?) where holder.name == "gpsd":
            "Stop it (sudo systemctl stop gpsd gpsd.socket), or read through it with --gpsd."
        case .deviceBusy(_, let holder?) where holder.pid == FileSystem.processID:
            "Name each port once."
        case .deviceBusy(_, let holder?):
            "Stop it (kill \(holder.pid)) first: two readers would each get part of the sentences."
        case .deviceBusy: "Stop it, or read through it with --gpsd."
        default: nil
        }
        return advice.map { error.description + " " + $0 } ?? error.description
    }

    /// Why no fix may have come, from what arrived.
    static func noFix(_ heard: Reception?) -> String {
        switch heard {
        case let heard? where heard.bytes == 0:
            "Is the receiver powered and plugged in, and is this its port? 'gpsfix devices' lists the ports that answer with NMEA."
        case let heard? where heard.sentences == 0:
            if let baud = heard.baud {
                "Is \(baud) baud its rate? Name another with --baud, or leave --baud out to let gpsfix find it. A receiver set to a binary protocol (UBX, SiRF) sends no NMEA at any rate."
            } else {
                "Is the receiver set to a binary protocol (UBX, SiRF)? gpsfix reads NMEA only. If it has a line rate, name it with --baud."
            }
        default:
            "Is the antenna's view of the sky clear? A receiver starting cold can take minutes: allow longer with --timeout."
        }
    }

    /// How long nothing came, alone.
    static func gap(_ quiet: Duration) -> String { "nothing received for \(Int(quiet.inSeconds)) s" }

    /// A port quiet for `silent`, in the light of what it sent before.
    static func silence(_ silent: Duration, _ heard: Reception?) -> String {
        let quiet = gap(silent)
        switch heard {
        case nil:
            return quiet + " (is the receiver on, and connected?)"
        case let heard? where heard.bytes == 0:
            return "nothing received in the \(Int(silent.inSeconds)) s since it was opened (is the receiver on and connected, and is this its port?)"
        case let heard? where heard.sentences == 0:
            return quiet + "; before that, \(heard.bytes) bytes but no NMEA sentences" + (heard.baud.map { " at \($0) baud" } ?? "")
        default:
            return quiet + " (unplugged, or switched off?)"
        }
    }
}
