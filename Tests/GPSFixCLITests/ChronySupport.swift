import Foundation
import GPSTestSupport
import Glibc

/// chronyd started by a test, in a private directory of mode 0700 (it refuses another), with a
/// SOCK refclock at DIR/chrony.sock and an SHM refclock on `unit`, both `noselect` so that it
/// never takes them for its own clock: with -x it would then correct its idea of the clock by
/// their offset, and show each later sample near 0. Its command socket is DIR/cmd.sock.
final class ChronyDaemon: Sendable {
    static let chronyd = "/usr/sbin/chronyd"
    static let chronyc = "/usr/bin/chronyc"
    static var isAvailable: Bool { ServeTools.has(chronyd) && ServeTools.has(chronyc) }

    let directory: String
    let unit: Int
    let pid: pid_t
    var socketPath: String { directory + "/chrony.sock" }
    private var commandSocket: String { directory + "/cmd.sock" }

    /// `extra` lines go into chrony.conf after the two refclocks (a PPS refclock locked to GPS);
    /// `shared` makes the SHM unit's segment for anyone (`:perm=0666`), as for a gpsfix not root.
    init(in directory: String, unit: Int, shared: Bool = false, extra: [String] = []) async throws {
        self.directory = directory
        self.unit = unit
        chmod(directory, 0o700)
        // chronyd makes a SOCK refclock's sample of a poll from at least min(filter, 4) of
        // what was sent in it: with the default filter and a sample a second, a poll of 2 s
        // is heard every other time. A filter of 1 hears each poll, so the test is quick; SHM
        // is read once a poll, every second.
        let conf = """
            refclock SOCK \(directory)/chrony.sock refid GPS poll 1 filter 1 noselect
            refclock SHM \(unit)\(shared ? ":perm=0666" : "") refid SHM poll 0 noselect
            bindcmdaddress \(directory)/cmd.sock
            cmdport 0
            port 0
            pidfile \(directory)/chronyd.pid
            """ + extra.map { "\n" + $0 }.joined()
        let file = directory + "/chrony.conf"
        try conf.write(toFile: file, atomically: true, encoding: .utf8)
        // -x: never touches the real clock; -u root: the tests run as root.
        pid = try spawnQuietly([Self.chronyd, "-d", "-x", "-u", "root", "-f", file])
        let socket = directory + "/chrony.sock"
        guard await waitUntil(.seconds(10), { access(socket, F_OK) == 0 && access(self.commandSocket, F_OK) == 0 }) else {
            stop()
            throw SpawnError(description: "chronyd did not make \(socket) within 10 s")
        }
    }

    /// SIGTERM, then reaped (SIGKILL after 5 s: a test's end never waits on chronyd); its
    /// shared memory segments removed.
    func stop() {
        stopChild(pid)
        Self.removeSegment(unit: unit)
        Self.removeSegment(unit: unit + 1)
    }

    struct Source: Equatable {
        let name: String
        /// chronyc's reach register: a bit per poll, 1 when it gave a sample.
        let reach: Int
        /// The last sample's offset, seconds: positive when the system clock is ahead of the source.
        let offset: Double
    }

    /// `chronyc -n -c sources`, read as CSV.
    func sources() async throws -> [Source] {
        let result = try await runTool(Self.chronyc, ["-h", commandSocket, "-n", "-c", "sources"])
        // Mode,state,name,stratum,poll,reach(octal),lastRx,adjusted offset,measured offset,error
        return result.out.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 10, let reach = Int(fields[5], radix: 8), let offset = Double(fields[8]) else { return nil }
            return Source(name: String(fields[2]), reach: reach, offset: offset)
        }
    }

    /// The sources once each named one has been heard in two polls running, or what they were at the deadline.
    func heard(_ names: [String], within limit: Duration = .seconds(25)) async throws -> [Source] {
        var last: [Source] = []
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            last = try await sources()
            if names.allSatisfy({ name in last.contains { $0.name == name && $0.reach & 3 == 3 } }) { return last }
            try await Task.sleep(for: .milliseconds(500))
        }
        return last
    }

    static func key(unit: Int) -> key_t { key_t(0x4e54_5030 + unit) }

    /// A unit whose segment no running program holds, so that a test neither meets nor leaves another's.
    /// With `pair`, an even unit whose next is free too (the NMEA's and the pulses', as gpsd numbers them).
    /// `range`: ntpshmmon names a unit by one digit, so a test it reads takes one of 2 to 9.
    ///
    /// Every gpsd run as root (the gpsd tests' among them) makes units 0 to 11 and leaves them
    /// when it ends, so a unit held by no one is stale and taken back; one attached is left alone.
    /// Each candidate is tried once: when all are held this throws, where a retry would spin.
    static func freeUnit(pair: Bool = false, in range: ClosedRange<Int> = 100...250) throws -> Int {
        let candidates = range.filter { !pair || ($0 % 2 == 0 && range.contains($0 + 1)) }.shuffled()
        for unit in candidates where available(unit) && (!pair || available(unit + 1)) {
            removeSegment(unit: unit)
            if pair { removeSegment(unit: unit + 1) }
            return unit
        }
        throw SpawnError(description: "every NTP shared memory unit in \(range) is attached by a running program (ipcs -m): stop it to run this test")
    }

    /// No segment, or one that no process has attached.
    private static func available(_ unit: Int) -> Bool {
        let identifier = shmget(key(unit: unit), 0, 0)
        guard identifier >= 0 else { return errno == ENOENT }
        var status = shmid_ds()
        return shmctl(identifier, IPC_STAT, &status) == 0 && status.shm_nattch == 0
    }

    static func removeSegment(unit: Int) {
        let identifier = shmget(key(unit: unit), 0, 0)
        if identifier >= 0 { shmctl(identifier, IPC_RMID, nil) }
    }
}

/// A receiver on a loopback TCP port that knows the time: an epoch (GGA, RMC) each second, stamped
/// with that UTC second and written `late` seconds after it begins, as a receiver with that
/// output delay sends. `lieAt` epochs of a connection (counted from 0) name a second 2 s off,
/// as a receiver's wrong NMEA second. Or, `writing` a path (a socat pty's other end), the same
/// epochs written there, as a receiver on a serial port sends them. python3, stopped by PID.
final class TimedNMEAServer: Sendable {
    let port: Int
    let pid: pid_t

    private static let script = """
        import datetime, socket, sys, time
        def line(body):
            check = 0
            for byte in body.encode(): check ^= byte
            return '$%s*%02X\\r\\n' % (body, check)
        port, late = sys.argv[1], float(sys.argv[2])
        lies = set(int(x) for x in sys.argv[3].split(',') if x)
        def epochs(send):
            epoch = 0
            while True:
                now = time.time()
                second = int(now - late) + 1
                time.sleep(max(0, second + late - now))
                t = datetime.datetime.fromtimestamp(second + (2 if epoch in lies else 0), datetime.timezone.utc)
                epoch += 1
                hms, dmy = t.strftime('%H%M%S') + '.00', t.strftime('%d%m%y')
                send((line('GPGGA,%s,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,' % hms)
                    + line('GPRMC,%s,A,4807.038,N,01131.000,E,000.0,000.0,%s,,,A' % (hms, dmy))).encode())
        if port.startswith('/'):
            with open(port, 'wb', buffering=0) as out:
                epochs(out.write)
        port = int(port)
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(('127.0.0.1', port))
        server.listen(1)
        while True:
            connection, _ = server.accept()
            try:
                epochs(connection.sendall)
            except OSError:
                connection.close()
        """

    init(late: Double, lieAt: [Int] = []) async throws {
        port = try freeLoopbackPort()
        pid = try spawnQuietly([ServeTools.python, "-c", Self.script, "\(port)", "\(late)", lieAt.map(String.init).joined(separator: ",")])
        let port = port
        guard await waitUntil(.seconds(10), {
            (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8))?.contains(String(format: ":%04X 00000000:0000 0A", port)) ?? false
        }) else {
            stop()
            throw SpawnError(description: "python3 did not listen on \(port)")
        }
    }

    init(late: Double, writing path: String) throws {
        port = 0
        pid = try spawnQuietly([ServeTools.python, "-c", Self.script, path, "\(late)", ""])
    }

    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
