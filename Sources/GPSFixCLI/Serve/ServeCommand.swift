/// `gpsfix serve`: gpsd's JSON protocol for gpsd's clients. (Being built.)
struct ServeCommand {
    let args: ParsedArguments
    let terminal: Terminal

    func run() throws -> Int32 {
        throw UsageError(message: "serve is not built yet")
    }
}
