import GPSStats
import GPSSystem

/// `gpsfix plot`: captures (or a live source for `--minutes`) drawn as one SVG picture by
/// GPSStats' `SVGPlot`; a PNG through rsvg-convert where it is installed.
struct PlotCommand {
    let args: ParsedArguments
    let terminal: Terminal

    static let converter = "/usr/bin/rsvg-convert"

    func run() throws -> Int32 {
        guard let output = args["-o"], !output.isEmpty else {
            throw UsageError(message: "plot writes a picture: name it with -o FILE.svg (or FILE.png, with rsvg-convert installed)")
        }
        let png = output.lowercased().hasSuffix(".png")
        guard png || output.lowercased().hasSuffix(".svg") else {
            throw UsageError(message: "-o names an .svg or a .png file, not '\(output)'")
        }
        if png && !FileSystem.exists(Self.converter) {
            throw PlotFailure(message: "a PNG is made by rsvg-convert, which is not installed (apt-get install librsvg2-bin); or write FILE.svg")
        }
        let (statistics, sources) = try StatsCommand(args: args, terminal: terminal, command: "plot").collectAll()
        let picture = SVGPlot(title: sources.joined(separator: ", "), statistics: statistics).svg
        let svgPath = png ? output + ".svg" : output
        do throws(SystemError) {
            let file = try FileDescriptor.open(svgPath, .writeOnly, options: [.create, .truncate])
            defer { file.close() }
            try file.writeAll(picture.utf8)
        } catch {
            throw PlotFailure(message: "cannot write \(svgPath): \(error)")
        }
        if png {
            defer { try? FileSystem.remove(svgPath) }
            let status: Int32
            do throws(SystemError) {
                status = try ChildProcess.run([Self.converter, "--format", "png", "--output", output, svgPath])
            } catch {
                throw PlotFailure(message: "cannot run \(Self.converter): \(error)")
            }
            guard status == 0 else { throw PlotFailure(message: "\(Self.converter) could not make \(output) (exit \(status))") }
        }
        terminal.note("gpsfix: plot: \(statistics.fixes) fixes of \(statistics.epochs) epochs drawn to \(output)")
        return statistics.fixes == 0 ? 1 : 0
    }
}

/// A picture that could not be written: exit 1.
struct PlotFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { "plot: " + message }
}
