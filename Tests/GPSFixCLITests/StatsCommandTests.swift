import Foundation
import GPSTestSupport
import Testing


/// `gpsfix stats`'s figures against the tools people check them with: numpy on the same
/// positions, and gpsprof's "space" view (gpsd-clients) on the same fixes.
@Suite("gpsfix stats", .serialized, .timeLimit(.minutes(2)), .enabled(if: GPSFixBinary.isAvailable))
struct StatsCommandTests {
    /// Writes a capture of `count` 1 Hz epochs scattered about 47.5 N, 8.5 E with the given
    /// standard deviations (metres north, east, up; numpy's normal, seeded), then prints
    /// numpy's figures for the positions as written (rounded to the sentences' digits).
    static let gaussian = """
        import json, sys
        import numpy as np
        path, count = sys.argv[1], int(sys.argv[2])
        sn, se, su = (float(x) for x in sys.argv[3:6])
        rng = np.random.default_rng(20261203)
        a, e2 = 6378137.0, 0.00669437999014132
        lat0, lon0, alt0 = 47.5, 8.5, 500.0
        def radii(lat):
            s = np.sin(np.radians(lat)); w = np.sqrt(1 - e2 * s * s)
            return a * (1 - e2) / w**3 * np.pi / 180, a / w * np.cos(np.radians(lat)) * np.pi / 180
        mn, me = radii(lat0)
        lats = lat0 + rng.normal(0, sn, count) / mn
        lons = lon0 + rng.normal(0, se, count) / me
        alts = alt0 + rng.normal(0, su, count)
        def line(body):
            c = 0
            for b in body.encode(): c ^= b
            return '$%s*%02X\\r\\n' % (body, c)
        written = []
        with open(path, 'w') as out:
            out.write('# gpsfix test: a Gaussian scatter\\n')
            for i, (lat, lon, alt) in enumerate(zip(lats, lons, alts)):
                t = '%02d%02d%02d.00' % ((10 + i // 3600) % 24, i // 60 % 60, i % 60)
                la = '%02d%09.6f' % (int(lat), (lat - int(lat)) * 60)
                lo = '%03d%09.6f' % (int(lon), (lon - int(lon)) * 60)
                out.write(line('GPGGA,%s,%s,N,%s,E,1,09,0.9,%.2f,M,0.0,M,,' % (t, la, lo, alt)))
                out.write(line('GPRMC,%s,A,%s,N,%s,E,0.0,0.0,031226,,,A' % (t, la, lo)))
                written.append((int(la[:2]) + float(la[2:]) / 60, int(lo[:3]) + float(lo[3:]) / 60, round(alt, 2)))
        w = np.array(written)
        mlat, mlon = w[:, 0].mean(), w[:, 1].mean()
        mn, me = radii(mlat)
        north, east, up = (w[:, 0] - mlat) * mn, (w[:, 1] - mlon) * me, w[:, 2]
        r = np.hypot(north, east)
        sN, sE = north.std(ddof=1), east.std(ddof=1)
        print(json.dumps({'mean_lat': mlat, 'mean_lon': mlon, 'sigma_north_m': sN, 'sigma_east_m': sE,
                          'sigma_up_m': up.std(ddof=1), 'cep50_m': float(np.percentile(r, 50)), 'cep95_m': float(np.percentile(r, 95)),
                          'drms2_m': 2 * np.hypot(sN, sE)}))
        """

    @Test("A known Gaussian scatter: σ north, east and up, CEP50, CEP95 and 2DRMS within 2 % of numpy's on the same positions",
          .enabled(if: ServeTools.has(ServeTools.python), "needs python3 with numpy (python3-numpy)"))
    func gaussian() async throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path + "/scatter.nmea"
        let sigmas = (north: 3.0, east: 2.0, up: 5.0)
        let made = try await runTool(ServeTools.python, ["-c", Self.gaussian, capture, "3000", "\(sigmas.north)", "\(sigmas.east)", "\(sigmas.up)"], within: .seconds(60))
        let numpy = try #require(jsonObject(made.out), "python3: \(made.err)")
        let result = try #require(await runGPSFix(["stats", capture, "--json"]))
        #expect(result.status == 0, "\(result)")
        let ours = try #require(jsonObject(result.stdout), "\(result)")
        #expect(ours["fixes"] as? Int == 3000 && ours["epochs"] as? Int == 3000, "\(result.stdout)")
        for key in ["sigma_north_m", "sigma_east_m", "sigma_up_m", "cep50_m", "cep95_m", "drms2_m"] {
            let theirs = try #require(numpy[key] as? Double), mine = try #require(ours[key] as? Double, "\(key): \(result.stdout)")
            #expect(abs(mine - theirs) / theirs < 0.02, "\(key): gpsfix \(mine), numpy \(theirs)")
        }
        for key in ["mean_lat", "mean_lon"] {
            let theirs = try #require(numpy[key] as? Double), mine = try #require(ours[key] as? Double)
            #expect(abs(mine - theirs) < 1e-8, "\(key): gpsfix \(mine), numpy \(theirs)")
        }
        // And the scatter is the one asked for, to its sampling error (3000 fixes: about 1.3 %).
        #expect(abs((ours["sigma_north_m"] as? Double ?? 0) - sigmas.north) / sigmas.north < 0.05, "\(result.stdout)")
        #expect(abs((ours["sigma_east_m"] as? Double ?? 0) - sigmas.east) / sigmas.east < 0.05, "\(result.stdout)")
        #expect(ours["ttff_s"] as? Double == 0 && ours["interval_s"] as? Double == 1, "\(result.stdout)")
        print("gpsfix stats against numpy, 3000 fixes (σ 3, 2, 5 m): gpsfix \(result.stdout)numpy \(made.out)")
    }

    /// gpsprof's figures from its gnuplot script: `cep=`, `cep95=`, and the labels' numbers.
    private func gpsprofFigures(_ script: String) -> [String: Double] {
        var figures: [String: Double] = [:]
        for line in script.split(separator: "\n") {
            for key in ["cep", "cep95"] where line.hasPrefix(key + "=") { figures[key] = Double(line.dropFirst(key.count + 1)) }
            let text = line.replacingOccurrences(of: "\\n", with: "\n")
            for (label, key) in [("cep = ", "rcc"), ("2drms = ", "drms2"), ("2d max = ", "max")] {
                if let range = text.range(of: label) { figures[key] = Double(text[range.upperBound...].prefix { $0 != " " }) }
            }
            // Its sigma column: the rows it labels Lat and Lon hold MeterOffset's (east, north), in that order.
            if text.contains("skewness") {
                let rows = text.split(separator: "\n").filter { $0.contains("meters") }.map { $0.split(separator: " ") }
                if rows.count >= 3 {
                    figures["sigma_east"] = Double(rows[0][2])
                    figures["sigma_north"] = Double(rows[1][2])
                    figures["sigma_up"] = Double(rows[2][2])
                }
            }
        }
        return figures
    }

    @Test("gpsd's captures: the figures gpsprof -f space shows for the same fixes (mean, σ, CEP counted and from σ, 2DRMS, farthest)",
          .enabled(if: ServeTools.has("/usr/bin/gpsprof") && haveGpsdCaptures,
                   "needs gpsprof (gpsd-clients) and gpsd's captures at ../shared/captures/gpsd"),
          arguments: ["gpslim236", "mt3339", "bu353s4"])
    func gpsprof(_ name: String) async throws {
        let capture = gpsdCaptures.appendingPathComponent(name + ".log").path
        let stats = try #require(await runGPSFix(["stats", capture, "--json"]))
        let ours = try #require(jsonObject(stats.stdout), "\(stats)")
        // gpsprof replays a JSON log: a DEVICES line (it names the device in its title), then the TPVs.
        let directory = try TemporaryDirectory()
        let log = directory.path + "/\(name).json"
        let watched = try #require(await runGPSFix(["watch", "--replay", capture, "--json", "--speed", "max"]))
        try ("{\"class\":\"DEVICES\",\"devices\":[{\"path\":\"\(name)\",\"driver\":\"NMEA0183\"}]}\n" + watched.stdout).write(toFile: log, atomically: true, encoding: .utf8)
        let plotted = try await runTool("/bin/sh", ["-c", "/usr/bin/gpsprof -f space -r < \(log)"], within: .seconds(30))
        let theirs = gpsprofFigures(plotted.out)
        let pairs: [(String, String, Double)] = [
            ("cep", "cep50_m", 0.001), ("cep95", "cep95_m", 0.001), ("rcc", "cep_rcc_m", 0.001), ("drms2", "drms2_m", 0.001),
            ("max", "max_m", 0.001), ("sigma_north", "sigma_north_m", 0.001), ("sigma_east", "sigma_east_m", 0.001), ("sigma_up", "sigma_up_m", 0.001),
        ]
        for (theirKey, ourKey, tolerance) in pairs {
            let their = try #require(theirs[theirKey], "gpsprof's \(theirKey) not found: \(plotted.out)\(plotted.err)")
            let our = try #require(ours[ourKey] as? Double, "\(ourKey): \(stats.stdout)")
            // gpsprof prints three decimals; the difference is its rounding.
            #expect(abs(our - their) <= tolerance, "\(name) \(ourKey): gpsfix \(our), gpsprof \(their)")
        }
    }

    @Test("Text for a person: the scatter, the formulas named, the sky per constellation; several captures each their own")
    func text() async throws {
        let drive = projectCapture("drive-1hz.nmea"), multi = projectCapture("multignss-10hz.nmea")
        let result = try #require(await runGPSFix(["stats", drive, multi]))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\(drive): 180 epochs, 180 with a position (3D 100.0 %"), "\(result.stdout)")
        #expect(result.stdout.contains("From the deviations: CEP ") && result.stdout.contains("RCC 261-00") && result.stdout.contains("2DRMS"))
        #expect(result.stdout.contains("\(multi): ") && result.stdout.contains("Update interval: 0.100 s"), "\(result.stdout)")
        #expect(result.stdout.contains("GLONASS: ") && result.stdout.contains("dB-Hz"), "\(result.stdout)")
    }

    @Test("A capture with no fix, a missing one, one with no NMEA: exit 1, saying which")
    func nothing() async throws {
        let directory = try TemporaryDirectory()
        let empty = directory.path + "/nofix.nmea"
        try "$GPGGA,120000.00,,,,,0,00,99.9,,M,,M,,*5C\r\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let result = try #require(await runGPSFix(["stats", empty]))
        #expect(result.status == 1 && result.stdout.contains("No fix with a position"), "\(result)")
        let missing = try #require(await runGPSFix(["stats", directory.path + "/none.nmea", "--json"]))
        #expect(missing.status == 1 && missing.stderr.contains("none.nmea: no such file"), "\(missing)")
        let noise = directory.path + "/noise.nmea"
        try "not a capture\n".write(toFile: noise, atomically: true, encoding: .utf8)
        let unread = try #require(await runGPSFix(["stats", noise]))
        #expect(unread.status == 1 && unread.stderr.contains("noise.nmea: holds no NMEA sentences"), "\(unread)")
    }

    @Test("Usage errors (64): captures and a source both, --replay, --minutes with captures or out of range", arguments: [
        (["stats", "a.nmea", "--device", "/dev/ttyACM0"], "stats reads captures or --device, not both"),
        (["stats", "--replay", "a.nmea"], "captures are read whole, named on their own: gpsfix stats a.nmea"),
        (["stats", "a.nmea", "--minutes", "5"], "--minutes bounds a live run"),
        (["stats", "--nmea-tcp", "127.0.0.1:9", "--minutes", "0"], "--minutes takes a number of minutes above 0"),
    ])
    func usage(_ arguments: [String], _ message: String) async throws {
        let result = try #require(await runGPSFix(arguments))
        #expect(result.status == 64 && result.stderr.contains(message), "\(result)")
    }

    @Test("Ctrl-C ends a live run sooner, with the figures of what came", .enabled(if: ServeTools.has(ServeTools.python)))
    func interrupted() async throws {
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["stats", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--minutes", "30", "--json"],
                                                  whileRunning: { pid in
                                                      try? await Task.sleep(for: .seconds(3.5))
                                                      kill(pid, SIGINT)
                                                  }))
        #expect(result.status == 0 && !result.timedOut, "\(result)")
        let figures = try #require(jsonObject(result.stdout), "\(result)")
        #expect((figures["fixes"] as? Int ?? 0) >= 2, "\(result.stdout)")
    }

    @Test("A live stream for --minutes: its fixes counted, then the figures", .enabled(if: ServeTools.has(ServeTools.python)))
    func live() async throws {
        let receiver = try await TimedNMEAServer(late: 0.1)
        defer { receiver.stop() }
        let result = try #require(await runGPSFix(["stats", "--nmea-tcp", "127.0.0.1:\(receiver.port)", "--minutes", "0.07", "--json"]))
        #expect(result.status == 0, "\(result)")
        let figures = try #require(jsonObject(result.stdout), "\(result)")
        #expect((figures["fixes"] as? Int ?? 0) >= 2 && figures["mean_lat"] as? Double == 48.1173, "\(result.stdout)")
        #expect(result.stderr.contains("stats of 127.0.0.1:\(receiver.port)") && result.stderr.contains("Ctrl-C to stop sooner"), "\(result.stderr)")
    }
}
