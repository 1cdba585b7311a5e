import GPSServer

/// `serve --http [ADDR:]PORT`: the web page (`/`), its event stream (`/events`), the
/// snapshot (`/api/now`) and Prometheus' metrics (`/metrics`), served from the server's loop
/// beside gpsd's clients; `--http-tiles URL` draws the page's track on map tiles (none are
/// fetched otherwise). Loopback unless ADDR says otherwise, as `--listen`.
enum HTTPFeedOptions {
    static let options: [OptionSpec] = [
        .value("--http", "[ADDR:]PORT", "Also serve a live web page on PORT (loopback unless ADDR says otherwise): position, sky plot, signals, track, counts; with /events (the reports as Server-Sent Events), /api/now (a JSON snapshot) and /metrics (Prometheus)."),
        .value("--http-tiles", "URL", "Draw the page's track on map tiles from URL, a template with {z}, {x} and {y} (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; mind the tile server's usage policy). Without it the page fetches nothing but from gpsfix."),
    ]

    static func apply(_ args: ParsedArguments, to configuration: inout ServerConfiguration) throws(UsageError) {
        if let text = args["--http"] {
            // As --nmea-listen: there is no conventional port, and gpsd's 2947 would be wrong.
            guard let address = NMEAFeedOptions.listening(text) else {
                throw UsageError(message: "--http takes [ADDR:]PORT (e.g. 8080, 127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080), not '\(text)'")
            }
            configuration.httpAddress = address
        }
        if let url = args["--http-tiles"] {
            guard configuration.httpAddress != nil else { throw UsageError(message: "--http-tiles draws the page of --http, which is not asked for") }
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), url.contains("{z}"), url.contains("{x}"), url.contains("{y}"),
                  url.utf8.count <= 512, !url.contains(where: { $0 == "\"" || $0 == "'" || $0 == " " || $0 == "\\" || !$0.isASCII || $0.isNewline })
            else {
                throw UsageError(message: "--http-tiles takes a tile URL template with {z}, {x} and {y} (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png), not '\(url)'")
            }
            configuration.tileURL = url
        }
    }
}
