/// The web page's own files (`HTTP/Page/`: its HTML, CSS and JavaScript), built into the
/// binary by `Tools/web/embed.py` so the page works offline and from a single file.
enum PageAssets {
    struct File {
        let type: String
        let body: [UInt8]
    }

    /// Each file's bytes, made once.
    private static let files: [String: File] = {
        var files: [String: File] = [:]
        for source in sources { files[source.path] = File(type: source.type, body: Array(source.text.utf8)) }
        return files
    }()

    /// The file served at `path` (`/index.html` is `/`), or nil.
    static func file(at path: String) -> File? {
        files[path == "/index.html" ? "/" : path]
    }
}
