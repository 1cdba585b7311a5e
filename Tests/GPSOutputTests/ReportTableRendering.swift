import GPSOutput

/// What `GPSDReportTable`'s rows make: the writer's generated members and the README's table.
/// `ReportTableTests` compares them with the files kept in the repository.
enum ReportTableRendering {
    /// The header every generated file starts with.
    static let generatedHeader = """
        // Generated from GPSDReportTable's rows (Reports/GPSDReportTable.swift) by ReportTableTests:
        // do not edit. GPSFIX_REGENERATE=1 swift test --filter ReportTableTests writes it again.
        """

    /// `Sources/GPSOutput/Reports/GPSDJSON+Members.swift`: one call a row, inlined into the
    /// report it belongs to, so the table costs the hot path nothing over hand-written code.
    static func writerSource() -> String {
        var text = generatedHeader + "\nimport NMEA\n\nextension GPSDJSON {\n"
        let functions = [
            members("tpv", "Fix", GPSDReportTable.tpv.map(ReportRowText.init), "TPV's measurements (`GPSDReportTable.tpv`)."),
            members("sky", "SkyView", GPSDReportTable.sky.map(ReportRowText.init), "SKY's own measurements (`GPSDReportTable.sky`)."),
            members("satellite", "Satellite", GPSDReportTable.satellite.map(ReportRowText.init),
                    "A SKY satellite's measurements (`GPSDReportTable.satellite`)."),
            members("gst", "ErrorStatistics", GPSDReportTable.gst.map(ReportRowText.init), "GST's measurements (`GPSDReportTable.gst`)."),
            members("tpvMarine", "MarineData", GPSDReportTable.tpvMarine.map(ReportRowText.init),
                    "TPV's marine members (`GPSDReportTable.tpvMarine`)."),
            members("att", "Attitude", GPSDReportTable.att.map(ReportRowText.init), "ATT's measurements (`GPSDReportTable.att`)."),
        ]
        text += functions.joined(separator: "\n")
        return text + "}\n"
    }

    private static func members(_ name: String, _ record: String, _ rows: [ReportRowText], _ doc: String) -> String {
        var text = "    /// \(doc) Each is left out when unknown.\n"
        text += "    @inline(__always)\n"
        text += "    static func \(name)Members(_ r: \(record), into w: inout ByteWriter) {\n"
        for row in rows {
            text += "        optional(\",\\\"\(row.name)\\\":\", \(row.isBearing ? "bearing: " : "")r.\(row.path), \(row.decimals), &w)\n"
        }
        return text + "    }\n"
    }

    /// The README's table of members, between its markers.
    static func readmeTable() -> String {
        var text = "| report | member | what | unit | printed with | range |\n|---|---|---|---|---|---|\n"
        for (name, rows) in GPSDReportTable.classes {
            for row in rows {
                let digits = row.decimals == 1 ? "1 decimal" : "\(row.decimals) decimals"
                let range = row.range.description + (row.isBearing ? " (a value printed as 360 is written 0)" : "")
                text += "| \(name) | `\(row.name)` | \(row.meaning) | \(row.unit) | \(digits) | \(range) |\n"
            }
        }
        return text
    }
}
