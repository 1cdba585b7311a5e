import CMosquitto
import GPSSystem

// Every call into libmosquitto lives here. `MQTTClient` drives it from one thread of its own
// with libmosquitto's external-loop calls (`mosquitto_socket`, `mosquitto_loop_read`,
// `_write`, `_misc`, `mosquitto_want_write`), polling the socket beside its own `Wakeup`:
// rather than `mosquitto_loop_start`, whose thread cannot be woken by our stop, reconnects on
// its own schedule and calls back on a thread we do not own. So: one handle, one thread, no
// lock around libmosquitto, and a stop that is seen at once.

/// What libmosquitto's callbacks said during the last call, in order.
enum MosquittoNews {
    /// CONNACK: 0 accepted, else the broker's refusal code.
    case connack(Int32)
    case disconnected(Int32)
    case message(topic: String, payload: [UInt8])
    /// A message with this id has left (QoS 0) or been acknowledged (QoS 1).
    case published(Int32)
}

/// One libmosquitto handle, used on one thread only.
final class MosquittoConnection {
    private let handle: OpaquePointer
    private let settings: MQTTSettings
    /// Filled by the callbacks, emptied by `takeNews`.
    fileprivate var news: [MosquittoNews] = []
    /// libmosquitto's last error line (it says why TLS failed only in its log).
    fileprivate var lastError: String?

    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    init(_ settings: MQTTSettings) throws(MQTTError) {
        _ = Self.initialised
        // Clean session: what a subscriber missed while away is not kept for it by this client.
        guard let made = mosquitto_new(settings.clientID, true, nil) else {
            throw .badSetting("libmosquitto could not make a client (out of memory, or a bad client id '\(settings.clientID)')")
        }
        do throws(MQTTError) {
            try Self.configure(made, settings)
        } catch {
            mosquitto_destroy(made)
            throw error
        }
        handle = made
        self.settings = settings
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    deinit { mosquitto_destroy(handle) }

    private static func configure(_ handle: OpaquePointer, _ s: MQTTSettings) throws(MQTTError) {
        let version = s.maximumPacketSize == nil ? MQTT_PROTOCOL_V311 : MQTT_PROTOCOL_V5
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, version)
        if s.username != nil || s.password != nil {
            let rc = mosquitto_username_pw_set(handle, s.username, s.password)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw .badSetting("user name or password not accepted: \(describe(rc))") }
        }
        if let will = s.will {
            let rc = will.payload.withUnsafeBytes {
                mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, Int32(will.qos), will.retain)
            }
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw .badSetting("last will on '\(will.topic)' not accepted: \(describe(rc))") }
        }
        if let tls = s.tls {
            for path in [tls.caFile, tls.certFile, tls.keyFile].compactMap({ $0 }) {
                do {
                    try FileSystem.checkReadable(path)
                } catch {
                    throw .badSetting("\(path): cannot be read (\(error))")
                }
            }
            // Without a CA file, the system's CAs (a broker with a public certificate).
            let caPath: String? = tls.caFile == nil ? "/etc/ssl/certs" : nil
            let rc = mosquitto_tls_set(handle, tls.caFile, caPath, tls.certFile, tls.keyFile, nil)
            guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw .badSetting("TLS settings not accepted: \(describe(rc))") }
        }
    }

    private func installCallbacks() {
        mosquitto_connect_callback_set(handle) { _, me, rc in
            MosquittoConnection.from(me).news.append(.connack(rc))
        }
        mosquitto_disconnect_callback_set(handle) { _, me, rc in
            MosquittoConnection.from(me).news.append(.disconnected(rc))
        }
        mosquitto_publish_callback_set(handle) { _, me, mid in
            MosquittoConnection.from(me).news.append(.published(mid))
        }
        mosquitto_message_callback_set(handle) { _, me, message in
            guard let message, let topic = message.pointee.topic else { return }
            let count = Int(max(0, message.pointee.payloadlen))
            let payload = count == 0 ? [] : Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: count))
            MosquittoConnection.from(me).news.append(.message(topic: String(cString: topic), payload: payload))
        }
        mosquitto_log_callback_set(handle) { _, me, level, text in
            guard let text, level & Int32(MOSQ_LOG_ERR) != 0 else { return }
            MosquittoConnection.from(me).lastError = String(cString: text)
        }
    }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> MosquittoConnection {
        Unmanaged<MosquittoConnection>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Connects (TCP, and TLS when set), and sends CONNECT; the broker's answer comes later as
    /// `.connack`. Nil when under way, else why not.
    func connect(first: Bool) -> MQTTError? {
        lastError = nil
        // News of the connection before (its end) is no news of this one.
        news.removeAll()
        let rc: Int32
        if let limit = settings.maximumPacketSize {
            rc = connectLimited(to: limit)
        } else {
            rc = first
                ? mosquitto_connect(handle, settings.host, Int32(settings.port), Int32(clamping: settings.keepAlive.components.seconds))
                : mosquitto_reconnect(handle)
        }
        guard rc != MOSQ_ERR_SUCCESS.rawValue else { return nil }
        return failure(rc)
    }

    /// MQTT 5's CONNECT with a Maximum Packet Size, on every attempt (not `mosquitto_reconnect`),
    /// so that no connection is ever made without it: the broker then never sends a larger
    /// packet, and a publisher's 100 MB message is dropped by the broker, not buffered here.
    private func connectLimited(to limit: Int) -> Int32 {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        let added = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue),
                                                 UInt32(clamping: limit))
        guard added == MOSQ_ERR_SUCCESS.rawValue else { return added }
        return mosquitto_connect_bind_v5(handle, settings.host, Int32(settings.port), Int32(clamping: settings.keepAlive.components.seconds), nil, properties)
    }

    /// What a failed call means, naming the broker.
    func failure(_ rc: Int32) -> MQTTError {
        let broker = settings.broker
        if rc == MOSQ_ERR_TLS.rawValue || (settings.tls != nil && lastError?.contains("SSL") == true) {
            return .tlsFailed(broker: broker, reason: lastError.map(Self.tlsReason) ?? Self.describe(rc))
        }
        if rc == MOSQ_ERR_ERRNO.rawValue {
            return .unreachable(broker: broker, reason: SystemError.current.description)
        }
        return .unreachable(broker: broker, reason: Self.describe(rc))
    }

    /// The broker's refusal (a CONNACK code), naming the broker.
    func refusal(_ code: Int32) -> MQTTError {
        // MQTT 5 has reason codes of its own: 134 bad user name or password, 135 not
        // authorised; 3.1.1's are 4 and 5.
        let v5 = settings.maximumPacketSize != nil && code >= 0x80
        let reason = String(cString: v5 ? mosquitto_reason_string(code) : mosquitto_connack_string(code))
        let login: Set<Int32> = v5 ? [Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue), Int32(MQTT_RC_NOT_AUTHORIZED.rawValue)] : [4, 5]
        return login.contains(code)
            ? .loginRefused(broker: settings.broker, reason: reason)
            : .connectionRefused(broker: settings.broker, reason: reason)
    }

    /// OpenSSL's line, from its last part: "certificate verify failed", not the error codes.
    private static func tlsReason(_ line: String) -> String {
        let parts = line.split(separator: ":")
        return parts.count >= 2 ? parts.suffix(2).joined(separator: ":").trimmingSpaces : line
    }

    var socket: Int32 { mosquitto_socket(handle) }
    var wantsWrite: Bool { mosquitto_want_write(handle) }

    /// Each returns nil, or what went wrong (the connection is then lost).
    func read() -> MQTTError? { check(mosquitto_loop_read(handle, 1)) }
    func write() -> MQTTError? { check(mosquitto_loop_write(handle, 1)) }
    /// Keep-alive pings, and noticing a broker that stopped answering them.
    func misc() -> MQTTError? { check(mosquitto_loop_misc(handle)) }

    private func check(_ rc: Int32) -> MQTTError? {
        rc == MOSQ_ERR_SUCCESS.rawValue ? nil : failure(rc)
    }

    /// Queues `message` for sending; its id (for `.published`), or nil when refused.
    func publish(_ message: MQTTMessage) -> Int32? {
        var mid: Int32 = 0
        let rc = message.payload.withUnsafeBytes {
            mosquitto_publish(handle, &mid, message.topic, Int32($0.count), $0.baseAddress, Int32(message.qos), message.retain)
        }
        return rc == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
    }

    func subscribe(_ filter: String, qos: Int) -> MQTTError? {
        let rc = mosquitto_subscribe(handle, nil, filter, Int32(qos))
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return .badSetting("cannot subscribe to '\(filter)': \(Self.describe(rc))") }
        return nil
    }

    func disconnect() { _ = mosquitto_disconnect(handle) }

    /// News not yet taken: a read that adds none took no whole packet.
    var newsCount: Int { news.count }

    func takeNews() -> [MosquittoNews] {
        defer { news.removeAll(keepingCapacity: true) }
        return news
    }

    static func describe(_ rc: Int32) -> String { String(cString: mosquitto_strerror(rc)) }

    /// Whether `filter` is a valid subscription (wildcards in their places) or, with
    /// `publishing`, a valid topic to publish to (no wildcards).
    static func isValid(_ topic: String, publishing: Bool) -> Bool {
        publishing ? mosquitto_pub_topic_check(topic) == MOSQ_ERR_SUCCESS.rawValue
            : mosquitto_sub_topic_check(topic) == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Whether `topic` matches the subscription `filter`.
    static func topic(_ topic: String, matches filter: String) -> Bool {
        var result = false
        return mosquitto_topic_matches_sub(filter, topic, &result) == MOSQ_ERR_SUCCESS.rawValue && result
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
