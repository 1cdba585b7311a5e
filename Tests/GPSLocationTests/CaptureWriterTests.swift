import Foundation
import GPSLocation
import GPSTestSupport
import Testing

@Suite("CaptureWriter")
struct CaptureWriterTests {
    let header = CaptureHeader(fields: [("Name", "test"), ("Device", "/dev/ttyACM0"), ("Baud", "9600")])

    @Test("Header, then every byte as written, readable back as a capture")
    func roundTrip() throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = dir.path + "/out.nmea"
        let body: [UInt8] = Array("$GPGGA,1*00\r\n".utf8) + [0x00, 0xB5, 0x62] + Array("$GPRMC,2\n".utf8)

        // When: written in two chunks
        let writer = try CaptureWriter(path: path, header: header, overwrite: false)
        try body[0..<5].withUnsafeBytes { try writer.write($0) }
        try body[5...].withUnsafeBytes { try writer.write($0) }

        // Then: on disk before close (unbuffered), header first, body byte for byte
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let parsed = data.withUnsafeBytes { CaptureHeader(parsing: $0) }
        #expect(parsed["Device"] == "/dev/ttyACM0")
        #expect(parsed["Baud"] == "9600")
        #expect(Array(data[parsed.bodyOffset...]) == body)
        #expect(writer.bytesWritten == body.count)
        writer.close()
    }

    @Test("An existing file is refused without overwrite, replaced with it")
    func overwrite() throws {
        // Given
        let dir = try TemporaryDirectory()
        let path = try dir.write("old.nmea", "precious")

        // When / Then
        #expect(throws: LocationError.fileExists(path: path)) {
            try CaptureWriter(path: path, header: header, overwrite: false)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        let writer = try CaptureWriter(path: path, header: header, overwrite: true)
        writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == header.text)
    }

    @Test("A folder that does not exist is a clear error")
    func missingFolder() {
        #expect(throws: LocationError.fileUnreadable(path: "/nonexistent-gpsfix/x.nmea", reason: "its folder does not exist")) {
            try CaptureWriter(path: "/nonexistent-gpsfix/x.nmea", header: header, overwrite: false)
        }
    }

    @Test("A header that cannot be written is a write failure naming the file and the errno")
    func fullDevice() {
        #expect(throws: LocationError.writeFailed(WriteFailure(.file(path: "/dev/full"), code: ENOSPC))) {
            try CaptureWriter(path: "/dev/full", header: header, overwrite: true)
        }
    }

    @Test("Writes after close are ignored, not a crash")
    func afterClose() throws {
        let dir = try TemporaryDirectory()
        let writer = try CaptureWriter(path: dir.path + "/c.nmea", header: header, overwrite: false)
        writer.close()
        try [UInt8](repeating: 0x41, count: 4).withUnsafeBytes { try writer.write($0) }
        #expect(writer.bytesWritten == 0)
    }
}
