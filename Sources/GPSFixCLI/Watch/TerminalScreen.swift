import GPSSystem

/// The terminal as the live view uses it: a screen of its own to redraw in place with ANSI
/// (ECMA-48 and xterm) sequences, given back as it was found. No curses: these few sequences
/// are understood by every terminal emulator in use, and by tmux and screen.
///
/// Not thread-safe: its owner serialises every use (the live view keeps it under a lock).
struct TerminalScreen: Sendable {
    let terminal: Terminal
    /// Whether the view's screen is up, so that leaving twice, or without entering, is harmless.
    private(set) var active = false

    init(terminal: Terminal) { self.terminal = terminal }

    /// xterm's alternate screen (DECSET 1049): the shell's screen and scrollback are saved and
    /// come back untouched on leaving.
    private static let alternateScreen = "\u{1B}[?1049h", mainScreen = "\u{1B}[?1049l"
    /// DECTCEM: a blinking cursor parked on the view is only a distraction.
    private static let hideCursor = "\u{1B}[?25l", showCursor = "\u{1B}[?25h"
    /// DECAWM: with auto-wrap off, a row that is still too wide is cut by the terminal rather
    /// than pushing every row below it down.
    private static let noWrap = "\u{1B}[?7l", wrap = "\u{1B}[?7h"
    /// EL: erase from the cursor to the end of the line.
    private static let clearLine = "\u{1B}[K"

    mutating func enter() {
        guard !active else { return }
        active = true
        write(Self.alternateScreen + Self.hideCursor + Self.noWrap + "\u{1B}[H\u{1B}[2J")
    }

    /// One frame, in one write: each of the screen's `height` rows cleared and given its line
    /// (or none). Rows are cleared one by one as they are redrawn, never the whole screen
    /// first, so nothing flickers. Clearing comes before the text: after a row that fills
    /// the last column, the cursor still stands on it, and a clear would take that column.
    mutating func draw(_ lines: [String], height: Int) {
        guard active else { return }
        let out = terminal.out
        for row in 0..<max(height, lines.count) {
            out.writer.append("\u{1B}[\(row + 1);1H")   // CUP: this row, column 1
            out.writer.append(Self.clearLine)
            if row < lines.count { out.writer.append(lines[row]) }
        }
        out.flush()
    }

    /// The terminal as it was: wrapping and cursor back, the shell's screen restored.
    mutating func leave() {
        guard active else { return }
        active = false
        write(Self.wrap + Self.showCursor + Self.mainScreen)
    }

    /// Whether the terminal has stopped taking writes (it went away).
    var failed: Bool { terminal.out.failed }

    /// Columns and rows, asked of the terminal each time (a window can be resized at any
    /// moment); 80 × 24 when stdout is not a terminal that knows its size.
    func size() -> (width: Int, height: Int) {
        guard let size = terminal.out.descriptor.terminalSize else { return (80, 24) }
        return (size.columns, size.rows)
    }

    /// Whether a terminal of type `term` (`$TERM`) can be redrawn in place: any but "dumb"
    /// (Emacs' shell, some CI logs). An unset TERM says nothing, and `--view` into a pipe, for
    /// a program that renders escapes, must still draw.
    static func canRedraw(term: String?) -> Bool { term != "dumb" }

    /// Whether to colour: a terminal that redraws, whose type says it has colours, unless the
    /// user said NO_COLOR (no-color.org).
    static func hasColour(term: String?, noColor: String?) -> Bool {
        guard let term, canRedraw(term: term), noColor?.isEmpty ?? true else { return false }
        let families = ["xterm", "screen", "tmux", "rxvt", "linux", "vt100", "konsole", "alacritty", "foot", "kitty", "wezterm"]
        return term.contains("color") || families.contains { term.hasPrefix($0) }
    }

    static var environmentTerm: String? { Environment.value("TERM") }
    static var environmentNoColor: String? { Environment.value("NO_COLOR") }

    /// Whether the locale says the terminal shows UTF-8, by the variables' usual precedence.
    static var speaksUTF8: Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = Environment.value(name), !value.isEmpty else { continue }
            let lower = value.lowercased()
            return lower.contains("utf-8") || lower.contains("utf8")
        }
        return false
    }

    private func write(_ text: String) {
        terminal.out.writer.append(text)
        terminal.out.flush()
    }
}
