import Glibc
import Testing
import GPSTestSupport
import GPSSystem

@Suite("FileDescriptor: one EINTR rule, EAGAIN as a value, failures thrown")
struct FileDescriptorTests {
    /// A non-blocking pipe, both ends owned by the test.
    func pipeEnds() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let pair = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
        try pair.0.setNonBlocking()
        try pair.1.setNonBlocking()
        return pair
    }

    @Test("An empty non-blocking pipe reads .wouldBlock, not a thrown EAGAIN; then the bytes; then 0 at the end")
    func wouldBlockIsAValue() throws {
        let (reader, writer) = try pipeEnds()
        defer { reader.close() }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == .wouldBlock)
        try writer.writeAll(Array("$GP".utf8))
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == .processed(3))
        #expect(buffer.prefix(3) == Array("$GP".utf8)[...])
        writer.close()
        #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == .processed(0))
    }

    @Test("A full pipe takes a write in part, then says .wouldBlock; writeAll then throws wouldBlock")
    func fullPipe() throws {
        let (reader, writer) = try pipeEnds()
        defer { reader.close(); writer.close() }
        let chunk = [UInt8](repeating: 0x41, count: 1 << 16)
        var total = 0
        var blocked = false
        for _ in 0..<64 {
            let result = try chunk.withUnsafeBytes { try writer.write($0) }
            guard case .processed(let n) = result else { blocked = true; break }
            total += n
        }
        #expect(blocked, "a pipe holds far less than 4 MiB")
        #expect(total > 0)
        #expect(throws: SystemError.wouldBlock) { try writer.writeAll(chunk) }
    }

    @Test("A closed descriptor's failure is thrown as SystemError with the C library's words")
    func failuresAreThrown() throws {
        let (reader, writer) = try pipeEnds()
        reader.close()
        writer.close()
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemError.badDescriptor) { try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } }
        #expect(SystemError.badDescriptor.description == "Bad file descriptor")
    }

    @Test("open: a missing file is .noSuchFile; exclusive create refuses an existing one; status tells a directory")
    func openAndStatus() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: SystemError.noSuchFile) { try FileDescriptor.open(dir.path + "/none", .readOnly) }
        let file = try FileDescriptor.open(dir.path + "/made", .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        try file.writeAll(Array("abc".utf8))
        let status = try file.status()
        file.close()
        #expect(status.kind == .regular && status.size == 3 && status.permissions == 0o600)
        #expect(throws: SystemError.fileExists) {
            try FileDescriptor.open(dir.path + "/made", .writeOnly, options: [.create, .exclusiveCreate])
        }
        #expect(try FileStatus(path: dir.path).kind == .directory)
        #expect(FileSystem.exists(dir.path + "/made"))
        try FileSystem.remove(dir.path + "/made")
        #expect(!FileSystem.exists(dir.path + "/made"))
    }

    @Test("A directory lists its entries without . and .., at most the limit asked")
    func directoryEntries() throws {
        let dir = try TemporaryDirectory()
        for name in ["a", "b", "c"] { _ = try dir.write(name, "") }
        #expect(try FileSystem.entries(of: dir.path).get().sorted() == ["a", "b", "c"])
        #expect(try FileSystem.entries(of: dir.path, limit: 2).get().count == 2)
        #expect(FileSystem.entries(of: dir.path + "/none").error == .noSuchFile)
    }

    @Test("A poll set reports what is ready, and a wait with nothing ready times out")
    func pollSet() throws {
        let (reader, writer) = try pipeEnds()
        defer { reader.close(); writer.close() }
        var set = PollSet()
        let readIndex = set.append(reader, for: .readable)
        let skipped = set.append(nil, for: .readable)
        let writeIndex = set.append(writer, for: .writable)
        #expect(try set.wait(timeout: .zero) == 1)
        #expect(set.ready(at: readIndex).isEmpty && set.ready(at: skipped).isEmpty)
        #expect(set.ready(at: writeIndex).contains(.writable))
        set.removeAll()
        set.append(reader, for: .readable)
        #expect(try set.wait(timeout: .milliseconds(20)) == 0)
        try writer.writeAll([1])
        #expect(try set.wait(timeout: nil) == 1)
        #expect(set.ready(at: 0).contains(.readable))
    }

    @Test("A wait beside a Wakeup ends at once when it is signalled, and says so")
    func waitBesideWakeup() throws {
        let (reader, writer) = try pipeEnds()
        defer { reader.close(); writer.close() }
        let wakeup = try #require(Wakeup())
        #expect(try reader.wait(for: .readable, within: .milliseconds(20), beside: wakeup) == .timedOut)
        wakeup.signal()
        #expect(try reader.wait(for: .readable, within: .seconds(10), beside: wakeup) == .woken)
        wakeup.drain()
        try writer.writeAll([1])
        #expect(try reader.wait(for: .readable, within: .seconds(10), beside: wakeup) == .ready)
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
