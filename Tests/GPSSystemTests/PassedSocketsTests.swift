import GPSSystem
import Testing

/// How systemd's socket-activation variables read: descriptors from 3, only for the process
/// they name, names when they match.
@Suite("PassedSockets")
struct PassedSocketsTests {
    @Test("LISTEN_FDS=2 for this process passes descriptors 3 and 4, named by LISTEN_FDNAMES")
    func two() throws {
        let passed = try #require(try PassedSockets(listenPID: "4242", listenFDs: "2", listenFDNames: "gpsfix.socket:extra", processID: 4242))
        #expect(passed.descriptors.map(\.rawValue) == [3, 4])
        #expect(passed.sockets.map(\.name) == ["gpsfix.socket", "extra"])
    }

    @Test("Nothing is passed without the variables, to another process, or with LISTEN_FDS=0",
          arguments: [(String?.none, String?.some("1")), ("4242", nil), ("99", "1"), ("4242", "0")])
    func nothing(pid: String?, fds: String?) throws {
        #expect(try PassedSockets(listenPID: pid, listenFDs: fds, listenFDNames: nil, processID: 4242) == nil)
    }

    @Test("The largest count taken is maximumCount, descriptors 3 on")
    func largestCount() throws {
        let passed = try #require(try PassedSockets(listenPID: "4242", listenFDs: "\(PassedSockets.maximumCount)", listenFDNames: nil, processID: 4242))
        #expect(passed.sockets.count == 1024)
        #expect(passed.descriptors.last == FileDescriptor(rawValue: 1026))
    }

    @Test("Names that do not match the count are left out; the sockets are still passed")
    func mismatchedNames() throws {
        let passed = try #require(try PassedSockets(listenPID: "4242", listenFDs: "2", listenFDNames: "only-one", processID: 4242))
        #expect(passed.descriptors.map(\.rawValue) == [3, 4])
        #expect(passed.sockets.allSatisfy { $0.name == nil })
    }

    @Test("A variable that is not a number, or a count past the bound, is an error naming it",
          arguments: [("abc", "1", "LISTEN_PID"), ("4242", "x", "LISTEN_FDS"), ("4242", "-1", "LISTEN_FDS"), ("-5", "1", "LISTEN_PID"),
                      ("4242", "1025", "LISTEN_FDS"), ("4242", "2000000000", "LISTEN_FDS")])
    func malformed(pid: String, fds: String, variable: String) {
        #expect(throws: PassedSocketsError.malformed(variable: variable, value: variable == "LISTEN_PID" ? pid : fds)) {
            _ = try PassedSockets(listenPID: pid, listenFDs: fds, listenFDNames: nil, processID: 4242)
        }
    }
}
