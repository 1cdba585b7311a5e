/// A decoded sentence the assembler can take: what its bookkeeping needs to know, and how
/// the sentence adds to an epoch. One conformance per sentence type, so the assembler is
/// specialised for each and never copies a decoded sentence into an enum on the hot path.
protocol EpochInput {
    var facts: EpochAssembler.Facts { get }
    /// Values the decoder found out of range (`Bounds`), for the stream's statistics.
    var outOfRange: Int { get }
    /// Whether the receiver marks this sentence's solution as its simulator's.
    var isSimulated: Bool { get }
    /// The sentence as the one type that can hold any (to keep it until its epoch is known).
    var decoded: DecodedSentence { get }
    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics)
}

extension EpochInput {
    var isSimulated: Bool { false }
}

extension GGA: EpochInput {
    var decoded: DecodedSentence { .gga(self) }
    var isSimulated: Bool { qualityIndicator == 8 }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .gga)
        f.time = time
        f.position = isValid ? coordinate : nil
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if isValid {
            if claimsFix { epoch.validSignals += 1 }
            epoch.offer(coordinate, fromGGA: true)
            epoch.offer(quality)
            if let a = altitude {
                epoch.altitude = a
                epoch.altitudeSolution = coordinate
            }
            if let g = geoidSeparation { epoch.geoidSeparation = g }
        } else if qualityIndicator != nil {
            epoch.invalidSignals += 1
        }
        if let n = satellitesUsed { epoch.satellitesUsed = n }
        if let h = hdop { epoch.ggaHDOP = h }
    }
}

extension GNS: EpochInput {
    var decoded: DecodedSentence { .gns(self) }
    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .gns)
        f.time = time
        f.position = mode != nil ? coordinate : nil
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let m = mode {
            epoch.validSignals += 1
            epoch.offer(coordinate)
            epoch.offer(m.quality)
            if let a = altitude {
                epoch.altitude = a
                epoch.altitudeSolution = nil
            }
            if let g = geoidSeparation { epoch.geoidSeparation = g }
        } else if isInvalid {
            epoch.invalidSignals += 1
        }
        if let n = satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? n }
        if let h = hdop { epoch.ggaHDOP = epoch.ggaHDOP ?? h }
        if let n = navigationalStatus { epoch.navigationalStatus = n }
    }
}

extension RMC: EpochInput {
    var decoded: DecodedSentence { .rmc(self) }
    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .rmc)
        f.time = time
        f.position = hasFix ? coordinate : nil
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if hasFix {
            epoch.validSignals += 1
            epoch.offer(coordinate)
            epoch.offer(mode?.quality)
            if let v = speedKnots { epoch.speed = v * metresPerSecondPerKnot }
            if let c = course { epoch.course = c }
            if let m = magneticVariation { epoch.magneticVariation = m }
            if let d = date { epoch.date = d }
        } else if isValid == false || mode == .notValid {
            epoch.invalidSignals += 1
        }
        if let n = navigationalStatus { epoch.navigationalStatus = n }
    }
}

extension GLL: EpochInput {
    var decoded: DecodedSentence { .gll(self) }
    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .gll)
        f.time = time
        f.position = hasFix ? coordinate : nil
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if hasFix || (isValid == nil && coordinate != nil) {
            // The NMEA 1.x short form has no status: a position is its only claim.
            epoch.validSignals += 1
            epoch.offer(coordinate)
        } else if isValid == false || mode == .notValid {
            epoch.invalidSignals += 1
        }
    }
}

extension VTG: EpochInput {
    var decoded: DecodedSentence { .vtg(self) }
    var isSimulated: Bool { mode == .simulator }

    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(kind: .vtg)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if mode != .notValid {
            if let v = speed { epoch.speed = epoch.speed ?? v }
            if let c = course { epoch.course = epoch.course ?? c }
        }
    }
}

extension GSA: EpochInput {
    var decoded: DecodedSentence { .gsa(self) }
    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(kind: .gsa)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let m = mode, epoch.gsaMode == nil || m > epoch.gsaMode! { epoch.gsaMode = m }
        let hint = systemID.flatMap(Constellation.init(nmeaSystemID:)) ?? talker?.constellation
        epoch.markUsed(satellites, hint: hint)
        if epoch.dop.position == nil { epoch.dop.position = pdop }
        if epoch.dop.horizontal == nil { epoch.dop.horizontal = hdop }
        if epoch.dop.vertical == nil { epoch.dop.vertical = vdop }
    }
}

extension GSV: EpochInput {
    var decoded: DecodedSentence { .gsv(self) }
    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .gsv)
        f.closesSet = isLastPart
        f.signalID = signalID ?? 0
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if !epoch.recordPart(self, key: key) { statistics.repeatedSkyParts += 1 }
        epoch.addInView(self, hint: talker?.constellation)
    }
}

extension ZDA: EpochInput {
    var decoded: DecodedSentence { .zda(self) }
    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .zda)
        f.time = time
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        if let d = date { epoch.date = d }
    }
}

extension GST: EpochInput {
    var decoded: DecodedSentence { .gst(self) }
    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .gst)
        f.time = time
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.latitudeError = latitudeError
        epoch.longitudeError = longitudeError
        epoch.altitudeError = altitudeError
    }
}

extension GBS: EpochInput {
    var decoded: DecodedSentence { .gbs(self) }
    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .gbs)
        f.time = time
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.latitudeError = epoch.latitudeError ?? latitudeError
        epoch.longitudeError = epoch.longitudeError ?? longitudeError
        epoch.altitudeError = epoch.altitudeError ?? altitudeError
    }
}

extension PGRME: EpochInput {
    var decoded: DecodedSentence { .pgrme(self) }
    var facts: EpochAssembler.Facts {
        EpochAssembler.Facts(kind: .pgrme)
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.horizontalAccuracy = epoch.horizontalAccuracy ?? horizontalError
        epoch.verticalAccuracy = epoch.verticalAccuracy ?? verticalError
        epoch.sphericalError = sphericalError
    }
}

extension PUBXPosition: EpochInput {
    var decoded: DecodedSentence { .pubx(self) }
    var facts: EpochAssembler.Facts {
        var f = EpochAssembler.Facts(kind: .pubx)
        f.time = time
        return f
    }

    func merge(into epoch: inout Epoch, talker: Talker?, key: UInt32, statistics: inout EpochStatistics) {
        epoch.pubxMode = mode
        if mode >= .twoD {
            epoch.validSignals += 1
            epoch.offer(coordinate)
            epoch.offer(quality)
            if let h = ellipsoidalAltitude { epoch.ellipsoidalAltitude = h }
            if let v = speedKilometresPerHour { epoch.speed = epoch.speed ?? v / 3.6 }
            if let c = course { epoch.course = epoch.course ?? c }
            if let v = verticalVelocityDown { epoch.climb = -v }
        } else {
            epoch.invalidSignals += 1
        }
        epoch.horizontalAccuracy = horizontalAccuracy ?? epoch.horizontalAccuracy
        epoch.verticalAccuracy = verticalAccuracy ?? epoch.verticalAccuracy
        if epoch.dop.time == nil { epoch.dop.time = tdop }
        if let n = satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? n }
    }
}
