/// One line of a command's usage, made from its option table as help, the man page and the
/// completions are, so that no option it accepts goes unshown (issue 18 found `fix` and
/// `record` taking `--nmea-tcp`, and `serve` `--mqtt-in`, that their hand-written lines left
/// out). A command with one way to call it has one line; `record` has two.
struct UsageForm: Sendable {
    /// Options the line starts with, as required (`record --gpx FILE`).
    var leading: [String] = []
    /// What follows them, before the options (`FILE`, `bash|zsh`).
    var operands = ""
    /// Options this line does not take (`record FILE` reads a receiver only).
    var leaving: Set<String> = []
}

extension Command {
    /// Every usage line, the second and later indented under the first as `Usage: ` leaves it.
    var usage: String {
        usageForms.map(usageLine).joined(separator: "\n       ")
    }

    /// `gpsfix NAME`, the leading options, the operands, then each option shown in table order:
    /// alternatives (`usageChoice`) in one bracket, followed by `…` when one of them may be
    /// given again; an option with a parent inside the parent's brackets.
    func usageLine(_ form: UsageForm) -> String {
        let shown = options.filter { !$0.isHidden && !form.leaving.contains($0.name) }
        let names = Set(shown.map(\.name))
        // An option whose parent this line does not show stands on its own.
        func parent(_ o: OptionSpec) -> String? { o.usageParent.flatMap { names.contains($0) ? $0 : nil } }
        func term(_ o: OptionSpec) -> String {
            var text = o.name + (o.value.map { " " + $0 } ?? "")
            for child in shown where parent(child) == o.name { text += " [" + term(child) + "]" }
            return text
        }
        var parts = ["gpsfix", invokedAs ?? name]
        for lead in form.leading {
            if let o = shown.first(where: { $0.name == lead }) { parts.append(term(o)) }
        }
        if !form.operands.isEmpty { parts.append(form.operands) }
        var choicesShown: Set<String> = []
        for o in shown where parent(o) == nil && !form.leading.contains(o.name) {
            guard let choice = o.usageChoice else {
                parts.append("[" + term(o) + "]")
                continue
            }
            guard choicesShown.insert(choice).inserted else { continue }
            let alternatives = shown.filter { $0.usageChoice == choice && parent($0) == nil && !form.leading.contains($0.name) }
            let repeated = alternatives.contains(where: \.isRepeatable) ? "…" : ""
            parts.append("[" + alternatives.map(term).joined(separator: " | ") + "]" + repeated)
        }
        return parts.joined(separator: " ")
    }
}
